/**
 * Wall-only shortest-path distance to the nearest exit: the number of moves
 * over open (floor or exit) cells from a cell to the nearest exit, ignoring
 * fire and people. It is the static bound of the `path_efficiency` metric
 * and the `w` of the scoring cut bound (scoring-v1.0.md section 4.2).
 *
 * A multi-source BFS from every exit. A shortest path to the nearest exit
 * never passes another exit first (that one would be nearer), so the BFS may
 * run through exits like any open cell.
 */

import { WALL, type Grid } from '../world/grid.js';

/** Distance of a wall, or of an open cell from which no exit can be reached. */
export const UNREACHABLE = -1;

/** Per cell, the wall-only distance to the nearest exit (0 on an exit), or UNREACHABLE. */
export function staticExitDistance(grid: Grid): Int32Array {
  const { rows, cols, kinds } = grid;
  const size = rows * cols;
  const dist = new Int32Array(size).fill(UNREACHABLE);
  const queue = new Int32Array(size);
  let tail = 0;
  for (const e of grid.exits) {
    dist[e] = 0;
    queue[tail++] = e;
  }
  let head = 0;
  while (head < tail) {
    const cur = queue[head++]!;
    const next = dist[cur]! + 1;
    const col = cur % cols;
    const visit = (n: number): void => {
      if (kinds[n] !== WALL && dist[n] === UNREACHABLE) {
        dist[n] = next;
        queue[tail++] = n;
      }
    };
    if (cur >= cols) visit(cur - cols);
    if (cur + cols < size) visit(cur + cols);
    if (col + 1 < cols) visit(cur + 1);
    if (col > 0) visit(cur - 1);
  }
  return dist;
}
