/**
 * Test helpers of the statistics: a small real evaluation result, run
 * through the library (manifest builder, episode runner with a baseline,
 * metrics from the replay, result builder), so the tests read the same
 * artifact that `evaluation run` writes; and synthetic subjects with chosen
 * metric values for hand-checked and Python-checked cases and the bench.
 */

import { baselineFactory } from '../../src/core/baselines/registry.js';
import { measureRecord } from '../../src/core/eval/authenticate.js';
import { buildManifest, manifestHash } from '../../src/core/eval/manifest.js';
import { buildResult, resultText, type FailureDeclaration, type ResultEpisode } from '../../src/core/eval/result.js';
import { runEpisode } from '../../src/core/sim/episode.js';
import { prepareEpisode } from '../../src/core/world/episode-start.js';
import type { Suite } from '../../src/core/world/suite.js';
import { fractionOrNull, formatFraction } from '../../src/core/metrics/fraction.js';
import { CROWD_DIAGNOSTICS_VERSION, METRICS_VERSION, type EpisodeMetrics } from '../../src/core/metrics/metrics.js';
import type { CommittedEpisode, ScheduledEpisode, StatisticsSubject } from '../../src/core/stats/aggregate.js';

export interface TinyResultOptions {
  readonly modelId: string;
  /** A baseline ID (baselines/registry.ts). */
  readonly agent: string;
  readonly seeds: readonly string[];
  /** Manifest indices left out of the result (missing). */
  readonly missing?: readonly number[];
  /** Manifest indices declared failed (model_error). */
  readonly failed?: readonly number[];
}

/** The result file text of running `agent` on every scheduled episode except the missing and failed ones. */
export async function tinyResultText(suite: Suite, options: TinyResultOptions): Promise<string> {
  const manifest = buildManifest(suite, options.seeds);
  const factory = baselineFactory(options.agent);
  if (factory === undefined) throw new Error(`not a baseline: ${options.agent}`);
  const scenarios = new Map(suite.entries.map((e) => [e.scenarioId, e.scenario]));
  const skipped = new Set([...(options.missing ?? []), ...(options.failed ?? [])]);
  const episodes: ResultEpisode[] = [];
  for (const job of manifest.episodes) {
    if (skipped.has(job.index)) continue;
    const scenario = scenarios.get(job.scenario_id)!;
    const run = await runEpisode(prepareEpisode(scenario, job.seed), await factory());
    const measured = measureRecord(scenario, run.record, `episode ${job.index}`);
    episodes.push({ index: job.index, metrics: measured.metrics, record: run.record });
  }
  const failures: FailureDeclaration[] = (options.failed ?? []).map((index) => ({ index, kind: 'model_error', message: 'test failure' }));
  return resultText(buildResult(manifest, manifestHash(manifest), options.modelId, episodes, failures));
}

export interface SyntheticEpisode {
  readonly population: number;
  readonly evacuated: number;
  readonly casualties?: number;
  /** evacuation_steps.mean (default: null, as with no evacuee). */
  readonly stepsMean?: string | null;
  readonly movesAttempted?: number;
  readonly blocked?: number;
  readonly fireExposure?: number;
  readonly pathRatio?: string | null;
  readonly throughput?: string | null;
  readonly contested?: number;
  readonly hotspots?: number;
  readonly peak?: number;
}

/**
 * A metrics object with the fields the statistics read set as given. It has
 * the metrics_version 1.0 shape but is not consistent with any trajectory:
 * only for statistics tests and benchmarks, never for a result file.
 */
