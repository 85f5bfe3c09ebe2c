/**
 * Paired statistics of two evaluation results on one manifest, A - B
 * (statistics_version 1.0; evaluation.md section 6, cli-v1.0.md
 * "statistics compare", scoring-v1.0.md section 8, docs/statistics.md).
 *
 * Episodes are paired by manifest index: an episode counts when both results
 * committed it, and for a metric when it is defined in both. Per metric the
 * paired differences d_e = a_e - b_e are aggregated with the same hierarchy
 * as the aggregate statistics. Because A, B and the differences then share
 * one hierarchy (the same episodes in the same scenarios and families), and
 * every level is a plain mean, `delta = mean_a - mean_b` exactly at every
 * level. The intervals are the stratified bootstrap of the differences,
 * every metric on the same draws over the paired episodes, from one stream
 * (joint-bootstrap.ts; seed: pairedSeed).
 *
 * Outcomes (metrics have no practical-difference threshold, unlike the
 * score comparison, because their units differ and "higher" is not always
 * better): `exact_tie` when every paired difference is 0; else `a_higher`
 * when the interval's lower bound is > 0, `b_higher` when its upper bound is
 * < 0; else `inconclusive`, also with no interval (fewer than 5 paired
 * values) and with no paired value at all.
 */

import { ValidationError } from '../errors.js';
import { sha256Bytes } from '../hash.js';
import { canonicalJson } from '../json/canonical.js';
import { DEFAULT_RESAMPLES, type Interval } from './bootstrap.js';
import {
  STATISTICS_METRICS,
  STATISTICS_VERSION,
  checkResamples,
  checkSubject,
  familyBalancedOf,
  fractionOrNull,
  hierarchyOf,
  intervalJson,
  metricIntervals,
  scheduleValues,
  summarize,
  seedValues,
  type MetricValues,
  type Coverage,
  type IntervalJson,
  type StatisticsMetric,
  type StatisticsSubject,
} from './aggregate.js';
import { Rational } from './rational.js';
import { runSteps, type Steps } from '../steps.js';

export const COMPARISON_OUTCOMES = ['exact_tie', 'a_higher', 'b_higher', 'inconclusive'] as const;
export type ComparisonOutcome = (typeof COMPARISON_OUTCOMES)[number];

export type PairedMetric = {
  /** defined: paired episodes where the metric is defined in both results; total: paired episodes. */
  readonly coverage: Coverage;
  /** The family-balanced mean of the differences (= mean_a - mean_b). */
  readonly delta: string | null;
  /** Family-balanced means of A and of B over the same episodes as delta. */
  readonly mean_a: string | null;
  readonly mean_b: string | null;
  readonly scenario_balanced: string | null;
  readonly micro: string | null;
  readonly families: readonly { readonly family: string; readonly delta: string }[];
  readonly scenarios: readonly { readonly scenario_id: string; readonly family: string; readonly delta: string }[];
  readonly interval: IntervalJson | null;
  readonly outcome: ComparisonOutcome;
};

export type PairedStatistics = {
  readonly statistics_version: string;
  readonly kind: 'paired';
  readonly model_a: string;
  readonly model_b: string;
  readonly manifest_hash: string;
  readonly result_digest_a: string;
  readonly result_digest_b: string;
  readonly resamples: number;
  readonly episodes: {
    readonly scheduled: number;
    readonly committed_a: number;
    readonly committed_b: number;
    /** Committed in both results. */
    readonly paired: number;
    /** Committed in exactly one of the two results (left out). */
    readonly unpaired: number;
  };
  readonly metrics: { readonly [name: string]: PairedMetric };
};

/**
 * The bootstrap seed of the paired artifact (one stream for every metric):
 * SHA-256 of the canonical JSON {"differences", "manifest_hash", "model_a",
 * "model_b", "statistics_version"}, differences = {metric: one entry per
 * scheduled episode in manifest order, "num/den" or null where not paired
 * or undefined} for every metric of STATISTICS_METRICS. A metric that is
 * never undefined (contested_cell_steps) pins the paired episodes.
 */
export function pairedSeed(a: StatisticsSubject, b: StatisticsSubject, differences: MetricValues): Uint8Array {
  const lists: { [metric: string]: (string | null)[] } = {};
  for (const [name, list] of differences) lists[name] = seedValues(list);
  return sha256Bytes(
    canonicalJson({
      differences: lists,
      manifest_hash: a.manifestHash,
      model_a: a.modelId,
      model_b: b.modelId,
      statistics_version: STATISTICS_VERSION,
    }),
  );
}

/** The outcome of the defined paired differences and their interval (see the module comment). */
export function comparisonOutcome(differences: readonly Rational[], interval: Interval | null): ComparisonOutcome {
  if (differences.length === 0) return 'inconclusive';
  if (differences.every((d) => d.isZero())) return 'exact_tie';
  if (interval !== null && interval.lower.cmp(Rational.ZERO) > 0) return 'a_higher';
  if (interval !== null && interval.upper.cmp(Rational.ZERO) < 0) return 'b_higher';
  return 'inconclusive';
}

