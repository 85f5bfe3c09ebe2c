/**
 * Breadth-first distance fields for the baseline agents. Every field is an
 * Int32Array over the row-major cells; callers pass `out` and `queue` scratch
 * arrays (length rows * cols) so that an agent reuses them every step.
 */

import { WeakCache } from '../weak-cache.js';
import { EXIT, FLOOR, WALL, type Grid } from '../world/grid.js';

/** Distance of a cell from which no source can be reached. */
export const UNREACHABLE = 0x7fffffff;

/**
 * The in-grid neighbours of every cell: `table[cell * 4 + k]` for k = 0..3
 * (N, E, S, W) is the neighbour cell, or -1 off the grid (walls included).
 * Built once per grid and cached; the searches below use it instead of
 * row/column arithmetic in their inner loops.
 */
export function neighbourTable(grid: Grid): Int32Array {
  return TABLES.get(grid);
}

const TABLES = new WeakCache((grid: Grid): Int32Array => {
  const { rows, cols } = grid;
  const size = rows * cols;
  const table = new Int32Array(size * 4);
  for (let cell = 0; cell < size; cell++) {
    const col = cell % cols;
    table[cell * 4] = cell >= cols ? cell - cols : -1;
    table[cell * 4 + 1] = col + 1 < cols ? cell + 1 : -1;
    table[cell * 4 + 2] = cell + cols < size ? cell + cols : -1;
    table[cell * 4 + 3] = col > 0 ? cell - 1 : -1;
  }
  return table;
});

const PADDED_TABLES = new WeakCache((grid: Grid): Int32Array => {
  const size = grid.rows * grid.cols;
  return neighbourTable(grid).map((n) => (n < 0 ? size : n));
});

/** neighbourTable with every off-grid neighbour (-1) replaced by the cell count: the padding cell. */
export function paddedNeighbourTable(grid: Grid): Int32Array {
  return PADDED_TABLES.get(grid);
}

function scratch(grid: Grid, given: Int32Array | undefined): Int32Array {
  const size = grid.rows * grid.cols;
  if (given === undefined) return new Int32Array(size);
  if (given.length < size) throw new RangeError(`scratch array has ${given.length} cells, the grid ${size}`);
  return given;
}

/**
 * Shortest-path distances (4-neighbour steps over open cells) to the nearest
 * of `sources` (exit cells). Walls are never entered, nor cells with
 * `burning[cell] !== 0` when a mask is given. Exits that are not sources are
 * not entered either: a person who steps onto an exit leaves the grid, so no
 * route runs through one. Sources that are walls or burning are skipped.
 */
export function exitDistances(
  grid: Grid,
  sources: ArrayLike<number>,
  burning: Uint8Array | null,
  out?: Int32Array,
  queue?: Int32Array,
): Int32Array {
  const dist = scratch(grid, out);
  exitSearch(grid, sources, burning, dist, scratch(grid, queue));
  return dist;
}

/**
 * The search behind `exitDistances`, for callers that also need the visiting
 * order: fills `dist` and writes the reached cells in nondecreasing distance
 * into `order`; returns how many cells were reached.
 */
export function exitSearch(
  grid: Grid,
  sources: ArrayLike<number>,
  burning: Uint8Array | null,
  dist: Int32Array,
  order: Int32Array,
): number {
  const { kinds, cols } = grid;
  const size = grid.rows * cols;
  if (dist.length < size || order.length < size) throw new RangeError(`scratch arrays must hold ${size} cells`);
  dist.fill(UNREACHABLE, 0, size);
  let head = 0;
  let tail = 0;
  for (let i = 0; i < sources.length; i++) {
    const s = sources[i]!;
    if (kinds[s] === WALL || (burning !== null && burning[s] !== 0) || dist[s] === 0) continue;
    dist[s] = 0;
    order[tail++] = s;
  }
  const table = neighbourTable(grid);
  while (head < tail) {
    const cell = order[head++]!;
    const d = dist[cell]! + 1;
    for (let k = cell * 4, end = k + 4; k < end; k++) {
      const n = table[k]!;
      if (n < 0 || dist[n] !== UNREACHABLE) continue;
      // Only floor is entered: walls never, other exits never (see exitDistances).
      if (kinds[n] !== FLOOR || (burning !== null && burning[n] !== 0)) continue;
      dist[n] = d;
      order[tail++] = n;
    }
  }
  return tail;
}

/**
 * The least total danger (`penalty` summed over the cells entered, the exit
 * excluded) of a shortest route from each cell to a source of `dist`, so
 * that a person can pick, among equally short routes, the one that keeps
 * away from the fire. `order`/`reached` come from exitSearch; unreached
 * cells get UNREACHABLE.
 */
