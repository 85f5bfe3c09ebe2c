import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, type CanonicalInput } from '../json/canonical.js';
import { charToDirection } from '../sim/actions.js';
import { ACTIVE, DEAD, EVACUATED, STRANDED, type EpisodeOutcome, type StepEvent } from '../sim/events.js';
import { resolveMoves } from '../sim/resolver.js';
import { STAY, cellIndex, gridFromMap, manhattan, neighbour, WALL, type Direction, type Grid } from '../world/grid.js';
import { NEVER, type EpisodeStart, type FireWorld, type Scenario } from '../world/scenario-types.js';
import { HAZARD_RADIUS, inDangerZone } from './fire-distance.js';
import { MetricsObserver, computeMetrics, personStateEnd, type EpisodeMetrics } from './metrics.js';

// ---- Hand-built episodes: a scenario, a fire schedule and a move plan, run by a tiny stand-in simulator. ----

function makeStart(map: string[], people: [number, number][], fire: [number, number, number][], maxSteps: number): EpisodeStart {
  const grid = gridFromMap(map);
  const ignitionStep = new Int32Array(grid.rows * grid.cols).fill(NEVER);
  const newlyBurning: number[][] = Array.from({ length: maxSteps + 1 }, () => []);
  for (const [r, c, t] of fire) {
    const cell = cellIndex(grid, r, c);
    ignitionStep[cell] = t;
    newlyBurning[t]!.push(cell);
  }
  for (const list of newlyBurning) list.sort((a, b) => a - b);
  const fireWorld: FireWorld = { maxSteps, ignitionStep, newlyBurning, digest: '0'.repeat(64) };
  const startCells = Int32Array.from(people.map(([r, c]) => cellIndex(grid, r, c)));
  const scenario: Scenario = {
    scenarioId: 'metrics-test',
    title: 'metrics test',
    families: ['test'],
    grid,
    placements: Array.from(startCells, (cell) => ({ kind: 'cell' as const, cell })),
    ignitions: fire.map(([r, c, step]) => ({ cell: cellIndex(grid, r, c), step })),
    candidateCells: [],
    candidateCount: 0,
    spreadProbability: '0',
    maxSteps,
    developmentSeed: '0',
    population: people.length,
    hash: '0'.repeat(64),
    json: {},
  };
  return { scenario, seed: '0', fire: fireWorld, startCells };
}

/** A plan: one string per step, one char of '.NESW' per person in person order (chars of inactive persons are ignored, missing steps are all STAY); or a function choosing each active person's move. */
type Plan = readonly string[] | ((t: number, person: number, cell: number) => Direction);

/** Runs the plan with the environment.md section 4 phase order. */
function run(start: EpisodeStart, plan: Plan): { events: StepEvent[]; outcome: EpisodeOutcome } {
  const { grid, maxSteps } = start.scenario;
  const n = start.startCells.length;
  const cells = Int32Array.from(start.startCells);
  const status = new Uint8Array(n).fill(ACTIVE);
  const statusStep = new Int32Array(n);
  const burning = new Set(start.fire.newlyBurning[0]);
  const choose = typeof plan === 'function' ? plan : (t: number, i: number) => charToDirection(plan[t]?.[i] ?? '.') ?? STAY;
  const events: StepEvent[] = [];
  let t = 0;
  while (t < maxSteps && status.includes(ACTIVE)) {
    const activeList: number[] = [];
    for (let i = 0; i < n; i++) if (status[i] === ACTIVE) activeList.push(i);
    const active = Int32Array.from(activeList);
    const cellsBefore = Int32Array.from(activeList, (i) => cells[i]!);
    const moves = Uint8Array.from(activeList, (i) => choose(t, i, cells[i]!));
    const resolution = resolveMoves(grid, cellsBefore, moves);
    activeList.forEach((i, k) => {
      cells[i] = resolution.cells[k]!;
      if (resolution.evacuated[k] === 1) {
        status[i] = EVACUATED;
        statusStep[i] = t + 1;
      }
    });
    const newlyBurning = start.fire.newlyBurning[t + 1]!;
    for (const c of newlyBurning) burning.add(c);
    const died = activeList.filter((i) => status[i] === ACTIVE && burning.has(cells[i]!));
    for (const i of died) {
      status[i] = DEAD;
      statusStep[i] = t + 1;
    }
    events.push({ t, active, cellsBefore, moves, resolution, died: Int32Array.from(died), newlyBurning });
    t++;
  }
  const termination = status.includes(ACTIVE) ? 'horizon' : 'all_resolved';
  for (let i = 0; i < n; i++) {
    if (status[i] === ACTIVE) {
      status[i] = STRANDED;
      statusStep[i] = maxSteps;
    }
  }
  return { events, outcome: { termination, steps: t, status, statusStep } };
}

