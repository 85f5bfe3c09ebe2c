import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellIndex, FLOOR } from '../world/grid.js';
import { testEpisodeStart, type TestWorldSpec } from '../../../test/kits/worlds.js';
import { bruteForceEscape, inDangerZoneBruteForce, randomWorld } from '../../../test/kits/references.js';
import { NO_ESCAPE, computeReferences, dangerZoneOnset, earliestFrom, isSavable } from './references.js';

function refsOf(spec: TestWorldSpec) {
  const start = testEpisodeStart(spec);
  const grid = start.scenario.grid;
  return { grid, fire: start.fire, refs: computeReferences(grid, start.fire, start.startCells) };
}

// Fire chases the person along a corridor: (1,1) burns at 0, (1,k) at k for k >= 2, the exit at 6.
const CHASE: TestWorldSpec = {
  map: ['#######', '#.P...E', '#######'],
  fire: [
    { cell: [1, 1], step: 0 },
    { cell: [1, 2], step: 2 },
    { cell: [1, 3], step: 3 },
    { cell: [1, 4], step: 4 },
    { cell: [1, 5], step: 5 },
    { cell: [1, 6], step: 6 },
  ],
  maxSteps: 10,
};

// Two routes from P to the exit: along row 3 (8 moves) past (3,5), which is
// within Manhattan distance 2 of the walled-in fire at (5,5), or around by
// row 1 (12 moves) with no danger-zone state.
const DETOUR: TestWorldSpec = {
  map: ['###########', '#.........#', '#.#######.#', '#P.......E#', '###########', '#####.#####', '###########'],
  fire: [{ cell: [5, 5], step: 0 }],
  maxSteps: 20,
};

describe('computeReferences on hand-built worlds', () => {
  it('outruns fire along a corridor, every state in the danger zone', () => {
    const { grid, refs } = refsOf(CHASE);
    // (1,2)@0 -> (1,3)@1 -> (1,4)@2 -> (1,5)@3 -> exit at step 4; each state is 1 or 2 from the fire.
    expect([...refs.earliestEvacuation]).toEqual([4]);
    expect([...refs.fewestMoves]).toEqual([4]);
    expect([...refs.fewestDangerStates]).toEqual([4]);
    expect(refs.maxEvacuated).toBe(1);
    const at = (r: number, c: number, t: number) => earliestFrom(refs, cellIndex(grid, r, c), t);
    expect(at(1, 3, 2)).toBe(5); // one step late: (1,4)@3, (1,5)@4, exit at 5
    expect(at(1, 3, 3)).toBe(NO_ESCAPE); // (1,3) burns at 3: a dead state
    expect(at(1, 5, 4)).toBe(5);
    expect(at(1, 5, 10)).toBe(NO_ESCAPE); // snapshot H has no successor
    expect(at(1, 6, 0)).toBe(NO_ESCAPE); // nobody stands on an exit
    expect(at(0, 0, 0)).toBe(NO_ESCAPE); // wall
  });

  it('respects the horizon: evacuating at step H counts, one step later does not', () => {
    const upTo = (h: number): TestWorldSpec => ({ ...CHASE, maxSteps: h, fire: CHASE.fire!.filter(({ step }) => step <= h) });
    expect([...refsOf(upTo(4)).refs.earliestEvacuation]).toEqual([4]);
    const late = refsOf(upTo(3)).refs;
    expect([...late.earliestEvacuation]).toEqual([NO_ESCAPE]);
    expect(late.maxEvacuated).toBe(0);
  });

  it('an exit burning at the start of the step cannot be used, one burning at its end can', () => {
    const base: TestWorldSpec = { map: ['####', '#P.E', '####'], maxSteps: 5 };
    // Exit reached in step 2 (from snapshot 1): usable iff not in B(1).
    expect(refsOf({ ...base, fire: [{ cell: [1, 3], step: 2 }] }).refs.earliestEvacuation[0]).toBe(2);
    expect(refsOf({ ...base, fire: [{ cell: [1, 3], step: 1 }] }).refs.earliestEvacuation[0]).toBe(NO_ESCAPE);
    // A floor cell must not burn after the fire phase: (1,2) burning at 1 kills a person arriving at 1.
    expect(refsOf({ ...base, fire: [{ cell: [1, 2], step: 1 }] }).refs.earliestEvacuation[0]).toBe(NO_ESCAPE);
    expect(refsOf({ ...base, fire: [{ cell: [1, 2], step: 2 }] }).refs.earliestEvacuation[0]).toBe(2);
  });

  it('marks a person cut off by fire as not savable and counts M*', () => {
    const { refs } = refsOf({
      map: ['#########', '#P.P.P.E#', '#########'],
      fire: [{ cell: [1, 4], step: 0 }],
      maxSteps: 20,
    });
    // Persons at (1,1), (1,3), (1,5): the fire at (1,4) cuts the first two off.
    expect([...refs.earliestEvacuation]).toEqual([NO_ESCAPE, NO_ESCAPE, 2]);
    expect([...refs.fewestMoves]).toEqual([NO_ESCAPE, NO_ESCAPE, 2]);
    // (1,5)@0 and (1,6)@1 are at distance 1 and 2 from the fire.
    expect([...refs.fewestDangerStates]).toEqual([NO_ESCAPE, NO_ESCAPE, 2]);
    expect(refs.maxEvacuated).toBe(1);
    expect([0, 1, 2].map((i) => isSavable(refs, i))).toEqual([false, false, true]);
  });

  it('minimizes moves and danger-zone states independently (the detour case)', () => {
    const { grid, fire, refs } = refsOf(DETOUR);
    expect(refs.earliestEvacuation[0]).toBe(8);
    expect(refs.fewestMoves[0]).toBe(8);
    // The 12-move route by row 1 never comes within distance 2 of the fire.
    expect(refs.fewestDangerStates[0]).toBe(0);
    // The short route's one danger state is (3,5): distance 2 to (5,5), through walls.
    expect(inDangerZoneBruteForce(grid, fire, cellIndex(grid, 3, 5), 4)).toBe(true);
    expect(inDangerZoneBruteForce(grid, fire, cellIndex(grid, 3, 4), 3)).toBe(false);
    // Shortening the horizon below 12 leaves only the route past the fire.
    const short = refsOf({ ...DETOUR, maxSteps: 11 }).refs;
    expect([short.earliestEvacuation[0], short.fewestMoves[0], short.fewestDangerStates[0]]).toEqual([8, 8, 1]);
  });

  it('a person who waits keeps the same remaining time until the horizon cuts it', () => {
    // The fire only grows, so waiting never shortens an escape: L(x, t) - t never falls as t grows.
    const { grid, refs } = refsOf(DETOUR);
    const x = cellIndex(grid, 3, 1);
    const remaining = [0, 1, 2, 3, 4, 5].map((t) => earliestFrom(refs, x, t) - t);
    expect(remaining).toEqual([8, 8, 8, 8, 8, 8]);
    expect(earliestFrom(refs, x, 12)).toBe(20); // 8 steps left at 12: evacuates exactly at H
    expect(earliestFrom(refs, x, 13)).toBe(NO_ESCAPE);
  });
});

