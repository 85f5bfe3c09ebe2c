/** Choosing a move down a distance field, shared by the path-following baselines. */

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
