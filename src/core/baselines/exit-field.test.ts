import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gridFromMap, FLOOR, WALL } from '../world/grid.js';
import { exitSearch, lowerManhattanDistances, manhattanDistances, routeDanger } from './distance-fields.js';
import { ExitField } from './exit-field.js';

const WEIGHTS = [16, 16, 8, 4, 2, 1, 0];

/** A random map (walls, floor, at least one exit) and a random order in which open cells ignite, `batch` at most at a time. */
const worldOf = (side: number, batch: number) =>
  fc.record({ rows: fc.integer({ min: 1, max: side }), cols: fc.integer({ min: 1, max: side }) }).chain(({ rows, cols }) =>
    fc.record({
      rows: fc.constant(rows),
      cols: fc.constant(cols),
      kinds: fc.array(fc.constantFrom('#', '.', '.', '.', 'E'), { minLength: rows * cols, maxLength: rows * cols }),
      exitAt: fc.integer({ min: 0, max: rows * cols - 1 }),
      fire: fc.array(fc.integer({ min: 0, max: rows * cols - 1 }), { maxLength: rows * cols }),
      batches: fc.array(fc.integer({ min: 1, max: batch }), { minLength: 1, maxLength: 20 }),
      exitSubset: fc.boolean(),
    }),
  );

type World = ReturnType<typeof worldOf> extends fc.Arbitrary<infer W> ? W : never;
const worldArb = worldOf(9, 4);

/** Burns `w`'s fire batch by batch, checking the repaired field against a fresh search after each. */
function checkRepairs(w: World): void {
  const cells = w.kinds.slice();
  cells[w.exitAt] = 'E';
  const map = Array.from({ length: w.rows }, (_, r) => cells.slice(r * w.cols, (r + 1) * w.cols).join(''));
  const grid = gridFromMap(map);
  const size = grid.rows * grid.cols;
  // Either every exit, or one exit's cells only (a door field).
  const sources = w.exitSubset ? [grid.exits[0]!] : grid.exits;
  const burning = new Uint8Array(size);
  const proximity = manhattanDistances(grid, [], WEIGHTS.length - 1);
  const penalty = new Int32Array(size).map((_, c) => WEIGHTS[proximity[c]!]!);
  const field = new ExitField(grid, sources);
  field.rebuild(burning, penalty);
  const changed = new Int32Array(size);
  let f = 0;
  for (const batch of w.batches) {
    const added: number[] = [];
    for (let k = 0; k < batch && f < w.fire.length; f++) {
      const c = w.fire[f]!;
      if (grid.kinds[c] === WALL || burning[c]) continue;
      burning[c] = 1;
      added.push(c);
      k++;
    }
    const count = lowerManhattanDistances(grid, added, WEIGHTS.length - 1, proximity, changed);
    const repenalized = Array.from(changed.subarray(0, count));
    for (const c of repenalized) penalty[c] = WEIGHTS[proximity[c]!]!;
    field.update(added, repenalized, burning, penalty);

    const dist = new Int32Array(size);
    const order = new Int32Array(size);
    const reached = exitSearch(grid, sources, burning, dist, order);
    const danger = routeDanger(grid, dist, order, reached, penalty);
    expect(Array.from(field.dist)).toEqual(Array.from(dist));
    expect(Array.from(field.danger)).toEqual(Array.from(danger));
    const burningList = [...burning.keys()].filter((c) => burning[c]);
    expect(Array.from(proximity)).toEqual(Array.from(manhattanDistances(grid, burningList, WEIGHTS.length - 1)));
  }
}

describe('ExitField', () => {
  it('update after fire growth equals a fresh search and route danger', () => {
    fc.assert(fc.property(worldArb, checkRepairs), { numRuns: 400 });
  });

  it('equals a fresh search on larger worlds whose fire grows by dozens of cells at once (scratch arrays grow mid-update)', () => {
    fc.assert(fc.property(worldOf(30, 80), checkRepairs), { numRuns: 40 });
  });

  it('keeps floor cells next to nothing but fire unreachable', () => {
    const grid = gridFromMap(['E..', '...']);
    const burning = new Uint8Array(6);
    const penalty = new Int32Array(6);
    const field = new ExitField(grid, grid.exits);
    field.rebuild(burning, penalty);
    expect(Array.from(field.dist)).toEqual([0, 1, 2, 1, 2, 3]);
    burning[1] = 1;
    burning[3] = 1;
    field.update([1, 3], [], burning, penalty);
    expect(field.dist[4]).toBe(0x7fffffff);
    expect(grid.kinds[4]).toBe(FLOOR);
  });
});
