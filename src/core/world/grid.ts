/**
 * The static grid of a scenario. Cells are addressed by their row-major index
 * `row * cols + col` everywhere inside the library; JSON artifacts write them
 * as `[row, col]`.
 */

export const WALL = 0;
export const FLOOR = 1;
export const EXIT = 2;
export type CellKind = typeof WALL | typeof FLOOR | typeof EXIT;

/** Direction codes, in the order of the action alphabet. */
export const STAY = 0;
export const NORTH = 1;
export const EAST = 2;
export const SOUTH = 3;
export const WEST = 4;
export type Direction = typeof STAY | typeof NORTH | typeof EAST | typeof SOUTH | typeof WEST;

export interface Grid {
  readonly rows: number;
  readonly cols: number;
  /** Kind of each cell, row-major: WALL, FLOOR or EXIT. */
  readonly kinds: Uint8Array;
  /** Exit cells, ascending (row-major). */
  readonly exits: readonly number[];
  /** The map rows as written in the scenario. */
  readonly map: readonly string[];
}

export type CellPair = readonly [row: number, col: number];

export function gridFromMap(map: readonly string[]): Grid {
  const rows = map.length;
  const cols = rows > 0 ? map[0]!.length : 0;
  const kinds = new Uint8Array(rows * cols);
  const exits: number[] = [];
  for (let r = 0; r < rows; r++) {
    const line = map[r]!;
    for (let c = 0; c < cols; c++) {
      const ch = line[c];
      const i = r * cols + c;
      if (ch === '.') kinds[i] = FLOOR;
      else if (ch === 'E') {
        kinds[i] = EXIT;
        exits.push(i);
      } else kinds[i] = WALL;
    }
  }
  return { rows, cols, kinds, exits, map };
}

export function cellIndex(grid: Grid, row: number, col: number): number {
  return row * grid.cols + col;
}

export function cellPair(grid: Grid, cell: number): [number, number] {
  return [Math.floor(cell / grid.cols), cell % grid.cols];
}

export function isOpen(grid: Grid, cell: number): boolean {
  return grid.kinds[cell] !== WALL;
}

/**
 * The cell one step in `dir` from `cell`, or -1 when that leaves the grid.
 * Walls are returned like any other in-grid cell.
 */
export function neighbour(grid: Grid, cell: number, dir: Direction): number {
  const cols = grid.cols;
  switch (dir) {
    case STAY:
      return cell;
    case NORTH:
      return cell >= cols ? cell - cols : -1;
    case SOUTH:
      return cell + cols < grid.rows * cols ? cell + cols : -1;
    case EAST:
      return (cell % cols) + 1 < cols ? cell + 1 : -1;
    case WEST:
      return cell % cols > 0 ? cell - 1 : -1;
  }
}

/** Manhattan distance between two cells (walls ignored). */
export function manhattan(grid: Grid, a: number, b: number): number {
  const cols = grid.cols;
  return Math.abs(Math.floor(a / cols) - Math.floor(b / cols)) + Math.abs((a % cols) - (b % cols));
}