function metricsOf(start: EpisodeStart, plan: Plan) {
  const { events, outcome } = run(start, plan);
  return { ...computeMetrics(start, events, outcome), events, outcome };
}

// Episode A (worked by hand in the comments): 11 people, two exits, a growing fire,
// every block kind, a casualty, stranded people. Exits (0,1) and (0,7).
const MAP_A = ['#E#####E#', '#.......#', '#.......#', '#.......#', '#########'];
const PEOPLE_A: [number, number][] = [
  [1, 1], [2, 1], [1, 2], [1, 6], [1, 7], [2, 4], [2, 2], [2, 3], [3, 1], [3, 2], [3, 4],
];
// B(0) = {(2,7)}, B(1) += (2,6), B(2) += (2,5), B(3) += (1,6); H = 5.
const FIRE_A: [number, number, number][] = [[2, 7, 0], [2, 6, 1], [2, 5, 2], [1, 6, 3]];
const PLAN_A = [
  // p0..p10. t0: (1,1) contested by p1/p2 (p2 conflict), (3,3) by p9/p10 (p10 conflict), p6/p7 swap (cycle x2).
  'NNWEN.EWNEW',
  // t1: (1,1) contested by p2/p8 (p8 conflict); p6 runs into STAY p7 (occupied); p5 walks into (2,5), which ignites.
  '-NWN-EE.N..',
  // t2: p2 leaves; p6, p7, p8 move north.
  '--N---NNN..',
  '------WWN..',
  '------N.-..',
];

