/**
 * Aggregate statistics of one evaluation result (statistics_version 1.0;
 * evaluation.md section 6, cli-v1.0.md "statistics aggregate",
 * docs/statistics.md).
 *
 * For every metric of STATISTICS_METRICS: the per-episode values of the
 * committed episodes (null where the metric is undefined), aggregated with
 * the scoring hierarchy (scoring-v1.0.md section 6: family-balanced
 * headline, per family, per scenario, scenario-balanced, micro) and the 95%
 * stratified bootstrap interval (section 7). Everything is exact: values
 * and means are Rationals, written as "num/den". The intervals of all
 * metrics share one stream and one draw structure per resample over the
 * committed episodes (joint-bootstrap.ts; seed: aggregateSeed).
 *
 * Failed and missing episodes have no metrics, so they are not in any mean;
 * the artifact reports the scheduled, committed and failed counts instead.
 * This module also holds what the paired comparison (paired.ts) shares:
 * the metric list, the statistics subject, the hierarchy summary and the
 * interval.
 */

import { gcd } from '../bigint-math.js';
import type { AuthenticatedResult } from '../eval/authenticate.js';
import { ValidationError } from '../errors.js';
import { fileDigest, sha256Bytes } from '../hash.js';
import { canonicalJson, type CanonicalInput } from '../json/canonical.js';
import type { EpisodeMetrics } from '../metrics/metrics.js';
import { BENCHMARK_VERSIONS } from '../versions.js';
import { DEFAULT_RESAMPLES, MAX_RESAMPLES, MIN_INTERVAL_EPISODES, type Interval } from './bootstrap.js';
import { buildHierarchy, type Hierarchy } from './hierarchy.js';
import { jointBootstrapIntervalSteps } from './filtered-intervals.js';
import type { BootstrapUnit } from './joint-bootstrap.js';
import { Rational } from './rational.js';
import { runSteps, type Steps } from '../steps.js';

export const STATISTICS_VERSION: string = BENCHMARK_VERSIONS.statistics_version;

// ---------------------------------------------------------------------------
// Metrics

export interface StatisticsMetric {
  /** The key in the artifact's `metrics` object and in the bootstrap seed. */
  readonly name: string;
  /** One line: what the per-episode value is and when it is undefined. */
  readonly description: string;
  /** The exact per-episode value, or null when it is undefined for this episode. */
  readonly value: (m: EpisodeMetrics) => Rational | null;
}

const fractionValue = (text: string | null): Rational | null => (text === null ? null : Rational.parse(text));
const ratioValue = (num: number, den: number): Rational | null => (den === 0 ? null : Rational.of(num, den));
const countValue = (n: number): Rational => Rational.of(n);

/**
 * Every numeric per-episode metric that means something as a mean over
 * episodes (metrics_version 1.0 and crowd_diagnostics_version 1.0). Raw
 * outcome counts are given as rates, since populations differ between
 * scenarios; min_fire_distance and evacuation_steps.max are left out (a mean
 * of per-episode extremes says little). The order is the documentation
 * order; the artifact's keys are sorted anyway.
 */
export const STATISTICS_METRICS: readonly StatisticsMetric[] = [
  { name: 'evacuation_rate', description: 'evacuated / population', value: (m) => fractionValue(m.evacuation_rate) },
  { name: 'casualty_rate', description: 'casualties / population', value: (m) => ratioValue(m.casualties, m.population) },
  { name: 'stranded_rate', description: 'stranded / population', value: (m) => ratioValue(m.stranded, m.population) },
  {
    name: 'evacuation_steps_mean',
    description: 'evacuation_steps.mean: the mean evacuation step of evacuees; undefined with no evacuee',
    value: (m) => fractionValue(m.evacuation_steps.mean),
  },
  {
    name: 'congestion_block_rate',
    description: 'blocked moves / attempted moves; undefined when no move was attempted',
    value: (m) => fractionValue(m.congestion_block_rate),
  },
  {
    name: 'fire_exposure_per_person',
    description: 'fire_exposure / population: danger-zone person-states per person',
    value: (m) => ratioValue(m.fire_exposure, m.population),
  },
  {
    name: 'path_efficiency',
    description: 'path_efficiency.ratio: static shortest distance / moves of evacuees; undefined with no evacuee',
    value: (m) => fractionValue(m.path_efficiency.ratio),
  },
  {
    name: 'exit_throughput',
    description: 'crowd.exit_throughput: evacuations per exit-step in the exit windows; undefined with no evacuee',
    value: (m) => fractionValue(m.crowd.exit_throughput),
  },
  { name: 'contested_cell_steps', description: 'crowd.contested_cell_steps', value: (m) => countValue(m.crowd.contested_cell_steps) },
  { name: 'hotspot_cells', description: 'crowd.hotspot_cells', value: (m) => countValue(m.crowd.hotspot_cells) },
  { name: 'peak_contested_cells', description: 'crowd.peak_contested_cells', value: (m) => countValue(m.crowd.peak_contested_cells) },
];

