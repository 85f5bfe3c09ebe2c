/**
 * The resolver is written for speed (generation-stamped slots, chains
 * followed through what each mover runs into); this file keeps the rules
 * of environment.md section 4.1 in their plainest form, with Maps, and
 * compares the two on random crowds: dense ones (many conflicts, chains,
 * swaps and cycles), sparse ones, with exits and walls, reusing one
 * resolver so that stale scratch state would show.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortAscending } from '../world/frontier.js';
import { EXIT, STAY, WALL, gridFromMap, type Grid } from '../world/grid.js';
import { BLOCKED_CONFLICT, BLOCKED_CYCLE, BLOCKED_OCCUPIED, MovementResolver, moveAllowed, moveTable } from './resolver.js';

interface Reference {
  cells: number[];
  blocked: number[];
  evacuated: number[];
  contested: number[];
}

/** The rules, plainly: person order throughout, Maps for who stands where and how often a cell is claimed. */
function referenceResolve(grid: Grid, cells: readonly number[], moves: readonly number[]): Reference {
  const n = cells.length;
  const { open, step } = moveTable(grid);
  const occupant = new Map<number, number>();
  const claims = new Map<number, number>();
  const target = new Array<number>(n).fill(-1);
  const state = new Array<number>(n).fill(0); // 0 pending, 1 visiting, 2 succeeded, 3 blocked
  const out = cells.slice();
  const blocked = new Array<number>(n).fill(0);
  const evacuated = new Array<number>(n).fill(0);
  const contested = new Int32Array(n);
  let contestedCount = 0;
  for (let i = 0; i < n; i++) {
    const cell = cells[i]!;
    occupant.set(cell, i);
    const dir = moves[i]!;
    if (dir === STAY) continue;
    if (!moveAllowed(open[cell]!, dir)) throw new RangeError(`person ${i} moves ${dir} into a wall or off the grid`);
    const t = cell + step[dir]!;
    target[i] = t;
    const count = claims.get(t) ?? 0;
    claims.set(t, count + 1);
    if (count === 0) continue;
    blocked[i] = BLOCKED_CONFLICT;
    state[i] = 3;
    if (count === 1) contested[contestedCount++] = t;
  }
  const path: number[] = [];
  for (let i = 0; i < n; i++) {
    if (target[i]! < 0 || state[i] !== 0) continue;
    path.length = 0;
    let cur = i;
    let success: boolean;
    let cycleStart = -1;
    for (;;) {
      const s = state[cur]!;
      if (s === 2 || s === 3) {
        success = s === 2;
        break;
      }
      if (s === 1) {
        success = false;
        cycleStart = path.indexOf(cur);
        break;
      }
      state[cur] = 1;
      path.push(cur);
      const t = target[cur]!;
      const o = occupant.get(t);
      if (grid.kinds[t] === EXIT || o === undefined) {
        success = true;
        break;
      }
      if (target[o]! < 0) {
        success = false;
        break;
      }
      cur = o;
    }
    path.forEach((p, k) => {
      if (success) {
        state[p] = 2;
        out[p] = target[p]!;
        if (grid.kinds[target[p]!] === EXIT) evacuated[p] = 1;
      } else {
        state[p] = 3;
        blocked[p] = cycleStart >= 0 && k >= cycleStart ? BLOCKED_CYCLE : BLOCKED_OCCUPIED;
      }
    });
  }
  sortAscending(contested, contestedCount);
  return { cells: out, blocked, evacuated, contested: Array.from(contested.subarray(0, contestedCount)) };
}

/** A random grid, distinct start cells on non-wall, non-exit cells, and a legal direction (or STAY) for each. */
const randomCrowd = fc
  .record({
    rows: fc.integer({ min: 1, max: 40 }),
    cols: fc.integer({ min: 2, max: 40 }),
    density: fc.constantFrom(0.1, 0.5, 0.9, 1),
    stay: fc.constantFrom(0, 0.1, 0.5),
    seed: fc.integer(),
  })
  .map(({ rows, cols, density, stay, seed }) => {
    let x = seed | 0 || 1;
    const random = (): number => {
      // xorshift32: cheap and reproducible from the fast-check seed.
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) / 2 ** 32;
    };
    const map: string[] = [];
    for (let r = 0; r < rows; r++) {
      let line = '';
      for (let c = 0; c < cols; c++) {
        const u = random();
        line += u < 0.1 ? '#' : u < 0.15 ? 'E' : '.';
      }
      map.push(line);
    }
    const grid = gridFromMap(map);
    const { open } = moveTable(grid);
    const cells: number[] = [];
    for (let cell = 0; cell < rows * cols; cell++) if (grid.kinds[cell] !== WALL && grid.kinds[cell] !== EXIT && random() < density) cells.push(cell);
    // Person order is not cell order: shuffle.
    for (let k = cells.length - 1; k > 0; k--) {
      const j = Math.floor(random() * (k + 1));
      [cells[k], cells[j]] = [cells[j]!, cells[k]!];
    }
    const moves = cells.map((cell) => {
      const legal = [1, 2, 3, 4].filter((dir) => moveAllowed(open[cell]!, dir));
      return legal.length === 0 || random() < stay ? STAY : legal[Math.floor(random() * legal.length)]!;
    });
    return { grid, cells, moves };
  });

describe('movement resolver against the plain rules', () => {
  it('gives exactly the plain result on random crowds', () => {
    fc.assert(
      fc.property(randomCrowd, ({ grid, cells, moves }) => {
        const expected = referenceResolve(grid, cells, moves);
        // A reused resolver: stale scratch state from earlier steps must not leak in.
        const resolver = new MovementResolver(grid);
        resolver.resolve(cells.slice().reverse(), moves.slice().reverse());
        const res = resolver.resolve(Int32Array.from(cells), Uint8Array.from(moves));
        expect(Array.from(res.cells)).toEqual(expected.cells);
        expect(Array.from(res.blocked)).toEqual(expected.blocked);
        expect(Array.from(res.evacuated)).toEqual(expected.evacuated);
        expect(res.contested).toEqual(expected.contested);
      }),
      { numRuns: 300 },
    );
  });

  it('shares one scratch state between the resolvers of a grid, interleaved', () => {
    fc.assert(
      fc.property(randomCrowd, ({ grid, cells, moves }) => {
        // A second crowd on the same grid: the first one's people, reversed, half of them staying.
        const otherCells = cells.slice().reverse();
        const otherMoves = moves.slice().reverse().map((dir, k) => (k % 2 === 0 ? STAY : dir));
        const one = new MovementResolver(grid);
        const two = new MovementResolver(grid);
        for (let round = 0; round < 2; round++) {
          const a = one.resolve(cells, moves);
          const b = two.resolve(otherCells, otherMoves);
          expect(Array.from(a.cells)).toEqual(referenceResolve(grid, cells, moves).cells);
          expect(Array.from(b.blocked)).toEqual(referenceResolve(grid, otherCells, otherMoves).blocked);
          // Contested cells are sorted when first read, after the other resolver's call: still this call's.
          expect(a.contested).toEqual(referenceResolve(grid, cells, moves).contested);
          expect(a.contested).toBe(a.contested);
        }
      }),
      { numRuns: 100 },
    );
  });
});