export function syntheticMetrics(e: SyntheticEpisode): EpisodeMetrics {
  const casualties = e.casualties ?? 0;
  const moves = e.movesAttempted ?? 0;
  const blocked = e.blocked ?? 0;
  return {
    metrics_version: METRICS_VERSION,
    crowd_diagnostics_version: CROWD_DIAGNOSTICS_VERSION,
    population: e.population,
    evacuated: e.evacuated,
    casualties,
    stranded: e.population - e.evacuated - casualties,
    evacuation_rate: formatFraction(e.evacuated, e.population),
    evacuation_steps: { sum: 0, mean: e.stepsMean ?? null, max: null },
    moves_attempted: moves,
    blocked_moves: { occupied: blocked, conflict: 0, cycle: 0, total: blocked },
    congestion_block_rate: fractionOrNull(blocked, moves),
    fire_exposure: e.fireExposure ?? 0,
    min_fire_distance: null,
    path_efficiency: { static_shortest_sum: 0, moved_sum: 0, ratio: e.pathRatio ?? null },
    per_exit_evacuations: [],
    crowd: {
      contested_cell_steps: e.contested ?? 0,
      hotspot_cells: e.hotspots ?? 0,
      peak_contested_cells: e.peak ?? 0,
      exit_throughput: e.throughput ?? null,
    },
  };
}

/** A statistics subject from synthetic episodes: `episodes[i]` is manifest episode i, null when not committed. */
export function syntheticSubject(options: {
  readonly modelId: string;
  readonly manifestHash: string;
  readonly schedule: readonly ScheduledEpisode[];
  readonly episodes: readonly (SyntheticEpisode | null)[];
  readonly failed?: number;
  readonly resultDigest?: string;
}): StatisticsSubject {
  const committed: CommittedEpisode[] = [];
  options.episodes.forEach((e, index) => {
    if (e !== null) committed.push({ index, metrics: syntheticMetrics(e) });
  });
  return {
    modelId: options.modelId,
    manifestHash: options.manifestHash,
    resultDigest: options.resultDigest ?? '0'.repeat(64),
    schedule: options.schedule,
    committed,
    failed: options.failed ?? 0,
  };
}

// A synthetic manifest: scenario-major a1 x3, b1 x3, a2 x3; families alpha = {a1, a2}, beta = {b1}.
export const SYNTHETIC_SCHEDULE: readonly ScheduledEpisode[] = [
  ...Array.from({ length: 3 }, () => ({ scenario_id: 'a1', primary_family: 'alpha' })),
  ...Array.from({ length: 3 }, () => ({ scenario_id: 'b1', primary_family: 'beta' })),
  ...Array.from({ length: 3 }, () => ({ scenario_id: 'a2', primary_family: 'alpha' })),
];
export const SYNTHETIC_MANIFEST_HASH = 'ab'.repeat(32);

/** Model X: episode 4 declared failed, episode 8 missing, episode 2 without an evacuee. */
export const EPISODES_X: readonly (SyntheticEpisode | null)[] = [
  { population: 2, evacuated: 2, stepsMean: '7/2', movesAttempted: 8, blocked: 2 },
  { population: 4, evacuated: 3, stepsMean: '4/1', movesAttempted: 5, blocked: 0 },
  { population: 3, evacuated: 0, casualties: 2, stepsMean: null, movesAttempted: 0 },
  { population: 2, evacuated: 1, casualties: 1, stepsMean: '5/1', movesAttempted: 3, blocked: 1 },
  null,
  { population: 3, evacuated: 2, stepsMean: '13/3', movesAttempted: 4, blocked: 1 },
  { population: 1, evacuated: 1, stepsMean: '2/1', movesAttempted: 2, blocked: 0 },
  { population: 5, evacuated: 1, casualties: 4, stepsMean: '9/4', movesAttempted: 10, blocked: 5 },
  null,
];

/** Model Y: episode 8 missing, episode 1 without an evacuee. */
export const EPISODES_Y: readonly (SyntheticEpisode | null)[] = [
  { population: 2, evacuated: 1, casualties: 1, stepsMean: '3/1', movesAttempted: 6, blocked: 3 },
  { population: 4, evacuated: 0, casualties: 1, stepsMean: null, movesAttempted: 5, blocked: 5 },
  { population: 3, evacuated: 2, stepsMean: '5/2', movesAttempted: 4, blocked: 0 },
  { population: 2, evacuated: 2, stepsMean: '11/2', movesAttempted: 3, blocked: 0 },
  { population: 2, evacuated: 2, stepsMean: '4/1', movesAttempted: 2, blocked: 0 },
  { population: 3, evacuated: 3, stepsMean: '4/1', movesAttempted: 4, blocked: 2 },
  { population: 1, evacuated: 1, stepsMean: '5/2', movesAttempted: 2, blocked: 1 },
  { population: 5, evacuated: 2, casualties: 3, stepsMean: '2/1', movesAttempted: 9, blocked: 3 },
  null,
];

