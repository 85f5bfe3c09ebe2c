import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charToDirection } from '../sim/actions.js';
import { testEpisodeStart, type TestWorldSpec } from '../../../test/kits/worlds.js';
import type { StepEvent } from '../sim/events.js';
import { cellIndex } from '../world/grid.js';
import { privilegedGreedyPolicy, randomLegalPolicy, randomWorld, runPolicy, type MovePolicy } from '../../../test/kits/references.js';
import { NO_ESCAPE, computeReferences } from './references.js';
import { NO_ROUTE, RouteEventObserver, fireAwareDistances } from './route-events.js';

/** Plays one string per step with one character (. N E S W) per active person; STAY after the script. */
function scripted(lines: readonly string[]): MovePolicy {
  return (sim) => Uint8Array.from(sim.active, (_, k) => charToDirection(lines[sim.t]?.[k] ?? '.') ?? 0);
}

function observe(spec: TestWorldSpec, policy: MovePolicy) {
  const start = testEpisodeStart(spec);
  const grid = start.scenario.grid;
  const refs = computeReferences(grid, start.fire, start.startCells);
  const observer = new RouteEventObserver(grid, start.fire, refs);
  const outcome = runPolicy(start, policy, [observer]);
  return { grid, refs, outcome, summary: observer.summary() };
}

// The short route along row 3 to the exit (3,8) is cut at (3,4) at step 2;
// the long way round by row 1 stays open.
const CUT: TestWorldSpec = {
  map: ['#########', '#.......#', '#.#####.#', '#P......E', '#########'],
  fire: [{ cell: [3, 4], step: 2 }],
  maxSteps: 30,
};
const AROUND = ['W', 'W', 'N', 'N', 'E', 'E', 'E', 'E', 'E', 'E', 'S', 'S', 'E'];

describe('RouteEventObserver', () => {
  it('detects the fire cutting the short route, and a person who replans at once scores 1', () => {
    const { grid, summary } = observe(CUT, scripted(['E', 'E', ...AROUND]));
    // At snapshot 2 the person is on (3,3): 5 steps to the exit before, 13 around after.
    expect(summary.events).toEqual([
      { person: 0, step: 2, cell: cellIndex(grid, 3, 3), distanceBefore: 5, distanceAfter: 13, recoverable: true, earliest: 15, resolution: 15 },
    ]);
    expect([summary.recoverableCount, summary.replanningNumerator, summary.replanningDenominator]).toEqual([1, 13, 13]);
  });

  it('charges hesitation: two idle steps make the resolution two steps later', () => {
    const { summary } = observe(CUT, scripted(['E', 'E', '.', '.', ...AROUND]));
    expect(summary.events.map((e) => e.resolution)).toEqual([17]);
    expect([summary.replanningNumerator, summary.replanningDenominator]).toEqual([13, 15]);
  });

  it('censors a lost person at the horizon and counts an unrecoverable event without scoring it', () => {
    // A second fire at step 10 closes the long route too (one step after a
    // person leaving (3,3) at once would pass (1,4)); the person just waits on (3,3).
    const { grid, summary, outcome } = observe({ ...CUT, fire: [...CUT.fire!, { cell: [1, 4], step: 10 }] }, scripted(['E', 'E']));
    expect(outcome.termination).toBe('horizon');
    const x = cellIndex(grid, 3, 3);
    expect(summary.events).toEqual([
      { person: 0, step: 2, cell: x, distanceBefore: 5, distanceAfter: 13, recoverable: true, earliest: 15, resolution: 30 },
      { person: 0, step: 10, cell: x, distanceBefore: 13, distanceAfter: NO_ROUTE, recoverable: false, earliest: NO_ESCAPE, resolution: 30 },
    ]);
    expect([summary.recoverableCount, summary.replanningNumerator, summary.replanningDenominator]).toEqual([1, 13, 28]);
  });

  it('calls an event unrecoverable when the privileged future already closes the detour', () => {
    // With (1,4) burning at 9 the detour from (3,3) at snapshot 2 arrives there one step too late.
    const { summary } = observe({ ...CUT, fire: [...CUT.fire!, { cell: [1, 4], step: 9 }] }, scripted(['E', 'E', ...AROUND]));
    expect(summary.events.map((e) => [e.step, e.distanceAfter, e.recoverable, e.earliest])).toEqual([[2, 13, false, NO_ESCAPE]]);
    expect(summary.recoverableCount).toBe(0);
  });

  it('ignores people whose route the fire does not lengthen, and steps without fire change', () => {
    // Persons on (3,5) and (3,6) are east of the fire: their routes are unchanged.
    const { summary } = observe({ ...CUT, map: ['#########', '#.......#', '#.#####.#', '#....PP.E', '#########'] }, scripted([]));
    expect(summary.events).toEqual([]);
    expect(summary.recoverableCount).toBe(0);
  });

  it('has no events at step 0 and before the end refuses a summary', () => {
    const start = testEpisodeStart({ ...CUT, fire: [{ cell: [3, 4], step: 0 }] });
    const grid = start.scenario.grid;
    const observer = new RouteEventObserver(grid, start.fire, computeReferences(grid, start.fire, start.startCells));
    expect(() => observer.summary()).toThrow();
    runPolicy(start, scripted([]), [observer]);
    expect(observer.summary().events).toEqual([]);
  });
});