describe('dangerZoneOnset', () => {
  it('is the first step a cell within distance 2 (walls ignored, not itself) burns', () => {
    const { grid, fire } = refsOf(DETOUR);
    const onset = dangerZoneOnset(grid, fire);
    expect(onset[cellIndex(grid, 3, 5)]).toBe(0);
    expect(onset[cellIndex(grid, 4, 4)]).toBe(0);
    expect(onset[cellIndex(grid, 3, 4)]).toBe(0x7fffffff);
    expect(onset[cellIndex(grid, 5, 5)]).toBe(0x7fffffff); // the burning cell itself has d = 0
  });
});

describe('computeReferences equals a brute-force forward search', () => {
  it('on random small worlds with random fire (every cell and snapshot)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.integer({ min: 2, max: 6 }),
        fc.integer({ min: 2, max: 6 }),
        fc.integer({ min: 1, max: 9 }),
        (seed, rows, cols, maxSteps) => {
          const world = randomWorld(seed, { rows, cols, maxSteps, density: 0 });
          const start = testEpisodeStart({ map: world.map, fire: world.fire, maxSteps });
          const grid = start.scenario.grid;
          const fire = start.fire;
          const floors: number[] = [];
          for (let x = 0; x < grid.kinds.length; x++) if (grid.kinds[x] === FLOOR) floors.push(x);
          const refs = computeReferences(grid, fire, floors);
          floors.forEach((x, i) => {
            const brute = bruteForceEscape(grid, fire, x, 0);
            expect([refs.earliestEvacuation[i], refs.fewestMoves[i], refs.fewestDangerStates[i]]).toEqual([
              brute.earliest,
              brute.fewestMoves,
              brute.fewestDanger,
            ]);
            for (let t = 0; t <= maxSteps; t++) {
              expect(earliestFrom(refs, x, t)).toBe(bruteForceEscape(grid, fire, x, t).earliest);
            }
          });
          expect(refs.maxEvacuated).toBe(floors.filter((x) => bruteForceEscape(grid, fire, x, 0).earliest !== NO_ESCAPE).length);
        },
      ),
      { numRuns: 150, seed: 20240611 },
    );
  });

  it('danger onset equals a scan of the burning cells', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (seed) => {
        const world = randomWorld(seed, { rows: 5, cols: 7, maxSteps: 6, density: 0 });
        const { scenario, fire } = testEpisodeStart({ map: world.map, fire: world.fire, maxSteps: 6 });
        const grid = scenario.grid;
        const onset = dangerZoneOnset(grid, fire);
        for (let x = 0; x < grid.kinds.length; x++) {
          for (let t = 0; t <= 6; t++) {
            const fast = onset[x]! <= t && fire.ignitionStep[x]! > t;
            expect(fast).toBe(inDangerZoneBruteForce(grid, fire, x, t));
          }
        }
      }),
      { numRuns: 60, seed: 7 },
    );
  });
});
