/**
 * Test helper: hand-built scenarios and episode starts with an explicit fire
 * schedule (no spread, no zones), so that simulator tests state exactly when
 * each cell burns. The scenario JSON is a valid schema 1.0 file (spread
 * probability "0", explicit ignitions and person cells), so the real
 * prepareEpisode gives the same episode start for it.
 */

import { digestOf } from '../../src/core/hash.js';
import type { JsonObject } from '../../src/core/json/canonical.js';
import { EAST, FLOOR, NORTH, SOUTH, STAY, WALL, WEST, cellIndex, gridFromMap, neighbour, type CellPair, type Grid } from '../../src/core/world/grid.js';
import { Xoshiro128ss } from '../../src/core/world/rng.js';
import { charToDirection, directionToAction, type Action, type ActionSet } from '../../src/core/sim/actions.js';
import type { Agent } from '../../src/core/sim/agent.js';
import { personId, type Observation } from '../../src/core/sim/observation.js';
import { NEVER, type EpisodeStart, type FireWorld, type Ignition, type Scenario } from '../../src/core/world/scenario-types.js';

export interface TestWorldSpec {
  /**
   * Map rows with `#` wall, `.` floor, `E` exit, and `P` a person on a floor
   * cell (persons from `P` marks are numbered row-major).
   */
  readonly map: readonly string[];
  /** Explicit person cells in person order (instead of `P` marks). */
  readonly people?: readonly CellPair[];
  /** Cells that start burning at a step (0 <= step <= maxSteps). */
  readonly fire?: readonly { readonly cell: CellPair; readonly step: number }[];
  readonly maxSteps: number;
  /** Spread probability (default "0"); only the real prepareEpisode builds a fire world with spread. */
  readonly spreadProbability?: string;
  readonly scenarioId?: string;
  readonly seed?: string;
}

function personCells(spec: TestWorldSpec, grid: Grid): number[] {
  const marked: number[] = [];
  spec.map.forEach((row, r) => {
    for (let c = 0; c < row.length; c++) if (row[c] === 'P') marked.push(cellIndex(grid, r, c));
  });
  if (marked.length > 0 && spec.people !== undefined) throw new Error('test world: use P marks or people, not both');
  return spec.people !== undefined ? spec.people.map(([r, c]) => cellIndex(grid, r, c)) : marked;
}

/** The scenario of a test world (hash = digest of its schema 1.0 JSON). */
export function testScenario(spec: TestWorldSpec): Scenario {
  const map = spec.map.map((row) => row.replaceAll('P', '.'));
  const grid = gridFromMap(map);
  const people = personCells(spec, grid);
  const ignitions: Ignition[] = (spec.fire ?? []).map(({ cell: [r, c], step }) => ({ cell: cellIndex(grid, r, c), step }));
  for (const cell of people) {
    if (grid.kinds[cell] !== FLOOR) throw new Error(`test world: person on a non-floor cell ${cell}`);
  }
  for (const { cell, step } of ignitions) {
    if (grid.kinds[cell] === WALL || step < 0 || step > spec.maxSteps) throw new Error(`test world: bad ignition ${cell}@${step}`);
  }
  const pair = (cell: number): number[] => [Math.floor(cell / grid.cols), cell % grid.cols];
  const json: JsonObject = {
    schema_version: '1.0',
    scenario_id: spec.scenarioId ?? 'test-world',
    title: 'Test world',
    families: ['test'],
    map: [...map],
    people: people.map((cell) => ({ cell: pair(cell) })),
    fire: {
      ignitions: ignitions.map(({ cell, step }) => ({ cell: pair(cell), step })),
      spread_probability: spec.spreadProbability ?? '0',
    },
    max_steps: spec.maxSteps,
    development_seed: '0',
  };
  return {
    scenarioId: spec.scenarioId ?? 'test-world',
    title: 'Test world',
    families: ['test'],
    grid,
    placements: people.map((cell) => ({ kind: 'cell', cell })),
    ignitions,
    candidateCells: [],
    candidateCount: 0,
    spreadProbability: spec.spreadProbability ?? '0',
    maxSteps: spec.maxSteps,
    developmentSeed: '0',
    population: people.length,
    hash: digestOf(json),
    json,
  };
}

