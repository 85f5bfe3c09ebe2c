// Test helpers for the score report tests: fixture scenarios and suites
// written as real schema 1.0 files, and trials run with the real runner,
// written as real result files and authenticated with the real loader.

import { authenticateResult, measureRecord, type AuthenticatedResult } from '../../src/core/eval/authenticate.js';
import { buildManifest, manifestHash, type EvaluationManifest } from '../../src/core/eval/manifest.js';
import { buildResult, resultText, type FailureDeclaration, type ResultEpisode } from '../../src/core/eval/result.js';
import { indentedJson, type JsonObject } from '../../src/core/json/canonical.js';
import type { Action } from '../../src/core/sim/actions.js';
import type { Agent, AgentFactory } from '../../src/core/sim/agent.js';
import type { Observation } from '../../src/core/sim/observation.js';
import { runEpisode } from '../../src/core/sim/episode.js';
import { prepareEpisode } from '../../src/core/world/episode-start.js';
import { parseScenarioText } from '../../src/core/world/scenario.js';
import type { Scenario } from '../../src/core/world/scenario-types.js';
import { buildSuiteManifest, loadSuite, type Suite } from '../../src/core/world/suite.js';

/** A deep mutable copy type, for tests that tamper with parsed artifacts. */
export type Mutable<T> = T extends readonly (infer U)[] ? Mutable<U>[] : T extends object ? { -readonly [K in keyof T]: Mutable<T[K]> } : T;

export interface FixtureSpec {
  readonly id: string;
  readonly family: string;
  /** `#` wall, `.` floor, `E` exit, `P` a person (numbered row-major). */
  readonly map: readonly string[];
  readonly fire?: readonly { readonly cell: readonly [number, number]; readonly step: number }[];
  readonly maxSteps: number;
  readonly spread?: string;
}

/** The scenario file text of a fixture (2-space indented JSON). */
export function fixtureScenarioText(spec: FixtureSpec): string {
  const people: { cell: number[] }[] = [];
  spec.map.forEach((row, r) => [...row].forEach((ch, c) => ch === 'P' && people.push({ cell: [r, c] })));
  const json: JsonObject = {
    schema_version: '1.0',
    scenario_id: spec.id,
    title: `Fixture ${spec.id}`,
    families: [spec.family],
    map: spec.map.map((row) => row.replaceAll('P', '.')),
    people,
    fire: {
      ignitions: (spec.fire ?? []).map((f) => ({ cell: [...f.cell], step: f.step })),
      spread_probability: spec.spread ?? '0',
    },
    max_steps: spec.maxSteps,
    development_seed: '0',
  };
  return indentedJson(json);
}

export function fixtureScenario(spec: FixtureSpec): Scenario {
  return parseScenarioText(fixtureScenarioText(spec), `${spec.id}.json`);
}

/** A suite of fixture scenarios, loaded by the real suite loader. */
export function fixtureSuite(specs: readonly FixtureSpec[], suiteId = 'fixture-suite'): Suite {
  const files = new Map(specs.map((s) => [`${s.id}.json`, fixtureScenarioText(s)]));
  const manifest = buildSuiteManifest({
    suiteId,
    suiteVersion: '1.0',
    visibility: 'public',
    seedRole: 'development',
    scenarios: specs.map((s) => ({ scenario: fixtureScenario(s) })),
  });
  return loadSuite(manifest, files, suiteId);
}

// p0000 stands where the fire starts at step 10 but could walk out in 8 steps
// (savable); p0004 is walled in and can never escape (unsavable).
export const ATTRIBUTION: FixtureSpec = {
  id: 'attribution',
  family: 'attribution',
  maxSteps: 30,
  map: ['##########', '#P.P.P.P.E', '##########', '#P########', '##########'],
  fire: [{ cell: [1, 1], step: 10 }],
};

// 18 people in a room whose only door (4,5) opens onto a hall with two exits:
// the door admits one person per step, the exits two.
export const DOOR: FixtureSpec = {
  id: 'door-queue',
  family: 'door',
  maxSteps: 60,
  map: ['###########', '#PPPPPPPPP#', '#PPPPPPPPP#', '#####.#####', '#.........#', 'E.........E', '###########'],
};

// Nine people in the middle of a room with an exit in each end wall.
export const TWO_EXITS: FixtureSpec = {
  id: 'two-exits',
  family: 'exits',
  maxSteps: 60,
  map: ['###########', '#...PPP...#', 'E...PPP...E', '#...PPP...#', '###########'],
};

// Nobody can reach the exit: M* = 0 (not applicable).
export const SEALED: FixtureSpec = { id: 'sealed', family: 'sealed', maxSteps: 10, map: ['#####', '#P#.E', '#####'] };

// The short route along row 3 is cut by fire at (3,4) at step 2; the long way round by row 1 stays open.
export const ROUTE_CUT: FixtureSpec = {
  id: 'route-cut',
  family: 'route',
  maxSteps: 30,
  map: ['#########', '#.......#', '#.#####.#', '#P......E', '#########'],
  fire: [{ cell: [3, 4], step: 2 }],
};