// ---------------------------------------------------------------------------
// The subject: what the statistics read from an authenticated result

export interface ScheduledEpisode {
  readonly scenario_id: string;
  readonly primary_family: string;
}

export interface CommittedEpisode {
  /** The manifest index. */
  readonly index: number;
  readonly metrics: EpisodeMetrics;
}

export interface StatisticsSubject {
  readonly modelId: string;
  readonly manifestHash: string;
  /** fileDigest of the result file. */
  readonly resultDigest: string;
  /** The manifest's episodes in index order. */
  readonly schedule: readonly ScheduledEpisode[];
  /** The committed episodes in strictly increasing index order. */
  readonly committed: readonly CommittedEpisode[];
  /** The number of declared failures. */
  readonly failed: number;
}

/** The subject of an authenticated result (authenticateResult has checked every value). */
export function statisticsSubject(auth: AuthenticatedResult): StatisticsSubject {
  return {
    modelId: auth.result.model_id,
    manifestHash: auth.manifestHash,
    resultDigest: auth.digest,
    schedule: auth.result.manifest.episodes,
    committed: auth.episodes,
    failed: auth.failures.length,
  };
}

/** A statistics input error (exit 3): a subject that no authenticated result gives. */
export function checkSubject(subject: StatisticsSubject, what: string): void {
  const scheduled = subject.schedule.length;
  subject.committed.forEach(({ index }, i) => {
    const previous = subject.committed[i - 1]?.index;
    if (!Number.isSafeInteger(index) || index < 0 || index >= scheduled || (previous !== undefined && index <= previous)) {
      throw new ValidationError(`${what}: committed episode ${i} has index ${index}; indices must increase and be scheduled (0..${scheduled - 1})`);
    }
  });
  if (!Number.isSafeInteger(subject.failed) || subject.failed < 0 || subject.committed.length + subject.failed > scheduled) {
    throw new ValidationError(`${what}: ${subject.failed} failed and ${subject.committed.length} committed episodes exceed the ${scheduled} scheduled`);
  }
}

/** One value per scheduled episode, in manifest order: null where the episode is not committed or the metric is undefined. */
export function scheduleValues(subject: StatisticsSubject, metric: StatisticsMetric): (Rational | null)[] {
  const values: (Rational | null)[] = new Array<Rational | null>(subject.schedule.length).fill(null);
  for (const episode of subject.committed) values[episode.index] = metric.value(episode.metrics);
  return values;
}

/** The hierarchy of per-episode values given in manifest order (nulls left out). */
export function hierarchyOf(schedule: readonly ScheduledEpisode[], values: readonly (Rational | null)[]): Hierarchy {
  return buildHierarchy(schedule.map((e, i) => ({ family: e.primary_family, scenarioId: e.scenario_id, value: values[i] ?? null })));
}

/** The exact values of a seed: "num/den" strings and nulls, in manifest order. */
export function seedValues(values: readonly (Rational | null)[]): (string | null)[] {
  return values.map((v) => (v === null ? null : v.toFraction()));
}

/** Per metric name (STATISTICS_METRICS order), one value list. */
export type MetricValues = ReadonlyMap<string, readonly (Rational | null)[]>;

/** The seed object's per-metric lists: {metric: ["num/den" | null, ...]}. */
function seedLists(values: MetricValues): { [metric: string]: (string | null)[] } {
  const out: { [metric: string]: (string | null)[] } = {};
  for (const [name, list] of values) out[name] = seedValues(list);
  return out;
}

/**
 * The bootstrap seed of the aggregate artifact (one stream for every
 * metric): SHA-256 of the canonical JSON {"manifest_hash", "model_id",
 * "statistics_version", "values"}, values = {metric: scheduleValues as
 * "num/den" and null} for every metric of STATISTICS_METRICS. The lists pin
 * the committed episodes too: a metric that is never undefined
 * (contested_cell_steps) is null exactly where nothing was committed.
 */