/** The fire world of a test scenario: its ignitions and nothing else (spread probability 0). */
export function testFireWorld(scenario: Scenario): FireWorld {
  const { grid, maxSteps } = scenario;
  if (scenario.spreadProbability !== '0') throw new Error('test world: testFireWorld has no spread; use prepareEpisode');
  const ignitionStep = new Int32Array(grid.kinds.length).fill(NEVER);
  for (const { cell, step } of scenario.ignitions) ignitionStep[cell] = Math.min(ignitionStep[cell]!, step);
  const newlyBurning: number[][] = Array.from({ length: maxSteps + 1 }, () => []);
  for (let cell = 0; cell < ignitionStep.length; cell++) {
    const step = ignitionStep[cell]!;
    if (step !== NEVER) newlyBurning[step]!.push(cell);
  }
  const pairs = newlyBurning.map((cells) => cells.map((cell) => [Math.floor(cell / grid.cols), cell % grid.cols]));
  return { maxSteps, ignitionStep, newlyBurning, digest: digestOf(pairs) };
}

/** The episode start of a test world. */
export function testEpisodeStart(spec: TestWorldSpec): EpisodeStart {
  const scenario = testScenario(spec);
  const grid = scenario.grid;
  return {
    scenario,
    seed: spec.seed ?? '0',
    fire: testFireWorld(scenario),
    startCells: Int32Array.from(personCells(spec, grid)),
  };
}

/** An agent that plays fixed action strings: step t's string has one character (. N E S W) per active person. */
export function scriptedAgent(script: readonly string[]): Agent {
  return {
    act(observation: Observation): ActionSet {
      const line = script[observation.step] ?? '';
      const actions: Record<string, Action> = {};
      observation.people.forEach((person, k) => {
        actions[person.id] = directionToAction(charToDirection(line[k] ?? '.') ?? STAY);
      });
      return actions;
    },
  };
}

/** The legal actions of each observed person: STAY and every move to an in-grid, non-wall, non-burning cell. */
export function legalActions(observation: Observation): Action[][] {
  const grid = gridFromMap(observation.map);
  const burning = new Set(observation.burning.map(([r, c]) => r * grid.cols + c));
  return observation.people.map(({ cell: [r, c] }) => {
    const from = r * grid.cols + c;
    const legal: Action[] = ['STAY'];
    for (const dir of [NORTH, EAST, SOUTH, WEST] as const) {
      const to = neighbour(grid, from, dir);
      if (to >= 0 && grid.kinds[to] !== WALL && !burning.has(to)) legal.push(directionToAction(dir));
    }
    return legal;
  });
}

/** An agent that picks a legal action per person from `draws` (cycled), or from a seeded stream. */
export function randomLegalAgent(source: readonly number[] | number): Agent {
  const rng = typeof source === 'number' ? new Xoshiro128ss([source >>> 0, 0x9e3779b9, 7, 11]) : null;
  const draws = typeof source === 'number' ? [] : source;
  let next = 0;
  const draw = (n: number): number => (rng !== null ? rng.uniform(n) : draws.length === 0 ? 0 : draws[next++ % draws.length]! % n);
  return {
    act(observation: Observation): ActionSet {
      const actions: Record<string, Action> = {};
      legalActions(observation).forEach((legal, k) => {
        actions[observation.people[k]!.id] = legal[draw(legal.length)]!;
      });
      return actions;
    },
  };
}

/** An observation of `map` with `people` (IDs in order) and `burning` (sorted row-major), its exits read from the map. */
export function observeMap(map: readonly string[], people: readonly CellPair[], burning: readonly CellPair[] = [], step = 0): Observation {
  const exits: CellPair[] = [];
  map.forEach((row, r) => [...row].forEach((ch, c) => ch === 'E' && exits.push([r, c])));
  return {
    step,
    max_steps: 100,
    map,
    exits,
    burning: [...burning].sort((a, b) => a[0] - b[0] || a[1] - b[1]),
    people: people.map((cell, i) => ({ id: personId(i), cell })),
    evacuated: 0,
    dead: 0,
  };
}