describe('episode metrics on hand-built episodes', () => {
  it('episode A: every metric as computed by hand', () => {
    const { metrics, persons } = metricsOf(makeStart(MAP_A, PEOPLE_A, FIRE_A, 5), PLAN_A);
    const expected: EpisodeMetrics = {
      metrics_version: '1.0',
      crowd_diagnostics_version: '1.0',
      population: 11,
      evacuated: 7, // p0@1 p4@1 p1@2 p3@2 p2@3 p8@4 p6@5
      casualties: 1, // p5 on (2,5) in B(2)
      stranded: 3, // p7 p9 p10
      evacuation_rate: '7/11',
      evacuation_steps: { sum: 18, mean: '18/7', max: 5 },
      moves_attempted: 24, // 10 + 6 + 4 + 3 + 1
      blocked_moves: { occupied: 1, conflict: 3, cycle: 2, total: 6 },
      congestion_block_rate: '1/4',
      // t0: p3 (d=2), p4 (1); t1: p3 (1), p5 (2); t2: p7 (2), p10 (2); t3: p10 (2); t4: p10 (2).
      fire_exposure: 8,
      min_fire_distance: 1,
      // static: p0 1, p1 2, p2 2, p3 2, p4 1, p6 3, p8 3; nobody detours.
      path_efficiency: { static_shortest_sum: 14, moved_sum: 14, ratio: '1/1' },
      per_exit_evacuations: [
        [0, 1, 5],
        [0, 7, 2],
      ],
      // Windows: exit (0,1) steps 1..5 (5), exit (0,7) steps 1..2 (2): 7 / 7.
      crowd: { contested_cell_steps: 3, hotspot_cells: 2, peak_contested_cells: 2, exit_throughput: '1/1' },
    };
    expect(metrics).toEqual(expected);
    expect(Array.from(persons.evacuationStep)).toEqual([1, 2, 3, 2, 1, -1, 5, -1, 4, -1, -1]);
    expect(Array.from(persons.cellsMoved)).toEqual([1, 2, 2, 2, 1, 1, 3, 2, 3, 1, 0]);
    expect(Array.from(persons.dangerStates)).toEqual([0, 0, 0, 2, 1, 1, 0, 1, 0, 0, 3]);
    expect(Array.from(persons.staticDistance)).toEqual([1, 2, 2, 2, 1, 5, 3, 4, 3, 4, 6]);
    expect(Array.from(persons.exitCell)).toEqual([1, 1, 1, 7, 7, -1, 1, -1, 1, -1, -1]);
    expect(Array.from(persons.status)).toEqual([1, 1, 1, 1, 1, 2, 1, 3, 1, 3, 3]);
    expect(Array.from(persons.statusStep)).toEqual([1, 2, 3, 2, 1, 2, 5, 5, 4, 5, 5]);
  });

  it('episode B: detours, a gap between evacuations at one exit, no fire, no blocks', () => {
    // Exits (0,1) and (0,5). p1 leaves at 1; p2 at 4 through the same exit; p0 walks
    // west, back east past its start and out through (0,5) at 7 (5 moves for a static 3).
    const start = makeStart(['#E###E#', '#.....#', '#######'], [[1, 3], [1, 1], [1, 2]], [], 8);
    const { metrics, outcome } = metricsOf(start, ['.N.', '...', 'W-W', 'E-N', 'E--', 'E--', 'N--']);
    expect(outcome.termination).toBe('all_resolved');
    expect(metrics).toMatchObject({
      evacuated: 3,
      evacuation_rate: '1/1',
      evacuation_steps: { sum: 12, mean: '4/1', max: 7 },
      moves_attempted: 8,
      blocked_moves: { occupied: 0, conflict: 0, cycle: 0, total: 0 },
      congestion_block_rate: '0/1',
      fire_exposure: 0,
      min_fire_distance: null,
      path_efficiency: { static_shortest_sum: 6, moved_sum: 8, ratio: '3/4' },
      per_exit_evacuations: [
        [0, 1, 2],
        [0, 5, 1],
      ],
      // Windows: (0,1) steps 1..4 = 4, (0,5) step 7 = 1: 3 / 5.
      crowd: { contested_cell_steps: 0, hotspot_cells: 0, peak_contested_cells: 0, exit_throughput: '3/5' },
    });
  });

  it('nobody evacuates and nobody moves: means, ratios and throughput are null', () => {
    const start = makeStart(['#E#', '#.#', '#.#', '###'], [[2, 1]], [], 3);
    const { metrics, persons } = metricsOf(start, []);
    expect(metrics).toMatchObject({
      population: 1,
      evacuated: 0,
      stranded: 1,
      evacuation_rate: '0/1',
      evacuation_steps: { sum: 0, mean: null, max: null },
      moves_attempted: 0,
      congestion_block_rate: null,
      fire_exposure: 0,
      min_fire_distance: null,
      path_efficiency: { static_shortest_sum: 0, moved_sum: 0, ratio: null },
      per_exit_evacuations: [[0, 1, 0]],
      crowd: { contested_cell_steps: 0, hotspot_cells: 0, peak_contested_cells: 0, exit_throughput: null },
    });
    expect(Array.from(persons.evacuationStep)).toEqual([-1]);
  });

  it('fire that starts only after everyone is resolved leaves min_fire_distance null', () => {
    const start = makeStart(['#E#', '#.#', '#.#', '###'], [[1, 1]], [[2, 1, 2]], 4);
    const { metrics } = metricsOf(start, ['N']);
    expect(metrics.min_fire_distance).toBeNull();
    expect(metrics.fire_exposure).toBe(0);
    expect(metrics.evacuation_steps).toEqual({ sum: 1, mean: '1/1', max: 1 });
  });

  it('counts a casualty\'s danger states up to its death step, and distances against B(t), not B(t+1)', () => {
    // Corridor (1,1)..(1,5), exit (0,1). Fire: (1,5) from 0, (1,4) from 2, (1,3) from 3, (1,2) from 4.
    // p0 stays on (1,2): d(t) against B(t) is 3, 3, 2, 1 for t = 0..3 (against B(t+1) it would be 3, 2, 1, 0).
    const start = makeStart(['#E#####', '#.....#', '#######'], [[1, 2]], [[1, 5, 0], [1, 4, 2], [1, 3, 3], [1, 2, 4]], 6);
    const { metrics, persons, outcome } = metricsOf(start, []);
    // p0 dies at step 4 when (1,2) ignites; danger states t2 and t3.
    expect(Array.from(outcome.status)).toEqual([DEAD]);
    expect(Array.from(outcome.statusStep)).toEqual([4]);
    expect(metrics.casualties).toBe(1);
    expect(metrics.fire_exposure).toBe(2);
    expect(metrics.min_fire_distance).toBe(1);
    expect(Array.from(persons.dangerStates)).toEqual([2]);
    expect(metrics.evacuation_steps.mean).toBeNull();
  });

  it('is canonical-JSON ready (no floats) and stable', () => {
    const { metrics } = metricsOf(makeStart(MAP_A, PEOPLE_A, FIRE_A, 5), PLAN_A);
    const asInput: CanonicalInput = metrics; // compile-time check that the type fits canonical JSON
    const text = canonicalJson(asInput);
    expect(text).toContain('"congestion_block_rate":"1/4"');
    expect(canonicalJson(metricsOf(makeStart(MAP_A, PEOPLE_A, FIRE_A, 5), PLAN_A).metrics)).toBe(text);
  });
});

describe('danger zone and person-states', () => {
  it('is 0 < d <= 2', () => {
    expect(HAZARD_RADIUS).toBe(2);
    expect([0, 1, 2, 3, NEVER].map(inDangerZone)).toEqual([false, true, true, false, false]);
  });

  it('ends at the outcome step, H for stranded persons', () => {
    expect(personStateEnd(EVACUATED, 3, 10)).toBe(3);
    expect(personStateEnd(DEAD, 7, 10)).toBe(7);
    expect(personStateEnd(STRANDED, 10, 10)).toBe(10);
    expect(() => personStateEnd(ACTIVE, 0, 10)).toThrow(RangeError);
  });
});