export function subjectX(): StatisticsSubject {
  return syntheticSubject({ modelId: 'model-x', manifestHash: SYNTHETIC_MANIFEST_HASH, schedule: SYNTHETIC_SCHEDULE, episodes: EPISODES_X, failed: 1 });
}

export function subjectY(): StatisticsSubject {
  return syntheticSubject({ modelId: 'model-y', manifestHash: SYNTHETIC_MANIFEST_HASH, schedule: SYNTHETIC_SCHEDULE, episodes: EPISODES_Y });
}

// Larger synthetic subjects for the Python cross-checks of the joint bootstrap.

/** 3 families, 10 scenarios of 1 to 6 episodes (38 scheduled), populations 7..61 (many denominators), some episodes not committed. */
export const WIDE_SIZES = [4, 1, 6, 3, 5, 2, 6, 1, 5, 5];
export const WIDE_SCHEDULE: ScheduledEpisode[] = WIDE_SIZES.flatMap((size, j) =>
  Array.from({ length: size }, () => ({ scenario_id: `w${j}`, primary_family: ['fam-c', 'fam-a', 'fam-b'][j % 3]! })),
);

export function wideEpisode(i: number, salt: number): SyntheticEpisode {
  const population = 7 + ((i * 13 + salt * 5) % 55);
  const evacuated = (i * 7 + salt) % (population + 1);
  const casualties = Math.min(population - evacuated, (i * 3 + salt) % 4);
  const moves = i % 5 === 0 ? 0 : 3 + ((i + salt) % 11);
  return {
    population,
    evacuated,
    casualties,
    stepsMean: evacuated === 0 ? null : `${((i * 31 + salt) % 97) + 1}/${evacuated}`,
    movesAttempted: moves,
    blocked: (i * salt) % (moves + 1),
    fireExposure: (i * 5 + salt) % 9,
    pathRatio: evacuated === 0 ? null : `${((i * 17) % 40) + 1}/${(i % 9) + 2}`,
    throughput: evacuated === 0 ? null : `${(i % 5) + 1}/${(salt % 4) + 3}`,
    contested: (i * salt) % 6,
    hotspots: i % 3,
    peak: (i + salt) % 2,
  };
}

export function wideSubject(modelId: string, salt: number): StatisticsSubject {
  return syntheticSubject({
    modelId,
    manifestHash: SYNTHETIC_MANIFEST_HASH,
    schedule: WIDE_SCHEDULE,
    episodes: WIDE_SCHEDULE.map((_, i) => ((i + salt) % 7 === 3 ? null : wideEpisode(i, salt))),
  });
}

/** evacuation_steps_mean is defined only in scenario s0 (5 episodes); s1..s5 and family g have no evacuee. */
export function sparseSubject(): StatisticsSubject {
  const schedule: ScheduledEpisode[] = [
    ...Array.from({ length: 5 }, () => ({ scenario_id: 's0', primary_family: 'f' })),
    ...Array.from({ length: 5 }, (_, i) => ({ scenario_id: `s${i + 1}`, primary_family: 'f' })),
    ...Array.from({ length: 2 }, () => ({ scenario_id: 't0', primary_family: 'g' })),
  ];
  const episodes = schedule.map((e, i) => (e.scenario_id === 's0' ? { population: 4, evacuated: 2, stepsMean: `${i + 3}/2` } : { population: 3, evacuated: 0, casualties: i % 2 }));
  return syntheticSubject({ modelId: 'sparse', manifestHash: SYNTHETIC_MANIFEST_HASH, schedule, episodes });
}