/** Both metric value lists of one metric (manifest order) and their differences, null unless defined in both. */
interface MetricPair {
  readonly valuesA: readonly (Rational | null)[];
  readonly valuesB: readonly (Rational | null)[];
  readonly differences: readonly (Rational | null)[];
}

function metricPair(a: StatisticsSubject, b: StatisticsSubject, metric: StatisticsMetric): MetricPair {
  const valuesA = scheduleValues(a, metric);
  const valuesB = scheduleValues(b, metric);
  // Uncommitted episodes are null in scheduleValues, so "both defined" is also "paired".
  const differences = valuesA.map((va, i) => (va !== null && valuesB[i] !== null ? va.sub(valuesB[i]!) : null));
  return { valuesA, valuesB, differences };
}

function pairedMetric(a: StatisticsSubject, pairedCount: number, pair: MetricPair, interval: Interval | null): PairedMetric {
  const { valuesA, valuesB, differences } = pair;
  const both = differences.map((d) => d !== null);
  const d = summarize(hierarchyOf(a.schedule, differences));
  const headline = (values: readonly (Rational | null)[]) => familyBalancedOf(hierarchyOf(a.schedule, values.map((v, i) => (both[i] ? v : null))));
  return {
    coverage: { defined: d.defined, total: pairedCount },
    delta: fractionOrNull(d.familyBalanced),
    mean_a: fractionOrNull(headline(valuesA)),
    mean_b: fractionOrNull(headline(valuesB)),
    scenario_balanced: fractionOrNull(d.scenarioBalanced),
    micro: fractionOrNull(d.micro),
    families: d.families.map((f) => ({ family: f.family, delta: f.mean.toFraction() })),
    scenarios: d.scenarios.map((s) => ({ scenario_id: s.scenarioId, family: s.family, delta: s.mean.toFraction() })),
    interval: intervalJson(interval),
    outcome: comparisonOutcome(
      differences.filter((d): d is Rational => d !== null),
      interval,
    ),
  };
}

/**
 * The paired statistics of A - B. Results of different manifests are a
 * ValidationError (exit 3). Without `resamples` the library default is
 * used; a bad count is a RangeError.
 */
export function pairedStatistics(a: StatisticsSubject, b: StatisticsSubject, resamples?: number): PairedStatistics {
  return runSteps(pairedStatisticSteps(a, b, resamples));
}

/** pairedStatistics as steps (src/core/steps.ts), so a caller can stop between them or show progress. */
export function* pairedStatisticSteps(a: StatisticsSubject, b: StatisticsSubject, resamples?: number): Steps<PairedStatistics> {
  if (resamples !== undefined) checkResamples(resamples);
  checkSubject(a, 'statistics input A');
  checkSubject(b, 'statistics input B');
  if (a.manifestHash !== b.manifestHash || a.schedule.length !== b.schedule.length) {
    throw new ValidationError(`results of different manifests are rejected: A has manifest ${a.manifestHash}, B has manifest ${b.manifestHash}`);
  }
  const inB = new Set(b.committed.map((e) => e.index));
  // The bootstrap units: the paired episodes, in manifest order.
  const paired = a.committed.filter((e) => inB.has(e.index)).map((e) => e.index);
  const units = paired.map((index) => ({ family: a.schedule[index]!.primary_family, scenarioId: a.schedule[index]!.scenario_id }));
  const count = resamples ?? DEFAULT_RESAMPLES;
  const pairs = STATISTICS_METRICS.map((m) => metricPair(a, b, m));
  const differences: MetricValues = new Map(STATISTICS_METRICS.map((m, i) => [m.name, pairs[i]!.differences]));
  const unitValues = pairs.map((p) => paired.map((index) => p.differences[index] ?? null));
  const intervals = yield* metricIntervals(units, unitValues, pairedSeed(a, b, differences), count);
  const metrics: { [name: string]: PairedMetric } = {};
  STATISTICS_METRICS.forEach((m, i) => {
    metrics[m.name] = pairedMetric(a, paired.length, pairs[i]!, intervals[i] ?? null);
  });
  return {
    statistics_version: STATISTICS_VERSION,
    kind: 'paired',
    model_a: a.modelId,
    model_b: b.modelId,
    manifest_hash: a.manifestHash,
    result_digest_a: a.resultDigest,
    result_digest_b: b.resultDigest,
    resamples: count,
    episodes: {
      scheduled: a.schedule.length,
      committed_a: a.committed.length,
      committed_b: b.committed.length,
      paired: paired.length,
      unpaired: a.committed.length + b.committed.length - 2 * paired.length,
    },
    metrics,
  };
}
