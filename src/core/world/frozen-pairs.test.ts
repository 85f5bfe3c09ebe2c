import { describe, expect, it } from 'vitest';
import { frozenPair, frozenPairTable } from './frozen-pairs.js';
import { gridFromMap } from './grid.js';

describe('frozen pairs', () => {
  it('gives each cell one frozen [row, col], shared through the grid table', () => {
    const grid = gridFromMap(['#E##', '#..#', '####']);
    const table = frozenPairTable(grid);
    expect(frozenPairTable(grid)).toBe(table);
    const pair = frozenPair(table, grid.cols, 6);
    expect(pair).toEqual([1, 2]);
    expect(Object.isFrozen(pair)).toBe(true);
    expect(frozenPair(frozenPairTable(grid), grid.cols, 6)).toBe(pair);
    expect(frozenPair(table, grid.cols, 11)).toEqual([2, 3]);
    // Another grid, even an equal one, has its own table.
    expect(frozenPairTable(gridFromMap(['#E##', '#..#', '####']))).not.toBe(table);
  });
});