export interface TrialOptions {
  /** Episode indices to leave without a committed result. */
  readonly skip?: ReadonlySet<number>;
  /** Declarations written into the result. */
  readonly failures?: readonly FailureDeclaration[];
}

export interface Trial {
  readonly text: string;
  readonly authenticated: AuthenticatedResult;
}

/** Runs every scheduled episode (but the skipped ones) with fresh agents, writes the result file text and authenticates it. */
export async function runTrial(suite: Suite, manifest: EvaluationManifest, modelId: string, factory: AgentFactory, options: TrialOptions = {}): Promise<Trial> {
  const scenarios = new Map(suite.entries.map((e) => [e.scenarioId, e.scenario]));
  const episodes: ResultEpisode[] = [];
  for (const scheduled of manifest.episodes) {
    if (options.skip?.has(scheduled.index)) continue;
    const scenario = scenarios.get(scheduled.scenario_id)!;
    const run = await runEpisode(prepareEpisode(scenario, scheduled.seed), await factory());
    const measured = measureRecord(scenario, run.record, `episode ${scheduled.index}`);
    episodes.push({ index: scheduled.index, metrics: measured.metrics, record: run.record });
  }
  const text = resultText(buildResult(manifest, manifestHash(manifest), modelId, episodes, options.failures ?? []));
  return { text, authenticated: authenticateResult(text, `${modelId}.json`, suite) };
}

export function manifestOf(suite: Suite, seeds: readonly string[]): EvaluationManifest {
  return buildManifest(suite, seeds);
}

/** Wraps an agent: the listed persons always STAY, everyone else acts as the inner agent says. */
export function holdingAgent(inner: AgentFactory, held: readonly string[]): AgentFactory {
  return async (): Promise<Agent> => {
    const agent = await inner();
    return {
      async act(observation: Observation) {
        const actions = { ...(await agent.act(observation)) };
        for (const id of held) if (id in actions) actions[id] = 'STAY';
        return actions;
      },
    };
  };
}

/** Wall-only BFS distances (over floor cells) from one exit cell of the map; -1 where unreachable. */
function exitDistances(map: readonly string[], exit: readonly [number, number]): number[][] {
  const dist = map.map((row) => [...row].map(() => -1));
  dist[exit[0]]![exit[1]] = 0;
  const queue: [number, number][] = [[exit[0], exit[1]]];
  for (let head = 0; head < queue.length; head++) {
    const [r, c] = queue[head]!;
    for (const [dr, dc] of [[-1, 0], [0, 1], [1, 0], [0, -1]] as const) {
      const rr = r + dr;
      const cc = c + dc;
      if (map[rr]?.[cc] !== '.' || dist[rr]![cc] !== -1) continue;
      dist[rr]![cc] = dist[r]![c]! + 1;
      queue.push([rr, cc]);
    }
  }
  return dist;
}

const STEPS: readonly [Action, number, number][] = [['N', -1, 0], ['E', 0, 1], ['S', 1, 0], ['W', 0, -1]];

/**
 * A fire-blind agent that walks every person down the wall-only distance
 * field of the exit `choose` picks for it (an index into observation.exits),
 * ignoring everyone else: the resolver blocks what collides.
 */
export function exitSeekingAgent(choose: (id: string, cell: readonly [number, number], exits: readonly (readonly [number, number])[]) => number): AgentFactory {
  return () => {
    let fields: number[][][] | undefined;
    return {
      act(observation: Observation) {
        fields ??= observation.exits.map((e) => exitDistances(observation.map, e));
        const actions: Record<string, Action> = {};
        for (const { id, cell } of observation.people) {
          const field = fields[choose(id, cell, observation.exits)]!;
          let best: Action = 'STAY';
          let bestDistance = field[cell[0]]![cell[1]]!;
          for (const [action, dr, dc] of STEPS) {
            const d = field[cell[0] + dr]?.[cell[1] + dc] ?? -1;
            if (d >= 0 && (bestDistance < 0 || d < bestDistance)) {
              best = action;
              bestDistance = d;
            }
          }
          actions[id] = best;
        }
        return actions;
      },
    };
  };
}

/** Index of the nearest exit by wall-only distance (ties: the first). */
export function nearestExit(map: readonly string[]): (id: string, cell: readonly [number, number], exits: readonly (readonly [number, number])[]) => number {
  let fields: number[][][] | undefined;
  return (_id, cell, exits) => {
    fields ??= exits.map((e) => exitDistances(map, e));
    let best = 0;
    fields.forEach((f, k) => {
      const d = f[cell[0]]![cell[1]]!;
      const b = fields![best]![cell[0]]![cell[1]]!;
      if (d >= 0 && (b < 0 || d < b)) best = k;
    });
    return best;
  };
}
