import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gridFromMap, manhattan, type Grid } from '../world/grid.js';
import { FireDistanceField, NO_FIRE } from './fire-distance.js';

function openGrid(rows: number, cols: number): Grid {
  return gridFromMap(Array.from({ length: rows }, () => '.'.repeat(cols)));
}

/** Brute force: min Manhattan distance to any burning cell, NO_FIRE when none burns. */
function bruteForce(grid: Grid, burning: ReadonlySet<number>): number[] {
  const out: number[] = [];
  for (let c = 0; c < grid.rows * grid.cols; c++) {
    let best = NO_FIRE;
    for (const b of burning) best = Math.min(best, manhattan(grid, c, b));
    out.push(best);
  }
  return out;
}

describe('incremental fire distance', () => {
  it('is NO_FIRE everywhere until something burns', () => {
    const field = new FireDistanceField(openGrid(3, 4));
    expect(field.hasFire).toBe(false);
    expect(Array.from(field.distance).every((d) => d === NO_FIRE)).toBe(true);
    field.addBurning([]);
    expect(field.hasFire).toBe(false);
  });

  it('ignores walls: distances are Manhattan, not shortest paths', () => {
    // The wall column separates (1,0) from (1,2); a path would need 4 moves, Manhattan says 2.
    const grid = gridFromMap(['...', '.#.', '.#.']);
    const field = new FireDistanceField(grid);
    field.addBurning([2 * 3 + 0]); // (2,0)
    expect(field.at(2 * 3 + 2)).toBe(2);
    expect(field.at(0 * 3 + 2)).toBe(4);
    expect(field.at(1 * 3 + 1)).toBe(2); // the wall cell itself gets a distance too
    field.addBurning([0 * 3 + 2]); // (0,2)
    expect(Array.from(field.distance)).toEqual([2, 1, 0, 1, 2, 1, 0, 1, 2]);
    expect(field.hasFire).toBe(true);
  });

  it('rejects cells outside the grid', () => {
    const field = new FireDistanceField(openGrid(2, 2));
    expect(() => field.addBurning([4])).toThrow(RangeError);
    expect(() => field.addBurning([-1])).toThrow(RangeError);
  });

  it('equals a brute-force recomputation after every batch of random fire growth', () => {
    const scenario = fc
      .record({ rows: fc.integer({ min: 1, max: 12 }), cols: fc.integer({ min: 1, max: 12 }) })
      .chain(({ rows, cols }) =>
        fc.record({
          rows: fc.constant(rows),
          cols: fc.constant(cols),
          // Batches may repeat cells already burning (the field must ignore them).
          batches: fc.array(fc.array(fc.integer({ min: 0, max: rows * cols - 1 }), { maxLength: 6 }), { maxLength: 10 }),
        }),
      );
    fc.assert(
      fc.property(scenario, ({ rows, cols, batches }) => {
        const grid = openGrid(rows, cols);
        const field = new FireDistanceField(grid);
        const burning = new Set<number>();
        for (const batch of batches) {
          field.addBurning(batch);
          for (const c of batch) burning.add(c);
          expect(Array.from(field.distance)).toEqual(bruteForce(grid, burning));
          expect(field.hasFire).toBe(burning.size > 0);
        }
      }),
      { numRuns: 300 },
    );
  });
});