export function routeDanger(
  grid: Grid,
  dist: Int32Array,
  order: Int32Array,
  reached: number,
  penalty: Int32Array,
  out?: Int32Array,
): Int32Array {
  const danger = scratch(grid, out);
  const size = grid.rows * grid.cols;
  const table = neighbourTable(grid);
  danger.fill(UNREACHABLE, 0, size);
  for (let k = 0; k < reached; k++) {
    const cell = order[k]!;
    const d = dist[cell]!;
    if (d === 0) {
      danger[cell] = 0;
      continue;
    }
    let best = UNREACHABLE;
    for (let j = cell * 4, end = j + 4; j < end; j++) {
      const n = table[j]!;
      // Cells are visited in nondecreasing distance, so a predecessor is final.
      if (n >= 0 && dist[n] === d - 1 && danger[n]! < best) best = danger[n]!;
    }
    danger[cell] = best + penalty[cell]!;
  }
  return danger;
}

/** The wall-only field: distance to the nearest exit, fire ignored (static-shortest-path-v1). */
export function wallOnlyDistances(grid: Grid, out?: Int32Array, queue?: Int32Array): Int32Array {
  return exitDistances(grid, grid.exits, null, out, queue);
}

/**
 * The fire-aware field: distance to the nearest non-burning exit through
 * non-wall, non-burning cells (fire-aware-shortest-path-v1).
 */
export function fireAwareDistances(grid: Grid, burning: Uint8Array, out?: Int32Array, queue?: Int32Array): Int32Array {
  return exitDistances(grid, grid.exits, burning, out, queue);
}

/**
 * Manhattan distance (walls ignored) to the nearest of `sources`, capped at
 * `cap`: cells farther away than `cap`, and every cell when there is no
 * source, get `cap`. A breadth-first search over all cells measures
 * Manhattan distance exactly, and the cap bounds its work.
 */
export function manhattanDistances(
  grid: Grid,
  sources: ArrayLike<number>,
  cap: number = UNREACHABLE,
  out?: Int32Array,
  queue?: Int32Array,
): Int32Array {
  const dist = scratch(grid, out);
  dist.fill(cap, 0, grid.rows * grid.cols);
  lowerManhattanDistances(grid, sources, cap, dist, scratch(grid, queue));
  return dist;
}

/**
 * Adds `sources` to a capped Manhattan field made by manhattanDistances
 * (with the same cap): lowers every cell that is now nearer a source. It
 * touches only the cells it lowers, which it writes into `changed`; returns
 * how many. This keeps a fire-proximity field current as the fire grows.
 */
export function lowerManhattanDistances(
  grid: Grid,
  sources: ArrayLike<number>,
  cap: number,
  dist: Int32Array,
  changed: Int32Array,
): number {
  const size = grid.rows * grid.cols;
  if (dist.length < size || changed.length < size) throw new RangeError(`scratch arrays must hold ${size} cells`);
  if (cap <= 0) return 0;
  const table = neighbourTable(grid);
  let head = 0;
  let tail = 0;
  for (let i = 0; i < sources.length; i++) {
    const s = sources[i]!;
    if (dist[s] === 0) continue;
    dist[s] = 0;
    changed[tail++] = s;
  }
  while (head < tail) {
    const cell = changed[head++]!;
    const d = dist[cell]! + 1;
    if (d >= cap) continue; // neighbours already hold at most the cap
    for (let k = cell * 4, end = k + 4; k < end; k++) {
      const n = table[k]!;
      if (n < 0 || dist[n]! <= d) continue;
      dist[n] = d;
      changed[tail++] = n;
    }
  }
  return tail;
}

/**
 * Exit groups: the 4-connected components of exit cells (a door several
 * cells wide is one group), each ascending, ordered by their first cell.
 */
export function exitGroups(grid: Grid): number[][] {
  const { kinds, cols } = grid;
  const size = grid.rows * cols;
  const seen = new Uint8Array(size);
  const groups: number[][] = [];
  for (const start of grid.exits) {
    if (seen[start]) continue;
    const group = [start];
    seen[start] = 1;
    for (let k = 0; k < group.length; k++) {
      const cell = group[k]!;
      const col = cell % cols;
      const around = [
        cell >= cols ? cell - cols : -1,
        col + 1 < cols ? cell + 1 : -1,
        cell + cols < size ? cell + cols : -1,
        col > 0 ? cell - 1 : -1,
      ];
      for (const n of around) {
        if (n >= 0 && kinds[n] === EXIT && !seen[n]) {
          seen[n] = 1;
          group.push(n);
        }
      }
    }
    groups.push(group.sort((a, b) => a - b));
  }
  return groups;
}
