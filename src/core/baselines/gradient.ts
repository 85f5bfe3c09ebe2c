/** Choosing a move down a distance field, shared by the path-following baselines. */

import { moveAllowed, moveTable } from '../sim/resolver.js';
import type { Grid } from '../world/grid.js';
import { UNREACHABLE } from './distance-fields.js';
import type { ObservedWorld } from './observed-world.js';

/**
 * The direction (1..4) of a legal move from `cell` onto a cell with a smaller
 * value of `field`, or 0 (STAY) when there is none. With `danger`, the move
 * with the least danger wins; ties (and every choice without `danger`) go to
 * the first in the order N, E, S, W.
 */
export function descend(world: ObservedWorld, field: Int32Array, danger: Int32Array | null, cell: number): number {
  const here = field[cell]!;
  if (here === UNREACHABLE || here === 0) return 0;
  let bestDir = 0;
  let bestDanger = UNREACHABLE;
  for (let dir = 1; dir <= 4; dir++) {
    const n = world.legalTarget(cell, dir);
    if (n < 0 || field[n]! >= here) continue;
    if (danger === null) return dir;
    const d = danger[n]!;
    if (bestDir === 0 || d < bestDanger) {
      bestDir = dir;
      bestDanger = d;
    }
  }
  return bestDir;
}

/**
 * For a field that never changes (a static field): the moves (bit `dir`,
 * 1..4) from each cell that stay on the grid, out of walls and onto a cell
 * of smaller value, which is what descend considers before the fire.
 * ObservedWorld.firstUnburning then chooses as descend(world, field, null,
 * cell) does, checking only the fire.
 */
export function descentMoves(grid: Grid, field: Int32Array): Uint8Array {
  const { open, step } = moveTable(grid);
  const out = new Uint8Array(field.length);
  for (let cell = 0; cell < field.length; cell++) {
    const here = field[cell]!;
    if (here === UNREACHABLE || here === 0) continue;
    let bits = 0;
    for (let dir = 1; dir <= 4; dir++) {
      if (moveAllowed(open[cell]!, dir) && field[cell + step[dir]!]! < here) bits |= 1 << dir;
    }
    out[cell] = bits;
  }
  return out;
}
