import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXIT, FLOOR, gridFromMap, type Grid } from '../world/grid.js';
import {
  UNREACHABLE,
  exitGroups,
  exitSearch,
  fireAwareDistances,
  manhattanDistances,
  neighbourTable,
  routeDanger,
  wallOnlyDistances,
} from './distance-fields.js';

const U = UNREACHABLE;

/** Distances by repeated relaxation until nothing changes (slow, obviously right). */
function naiveDistances(grid: Grid, sources: readonly number[], burning: ReadonlySet<number>): number[] {
  const size = grid.rows * grid.cols;
  const dist = Array<number>(size).fill(U);
  for (const s of sources) if (grid.kinds[s] !== 0 && !burning.has(s)) dist[s] = 0;
  const enterable = (c: number) => grid.kinds[c] === FLOOR && !burning.has(c);
  for (let changed = true; changed; ) {
    changed = false;
    for (let c = 0; c < size; c++) {
      if (!enterable(c) || dist[c] === 0) continue;
      const r = Math.floor(c / grid.cols);
      const col = c % grid.cols;
      const around = [
        r > 0 ? c - grid.cols : -1,
        col + 1 < grid.cols ? c + 1 : -1,
        r + 1 < grid.rows ? c + grid.cols : -1,
        col > 0 ? c - 1 : -1,
      ];
      for (const n of around) {
        if (n >= 0 && dist[n]! !== U && dist[n]! + 1 < dist[c]!) {
          dist[c] = dist[n]! + 1;
          changed = true;
        }
      }
    }
  }
  return dist;
}

describe('distance fields', () => {
  it('wall-only: shortest paths around walls to the nearest exit', () => {
    const grid = gridFromMap(['..E', '.##', '...']);
    expect(Array.from(wallOnlyDistances(grid))).toEqual([2, 1, 0, 3, U, U, 4, 5, 6]);
  });

  it('fire-aware: burning cells and burning exits are neither entered nor sources', () => {
    const grid = gridFromMap(['E...E']);
    const burning = new Uint8Array(5);
    burning[0] = 1; // the west exit burns
    burning[2] = 1;
    expect(Array.from(fireAwareDistances(grid, burning))).toEqual([U, U, U, 1, 0]);
  });

  it('no route runs through another exit', () => {
    // The only way from (0,0) to the exit at (0,2) passes the exit at (0,1).
    const grid = gridFromMap(['.EE']);
    const dist = new Int32Array(3);
    const order = new Int32Array(3);
    exitSearch(grid, [2], null, dist, order);
    expect(Array.from(dist)).toEqual([U, U, 0]);
  });

  it('matches naive relaxation on random maps and fires', () => {
    const arb = fc
      .record({ rows: fc.integer({ min: 1, max: 7 }), cols: fc.integer({ min: 1, max: 7 }) })
      .chain(({ rows, cols }) =>
        fc.record({
          rows: fc.constant(rows),
          cols: fc.constant(cols),
          chars: fc.array(fc.constantFrom('#', '.', '.', 'E'), { minLength: rows * cols, maxLength: rows * cols }),
          fire: fc.array(fc.boolean(), { minLength: rows * cols, maxLength: rows * cols }),
        }),
      );
    fc.assert(
      fc.property(arb, ({ rows, cols, chars, fire }) => {
        const grid = gridFromMap(Array.from({ length: rows }, (_, r) => chars.slice(r * cols, (r + 1) * cols).join('')));
        const burning = new Uint8Array(rows * cols).map((_, c) => (fire[c] && chars[c] !== '#' ? 1 : 0));
        const burningSet = new Set([...burning.keys()].filter((c) => burning[c]));
        expect(Array.from(wallOnlyDistances(grid))).toEqual(naiveDistances(grid, grid.exits, new Set()));
        expect(Array.from(fireAwareDistances(grid, burning))).toEqual(naiveDistances(grid, grid.exits, burningSet));
        const manhattan = manhattanDistances(grid, [...burningSet]);
        for (let c = 0; c < rows * cols; c++) {
          const [r, col] = [Math.floor(c / cols), c % cols];
          const expected = Math.min(U, ...[...burningSet].map((b) => Math.abs(Math.floor(b / cols) - r) + Math.abs((b % cols) - col)));
          expect(manhattan[c]).toBe(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('caps Manhattan distances', () => {
    const grid = gridFromMap(['.#...']);
    expect(Array.from(manhattanDistances(grid, [0], 3))).toEqual([0, 1, 2, 3, 3]);
    expect(Array.from(manhattanDistances(grid, [], 3))).toEqual([3, 3, 3, 3, 3]);
  });

  it('route danger takes the least dangerous of the shortest routes', () => {
    // From (1,0) the shortest routes to the exit (0,2) run along the top row
    // (penalty 5 per cell) or the bottom row (0); the bottom one wins.
    const grid = gridFromMap(['..E', '...']);
    const dist = new Int32Array(6);
    const order = new Int32Array(6);
    const reached = exitSearch(grid, grid.exits, null, dist, order);
    const penalty = Int32Array.from([5, 5, 9, 1, 0, 0]);
    const danger = routeDanger(grid, dist, order, reached, penalty);
    // (1,2): 0. (1,1): 0 + min(5, 0). (0,1): 5. (0,0): 5 + 5. (1,0): 1 + min(10, 0).
    expect(Array.from(danger)).toEqual([10, 5, 0, 1, 0, 0]);
  });

  it('groups adjacent exits into doors', () => {
    const grid = gridFromMap(['#EE#E', 'E...#', 'E#..E']);
    expect(exitGroups(grid)).toEqual([[1, 2], [4], [5, 10], [14]]);
    expect(grid.kinds[1]).toBe(EXIT);
  });

  it('tabulates in-grid neighbours N, E, S, W', () => {
    const table = neighbourTable(gridFromMap(['..', '..', '..']));
    expect(Array.from(table.subarray(2 * 4, 3 * 4))).toEqual([0, 3, 4, -1]);
    expect(Array.from(table.subarray(5 * 4, 6 * 4))).toEqual([3, -1, -1, 4]);
  });
});
