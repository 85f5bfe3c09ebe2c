/**
 * Frozen `[row, col]` pairs by cell, one table per grid, filled as cells are
 * asked for: the observations and records of every episode of a scenario
 * share them, so none keeps a pair of its own (a long episode's record
 * otherwise kept one per ignition, which the collector copied until the
 * episode ended).
 */

import { WeakCache } from '../weak-cache.js';
import type { CellPair, Grid } from './grid.js';

export type FrozenPairTable = (CellPair | undefined)[];

const TABLES = new WeakCache((grid: Grid): FrozenPairTable => new Array<CellPair | undefined>(grid.rows * grid.cols));

/** The grid's table (pass it to frozenPair). */
export function frozenPairTable(grid: Grid): FrozenPairTable {
  return TABLES.get(grid);
}

/** The frozen pair of `cell` on a grid `cols` wide, from its grid's table. */
export function frozenPair(table: FrozenPairTable, cols: number, cell: number): CellPair {
  return (table[cell] ??= Object.freeze([Math.floor(cell / cols), cell % cols] as const));
}