describe('metrics input checks', () => {
  const start = makeStart(MAP_A, PEOPLE_A, FIRE_A, 5);

  it('rejects out-of-order steps, an outcome that disagrees with the events, and early results', () => {
    const { events, outcome } = run(start, PLAN_A);
    const skipping = new MetricsObserver(start);
    expect(() => skipping.onStep(events[1]!)).toThrow(/expected step 0/);

    const early = new MetricsObserver(start);
    early.onStep(events[0]!);
    expect(() => early.result()).toThrow(/after the episode ended/);

    const forged = new MetricsObserver(start);
    for (const e of events) forged.onStep(e);
    const statusStep = Int32Array.from(outcome.statusStep);
    statusStep[0] = 2; // p0 evacuated at 1
    expect(() => forged.onEnd({ ...outcome, statusStep })).toThrow(/person 0 outcome step/);

    const short = new MetricsObserver(start);
    for (const e of events.slice(0, 4)) short.onStep(e);
    expect(() => short.onEnd(outcome)).toThrow(/outcome says 5 steps/);
  });
});

// ---- Random episodes against a naive recomputation of the fire metrics and the counts. ----

function naive(start: EpisodeStart, events: readonly StepEvent[], outcome: EpisodeOutcome) {
  const grid: Grid = start.scenario.grid;
  const burning: number[] = [...start.fire.newlyBurning[0]!];
  let exposure = 0;
  let minD: number | null = null;
  let attempted = 0;
  let blocked = 0;
  for (const e of events) {
    e.active.forEach((_, k) => {
      if (burning.length > 0) {
        const d = Math.min(...burning.map((b) => manhattan(grid, e.cellsBefore[k]!, b)));
        if (d > 0 && d <= 2) exposure++;
        minD = minD === null ? d : Math.min(minD, d);
      }
      if (e.moves[k] !== STAY) attempted++;
      if (e.resolution.blocked[k] !== 0) blocked++;
    });
    burning.push(...e.newlyBurning);
  }
  const evacuated = Array.from(outcome.status).filter((s) => s === EVACUATED).length;
  return { exposure, minD, attempted, blocked, evacuated };
}

describe('random episodes', () => {
  it('match a naive recomputation', () => {
    const map = ['#E#####', '#.....#', '#..#..E', '#.....#', '###E###'];
    const grid = gridFromMap(map);
    const open: number[] = [];
    for (let c = 0; c < grid.rows * grid.cols; c++) if (grid.kinds[c] !== WALL && !grid.exits.includes(c)) open.push(c);
    const arb = fc.record({
      people: fc.uniqueArray(fc.constantFrom(...open), { minLength: 1, maxLength: 8 }),
      fire: fc.array(fc.tuple(fc.constantFrom(...open, ...grid.exits), fc.integer({ min: 0, max: 8 })), { maxLength: 6 }),
      plan: fc.array(fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 8, maxLength: 8 }), { maxLength: 8 }),
    });
    fc.assert(
      fc.property(arb, ({ people, fire, plan }) => {
        // First ignition per cell wins; people never start on B(0).
        const firstStep = new Map<number, number>();
        for (const [c, t] of fire) if (!firstStep.has(c) || firstStep.get(c)! > t) firstStep.set(c, t);
        const schedule = [...firstStep].filter(([c, t]) => !(t === 0 && people.includes(c)));
        const pairs = (c: number): [number, number] => [Math.floor(c / grid.cols), c % grid.cols];
        const start = makeStart(map, people.map(pairs), schedule.map(([c, t]) => [...pairs(c), t]), 8);
        // Random directions, replaced by STAY where they would hit a wall or leave the grid
        // (fire legality does not matter to the metrics).
        const { events, outcome } = run(start, (t, i, cell) => {
          const d = (plan[t]?.[i] ?? STAY) as Direction;
          const target = neighbour(grid, cell, d);
          return target >= 0 && grid.kinds[target] !== WALL ? d : STAY;
        });
        const { metrics, persons } = computeMetrics(start, events, outcome);
        const ref = naive(start, events, outcome);
        expect(metrics.fire_exposure).toBe(ref.exposure);
        expect(metrics.min_fire_distance).toBe(ref.minD);
        expect(metrics.moves_attempted).toBe(ref.attempted);
        expect(metrics.blocked_moves.total).toBe(ref.blocked);
        expect(metrics.evacuated).toBe(ref.evacuated);
        expect(persons.dangerStates.reduce((a, b) => a + b, 0)).toBe(ref.exposure);
        expect(metrics.evacuated + metrics.casualties + metrics.stranded).toBe(metrics.population);
      }),
      { numRuns: 200 },
    );
  });
});