export function aggregateSeed(subject: StatisticsSubject, values: MetricValues): Uint8Array {
  return sha256Bytes(
    canonicalJson({
      manifest_hash: subject.manifestHash,
      model_id: subject.modelId,
      statistics_version: STATISTICS_VERSION,
      values: seedLists(values),
    }),
  );
}

// ---------------------------------------------------------------------------
// Shared pieces of both artifacts

/** A resample count a caller may pass: an integer in [1, MAX_RESAMPLES]. */
export function checkResamples(resamples: number): void {
  if (!Number.isSafeInteger(resamples) || resamples < 1 || resamples > MAX_RESAMPLES) {
    throw new RangeError(`resamples must be an integer in [1, ${MAX_RESAMPLES}], got ${resamples}`);
  }
}

/**
 * The 95% intervals of several metrics over the same units, from ONE
 * stream (joint-bootstrap.ts): `values[m][i]` is metric m's value of unit i.
 * A metric with fewer than MIN_INTERVAL_EPISODES defined values has no
 * interval and takes no part (the draws do not depend on the metrics, so
 * leaving one out changes no other interval).
 */
export function* metricIntervals(
  units: readonly BootstrapUnit[],
  values: readonly (readonly (Rational | null)[])[],
  seed32: Uint8Array,
  resamples: number,
): Steps<(Interval | null)[]> {
  const drawn = values.map((list) => list.reduce((n, v) => (v === null ? n : n + 1), 0) >= MIN_INTERVAL_EPISODES);
  if (!drawn.includes(true)) return values.map(() => null);
  // Exact intervals from double statistics plus a few exact resamples (filtered-intervals.ts).
  const intervals = yield* jointBootstrapIntervalSteps(
    units,
    values.filter((_, m) => drawn[m]),
    seed32,
    resamples,
  );
  let next = 0;
  return drawn.map((d) => (d ? intervals[next++]! : null));
}

/**
 * The exact sum, as one reduced rational (the same as adding one by one):
 * numerators summed per distinct denominator, then over the lcm of those
 * denominators with one gcd at the end. The lcm grows by gcds of a large
 * number with a small one, which are cheap, where adding the partial sums
 * as rationals took a gcd of two large numbers per distinct denominator.
 */
function exactSum(values: readonly Rational[]): Rational {
  const byDenominator = new Map<bigint, bigint>();
  for (const v of values) byDenominator.set(v.den, (byDenominator.get(v.den) ?? 0n) + v.num);
  let common = 1n;
  for (const den of byDenominator.keys()) common = (common / gcd(common, den)) * den;
  let total = 0n;
  for (const [den, num] of byDenominator) total += num * (common / den);
  return Rational.of(total, common);
}

const exactMean = (values: readonly Rational[]): Rational => exactSum(values).div(Rational.of(values.length));

/** Every mean of a hierarchy (hierarchy.ts's familyBalancedMean, familyMeans, ... in one pass); the means are null when it is empty. */
export interface HierarchySummary {
  readonly defined: number;
  readonly familyBalanced: Rational | null;
  readonly scenarioBalanced: Rational | null;
  readonly micro: Rational | null;
  readonly families: readonly { readonly family: string; readonly mean: Rational }[];
  readonly scenarios: readonly { readonly family: string; readonly scenarioId: string; readonly mean: Rational }[];
}

/** summarize(h).familyBalanced alone (the same exact value), without the scenario-balanced and micro means. */
export function familyBalancedOf(h: Hierarchy): Rational | null {
  if (h.length === 0) return null;
  return exactMean(h.map((f) => exactMean(f.scenarios.map((s) => exactMean(s.values)))));
}

export function summarize(h: Hierarchy): HierarchySummary {
  const scenarios = h.flatMap((f) => f.scenarios.map((s) => ({ family: f.family, scenarioId: s.scenarioId, mean: exactMean(s.values) })));
  const families = h.map((f) => ({ family: f.family, mean: exactMean(scenarios.filter((s) => s.family === f.family).map((s) => s.mean)) }));
  const all = h.flatMap((f) => f.scenarios.flatMap((s) => s.values));
  return {
    defined: all.length,
    familyBalanced: families.length === 0 ? null : exactMean(families.map((f) => f.mean)),
    scenarioBalanced: scenarios.length === 0 ? null : exactMean(scenarios.map((s) => s.mean)),
    micro: all.length === 0 ? null : exactMean(all),
    families,
    scenarios,
  };
}