describe('fireAwareDistances', () => {
  it('starts from non-burning exits only and never passes through an exit', () => {
    const start = testEpisodeStart({ map: ['E..E.', '#####'], fire: [{ cell: [0, 3], step: 1 }], maxSteps: 3 });
    const grid = start.scenario.grid;
    const out = new Int32Array(10);
    const queue = new Int32Array(10);
    expect([...fireAwareDistances(grid, start.fire, 0, out, queue).slice(0, 5)]).toEqual([0, 1, 1, 0, 1]);
    // At t = 1 the exit (0,3) burns: (0,4) is cut off, since the path would cross a (burning) exit.
    expect([...fireAwareDistances(grid, start.fire, 1, out, queue).slice(0, 5)]).toEqual([0, 1, 2, NO_ROUTE, NO_ROUTE]);
  });
});

describe('Replanning is a privileged ratio', () => {
  it('never has a numerator above its denominator, and each event matches its definition', () => {
    let recoverable = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 4, max: 20 }), (seed, maxSteps) => {
        const world = randomWorld(seed, { rows: 4 + (seed % 4), cols: 4 + ((seed >>> 2) % 5), maxSteps, density: 0.3 });
        if (world.people.length === 0) return;
        const start = testEpisodeStart({ map: world.map, fire: world.fire, people: world.people, maxSteps });
        const grid = start.scenario.grid;
        const refs = computeReferences(grid, start.fire, start.startCells);
        const size = grid.kinds.length;
        for (const policy of [privilegedGreedyPolicy(refs), randomLegalPolicy(seed)]) {
          const observer = new RouteEventObserver(grid, start.fire, refs);
          runPolicy(start, policy, [observer]);
          const summary = observer.summary();
          expect(summary.replanningNumerator).toBeLessThanOrEqual(summary.replanningDenominator);
          recoverable += summary.recoverableCount;
          for (const e of summary.events) {
            const q = new Int32Array(size);
            const before = fireAwareDistances(grid, start.fire, e.step - 1, new Int32Array(size), q)[e.cell]!;
            const after = fireAwareDistances(grid, start.fire, e.step, new Int32Array(size), q)[e.cell]!;
            expect(start.fire.newlyBurning[e.step]!.length).toBeGreaterThan(0);
            expect([before, after]).toEqual([e.distanceBefore, e.distanceAfter]);
            expect(before).not.toBe(NO_ROUTE);
            expect(after).toBeGreaterThan(before);
            expect(e.earliest).toBe(refs.earliestTable.at(e.cell, e.step));
            if (e.recoverable) expect(e.resolution).toBeGreaterThanOrEqual(e.earliest);
          }
        }
      }),
      { numRuns: 150, seed: 31337 },
    );
    expect(recoverable).toBeGreaterThan(5);
  });
});

/** The events by definition: a fresh search of both burning sets at every step where the fire changed. */
function eventsByFreshSearch(start: ReturnType<typeof testEpisodeStart>, steps: readonly StepEvent[]): { step: number; person: number; before: number; after: number }[] {
  const grid = start.scenario.grid;
  const size = grid.kinds.length;
  const q = new Int32Array(size);
  const found: { step: number; person: number; before: number; after: number }[] = [];
  for (const event of steps) {
    const t = event.t;
    if (t < 1 || start.fire.newlyBurning[t]!.length === 0) continue;
    const before = fireAwareDistances(grid, start.fire, t - 1, new Int32Array(size), q);
    const after = fireAwareDistances(grid, start.fire, t, new Int32Array(size), q);
    event.active.forEach((person, k) => {
      const x = event.cellsBefore[k]!;
      if (before[x] !== NO_ROUTE && after[x]! > before[x]!) found.push({ step: t, person, before: before[x]!, after: after[x]! });
    });
  }
  return found;
}

describe('RouteEventObserver repairs its distance field', () => {
  it('finds exactly the events that fresh searches of B(t-1) and B(t) find, on growing fires', () => {
    let events = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 4, max: 24 }), (seed, maxSteps) => {
        const world = randomWorld(seed, { rows: 4 + (seed % 6), cols: 4 + ((seed >>> 3) % 7), maxSteps, density: 0.35 });
        if (world.people.length === 0) return;
        const start = testEpisodeStart({ map: world.map, fire: world.fire, people: world.people, maxSteps });
        const grid = start.scenario.grid;
        const refs = computeReferences(grid, start.fire, start.startCells);
        const observer = new RouteEventObserver(grid, start.fire, refs);
        const steps: StepEvent[] = [];
        const recorder = { onStep: (e: StepEvent) => steps.push({ ...e, active: e.active.slice(), cellsBefore: e.cellsBefore.slice() }), onEnd: () => undefined };
        runPolicy(start, randomLegalPolicy(seed), [observer, recorder]);
        const summary = observer.summary();
        expect(summary.events.map((e) => ({ step: e.step, person: e.person, before: e.distanceBefore, after: e.distanceAfter }))).toEqual(eventsByFreshSearch(start, steps));
        events += summary.events.length;
      }),
      { numRuns: 200, seed: 4242 },
    );
    expect(events).toBeGreaterThan(20);
  });
});
