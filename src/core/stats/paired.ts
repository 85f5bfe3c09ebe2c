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
 * level. The interval is the stratified bootstrap of the differences.
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
  fractionOrNull,
  hierarchyOf,
  intervalJson,
  metricInterval,
  scheduleValues,
  seedValues,
  type Coverage,
  type IntervalJson,
  type StatisticsMetric,
  type StatisticsSubject,
} from './aggregate.js';
import { episodeCount, familyBalancedMean, familyMeans, microMean, scenarioBalancedMean, scenarioMeans } from './hierarchy.js';
import { Rational } from './rational.js';

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
 * The bootstrap seed of one paired metric: SHA-256 of the canonical JSON
 * {"differences", "manifest_hash", "metric", "model_a", "model_b",
 * "statistics_version"}, differences one per scheduled episode in manifest
 * order ("num/den", null where not paired or undefined).
 */
export function pairedSeed(a: StatisticsSubject, b: StatisticsSubject, metric: string, differences: readonly (Rational | null)[]): Uint8Array {
  return sha256Bytes(
    canonicalJson({
      differences: seedValues(differences),
      manifest_hash: a.manifestHash,
      metric,
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

function pairedMetric(a: StatisticsSubject, b: StatisticsSubject, pairedCount: number, metric: StatisticsMetric, resamples: number | undefined): PairedMetric {
  const valuesA = scheduleValues(a, metric);
  const valuesB = scheduleValues(b, metric);
  // Uncommitted episodes are null in scheduleValues, so "both defined" is also "paired".
  const both = valuesA.map((va, i) => va !== null && valuesB[i] !== null);
  const differences = valuesA.map((va, i) => (both[i] ? va!.sub(valuesB[i]!) : null));
  const h = hierarchyOf(a.schedule, differences);
  const interval = metricInterval(h, pairedSeed(a, b, metric.name, differences), resamples);
  return {
    coverage: { defined: episodeCount(h), total: pairedCount },
    delta: fractionOrNull(familyBalancedMean(h)),
    mean_a: fractionOrNull(familyBalancedMean(hierarchyOf(a.schedule, valuesA.map((v, i) => (both[i] ? v : null))))),
    mean_b: fractionOrNull(familyBalancedMean(hierarchyOf(a.schedule, valuesB.map((v, i) => (both[i] ? v : null))))),
    scenario_balanced: fractionOrNull(scenarioBalancedMean(h)),
    micro: fractionOrNull(microMean(h)),
    families: familyMeans(h).map((f) => ({ family: f.family, delta: f.mean.toFraction() })),
    scenarios: scenarioMeans(h).map((s) => ({ scenario_id: s.scenarioId, family: s.family, delta: s.mean.toFraction() })),
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
  if (resamples !== undefined) checkResamples(resamples);
  checkSubject(a, 'statistics input A');
  checkSubject(b, 'statistics input B');
  if (a.manifestHash !== b.manifestHash || a.schedule.length !== b.schedule.length) {
    throw new ValidationError(`results of different manifests are rejected: A has manifest ${a.manifestHash}, B has manifest ${b.manifestHash}`);
  }
  const inB = new Set(b.committed.map((e) => e.index));
  const paired = a.committed.filter((e) => inB.has(e.index)).length;
  const metrics: { [name: string]: PairedMetric } = {};
  for (const metric of STATISTICS_METRICS) metrics[metric.name] = pairedMetric(a, b, paired, metric, resamples);
  return {
    statistics_version: STATISTICS_VERSION,
    kind: 'paired',
    model_a: a.modelId,
    model_b: b.modelId,
    manifest_hash: a.manifestHash,
    result_digest_a: a.resultDigest,
    result_digest_b: b.resultDigest,
    resamples: resamples ?? DEFAULT_RESAMPLES,
    episodes: {
      scheduled: a.schedule.length,
      committed_a: a.committed.length,
      committed_b: b.committed.length,
      paired,
      unpaired: a.committed.length + b.committed.length - 2 * paired,
    },
    metrics,
  };
}