export type Coverage = { readonly defined: number; readonly total: number };
export type IntervalJson = { readonly lower: string; readonly upper: string };

export function intervalJson(interval: Interval | null): IntervalJson | null {
  return interval === null ? null : { lower: interval.lower.toFraction(), upper: interval.upper.toFraction() };
}

export const fractionOrNull = (r: Rational | null): string | null => (r === null ? null : r.toFraction());

/** The artifact file text: canonical JSON plus one LF. */
export function statisticsText(artifact: CanonicalInput): string {
  return canonicalJson(artifact) + '\n';
}

/** The artifact digest: SHA-256 of the file text without its final LF. */
export function statisticsDigest(text: string): string {
  return fileDigest(text);
}

// ---------------------------------------------------------------------------
// The aggregate artifact

export type AggregateMetric = {
  readonly coverage: Coverage;
  readonly family_balanced: string | null;
  readonly scenario_balanced: string | null;
  readonly micro: string | null;
  readonly families: readonly { readonly family: string; readonly mean: string }[];
  readonly scenarios: readonly { readonly scenario_id: string; readonly family: string; readonly mean: string }[];
  readonly interval: IntervalJson | null;
};

export type AggregateStatistics = {
  readonly statistics_version: string;
  readonly kind: 'aggregate';
  readonly model_id: string;
  readonly manifest_hash: string;
  readonly result_digest: string;
  readonly resamples: number;
  readonly episodes: { readonly scheduled: number; readonly committed: number; readonly failed: number };
  readonly metrics: { readonly [name: string]: AggregateMetric };
};

function aggregateMetric(subject: StatisticsSubject, values: readonly (Rational | null)[], interval: Interval | null): AggregateMetric {
  const summary = summarize(hierarchyOf(subject.schedule, values));
  return {
    coverage: { defined: summary.defined, total: subject.committed.length },
    family_balanced: fractionOrNull(summary.familyBalanced),
    scenario_balanced: fractionOrNull(summary.scenarioBalanced),
    micro: fractionOrNull(summary.micro),
    families: summary.families.map((f) => ({ family: f.family, mean: f.mean.toFraction() })),
    scenarios: summary.scenarios.map((s) => ({ scenario_id: s.scenarioId, family: s.family, mean: s.mean.toFraction() })),
    interval: intervalJson(interval),
  };
}

/** The bootstrap units of a subject: its committed episodes in manifest order. */
function committedUnits(subject: StatisticsSubject): BootstrapUnit[] {
  return subject.committed.map(({ index }) => ({ family: subject.schedule[index]!.primary_family, scenarioId: subject.schedule[index]!.scenario_id }));
}

/**
 * The aggregate statistics of one result. Without `resamples` the library
 * default (DEFAULT_RESAMPLES) is used; a bad count is a RangeError. All
 * intervals come from one stream seeded with aggregateSeed.
 */
export function aggregateStatistics(subject: StatisticsSubject, resamples?: number): AggregateStatistics {
  return runSteps(aggregateStatisticSteps(subject, resamples));
}

/** aggregateStatistics as steps (src/core/steps.ts), so a caller can stop between them or show progress. */
export function* aggregateStatisticSteps(subject: StatisticsSubject, resamples?: number): Steps<AggregateStatistics> {
  if (resamples !== undefined) checkResamples(resamples);
  checkSubject(subject, 'statistics input');
  const count = resamples ?? DEFAULT_RESAMPLES;
  const values: MetricValues = new Map(STATISTICS_METRICS.map((m) => [m.name, scheduleValues(subject, m)]));
  const unitValues = STATISTICS_METRICS.map((m) => subject.committed.map(({ index }) => values.get(m.name)![index] ?? null));
  const intervals = yield* metricIntervals(committedUnits(subject), unitValues, aggregateSeed(subject, values), count);
  const metrics: { [name: string]: AggregateMetric } = {};
  STATISTICS_METRICS.forEach((m, i) => {
    metrics[m.name] = aggregateMetric(subject, values.get(m.name)!, intervals[i] ?? null);
  });
  return {
    statistics_version: STATISTICS_VERSION,
    kind: 'aggregate',
    model_id: subject.modelId,
    manifest_hash: subject.manifestHash,
    result_digest: subject.resultDigest,
    resamples: count,
    episodes: { scheduled: subject.schedule.length, committed: subject.committed.length, failed: subject.failed },
    metrics,
  };
}
