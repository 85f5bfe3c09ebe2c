/**
 * The score report (scoring-v1.0.md sections 6, 7 and 10; evaluation.md
 * section 5): the aggregation of the per-episode evidence into the EMBER
 * Score, its interval, components with coverage, families, tail,
 * zero-score causes, severe counts, people totals and the mandatory
 * congestion diagnostics.
 *
 * Every aggregate is a function of the evidence alone (aggregateScoreReport),
 * so the report reader recomputes all of it from the episode list and
 * rejects a report whose aggregates differ. Numbers are exact: integers,
 * the decimal strings of the episode values, "num/den" fractions for every
 * mean; rounding happens only in the summary text.
 *
 * Aggregation (section 6): an episode's value is the mean over its trials;
 * a scenario's the mean over its applicable episodes; a primary family's the
 * mean over its scenarios; the EMBER Score the mean over families.
 * Components, Safety and Quality use the same hierarchy over the
 * episode-trials where they are defined (an episode's value is the mean over
 * its trials that define it), with coverage defined / total over the
 * applicable episode-trials. Not-applicable episodes (M* = 0) are left out
 * of everything, for every model.
 *
 * Totals, severe counts and congestion diagnostics pool the applicable
 * episode-trials with an authenticated result (scored and catastrophic):
 * failed trials have no trajectory, and a catastrophic trial's losses are
 * the ones a reader most needs to see, so "scored episode-trials" in
 * section 6 is read as "scored or catastrophic" here (docs/scoring.md).
 */

import type { FailureDeclaration } from '../eval/result.js';
import { MismatchError, ValidationError } from '../errors.js';
import { fileDigest, sha256Bytes, sha256Hex } from '../hash.js';
import { canonicalJson, type JsonObject } from '../json/canonical.js';
import { DEFAULT_RESAMPLES, bootstrapIntervalSteps } from '../stats/bootstrap.js';
import { buildHierarchy, familyBalancedMean, familyMeans, microMean, scenarioBalancedMean, scenarioMeans, type Hierarchy, type HierarchyUnit } from '../stats/hierarchy.js';
import { quantile } from '../stats/quantile.js';
import { Rational, mean } from '../stats/rational.js';
import { runSteps, type Steps } from '../steps.js';
import { BENCHMARK_VERSIONS } from '../versions.js';
import type { Suite } from '../world/suite.js';
import { SCORING_CONSTANTS_DIGEST } from './constants.js';
import { congestionOf, countsOf, totalsOf } from './report-tallies.js';
import { mergeFailures, scheduledEpisodeEvidence, trialEpisodes, trialHead, type ScoringTrial, type TrialEpisodes } from './scored-trials.js';
import { COMPONENTS, type EpisodeEvidence, type EpisodeTrialEvidence } from './evidence.js';
import type { Coverage, ScoreReport, ScoreReportHeader } from './report-types.js';

export const SCORING_VERSION: string = BENCHMARK_VERSIONS.scoring_version;
export const STATISTICS_VERSION: string = BENCHMARK_VERSIONS.statistics_version;

export type { CongestionDiagnostics, Coverage, PeopleTotals, PeopleTotalsPerTrial, ScoreReport, ScoreReportHeader, TargetEvidence, TrialEvidence } from './report-types.js';

const fraction = (r: Rational | null): string | null => (r === null ? null : r.toFraction());

/** The hierarchy of a per-trial value: each applicable episode's mean over the trials that define it. */
function hierarchyOf(episodes: readonly EpisodeEvidence[], value: (t: EpisodeTrialEvidence) => string | null): { h: Hierarchy; defined: number } {
  let defined = 0;
  const units: HierarchyUnit[] = episodes.map((e) => {
    if (!e.applicable) return { family: e.primary_family, scenarioId: e.scenario_id, value: null };
    const values = e.trials.map(value).filter((v): v is string => v !== null);
    defined += values.length;
    return { family: e.primary_family, scenarioId: e.scenario_id, value: values.length === 0 ? null : mean(values.map((v) => Rational.parse(v))) };
  });
  return { h: buildHierarchy(units), defined };
}

function coverage(episodes: readonly EpisodeEvidence[], total: number, value: (t: EpisodeTrialEvidence) => string | null): Coverage {
  const { h, defined } = hierarchyOf(episodes, value);
  return { mean: fraction(familyBalancedMean(h)), defined, total };
}

/** Manifest order of first appearance. */
function firstAppearance<T>(items: readonly T[], key: (item: T) => string, order: readonly string[]): T[] {
  const rank = new Map<string, number>();
  order.forEach((k) => rank.has(k) || rank.set(k, rank.size));
  return items.slice().sort((a, b) => rank.get(key(a))! - rank.get(key(b))!);
}

/**
 * The object whose canonical JSON's SHA-256 seeds the bootstrap stream
 * (scoring-v1.0.md section 7): the scoring version, the constants digest,
 * the manifest hash, the model ID and every scheduled episode's exact score
 * ("num/den", the mean over trials) in manifest order, null for a
 * not-applicable episode.
 */
export function bootstrapSeedObject(header: ScoreReportHeader, episodes: readonly EpisodeEvidence[]): JsonObject {
  return {
    constants_digest: header.constants_digest,
    episode_scores: episodes.map((e) => e.score),
    manifest_hash: header.manifest_hash,
    model_id: header.model_id,
    scoring_version: header.scoring_version,
  };
}

function tailOf(h: Hierarchy, order: readonly string[]): ScoreReport['tail'] {
  const scenarios = firstAppearance(scenarioMeans(h), (s) => s.scenarioId, order);
  const episodeScores = h.flatMap((f) => f.scenarios.flatMap((s) => s.values));
  if (scenarios.length === 0) return { median_scenario: null, worst_scenario: null, p10_episode: null, cvar10: null, cvar10_episodes: 0 };
  let worst = scenarios[0]!;
  for (const s of scenarios) if (s.mean.cmp(worst.mean) < 0) worst = s;
  const lowest = episodeScores.slice().sort((a, b) => a.cmp(b));
  const count = Math.ceil(lowest.length / 10);
  return {
    median_scenario: quantile(scenarios.map((s) => s.mean), Rational.of(1n, 2n)).toFraction(),
    worst_scenario: { scenario_id: worst.scenarioId, score: worst.mean.toFraction() },
    p10_episode: quantile(episodeScores, Rational.of(1n, 10n)).toFraction(),
    cvar10: mean(lowest.slice(0, count)).toFraction(),
    cvar10_episodes: count,
  };
}

/**
 * Every aggregate of the report from its header and evidence. The caller
 * (buildScoreReport or the report reader) has validated the evidence.
 */
export function aggregateScoreReport(header: ScoreReportHeader, episodes: readonly EpisodeEvidence[]): ScoreReport {
  return runSteps(aggregateScoreReportSteps(header, episodes));
}

/** aggregateScoreReport as steps (src/core/steps.ts): the same report; the bootstrap yields its progress. */
export function* aggregateScoreReportSteps(header: ScoreReportHeader, episodes: readonly EpisodeEvidence[]): Steps<ScoreReport> {
  const trials = header.trials.length;
  if (trials === 0) throw new ValidationError('a score report needs at least one trial');
  const order = episodes.map((e) => e.scenario_id);
  const familyOrder = episodes.map((e) => e.primary_family);
  const { h } = hierarchyOf(episodes, (t) => t.score);
  const score = familyBalancedMean(h);
  const counts = countsOf(episodes);
  const total = counts.episode_trials.applicable;
  const seedText = canonicalJson(bootstrapSeedObject(header, episodes));
  const seed = sha256Bytes(seedText);
  const seedHex = sha256Hex(seedText);
  const interval = yield* bootstrapIntervalSteps(h, seed, header.resamples);
  const components = Object.fromEntries(COMPONENTS.map((k) => [k, coverage(episodes, total, (t) => t.breakdown?.components[k] ?? null)])) as ScoreReport['components'];
  const scenarioCount = new Map<string, number>();
  for (const f of h) scenarioCount.set(f.family, f.scenarios.length);
  return {
    ...header,
    official: header.target.kind === 'pack',
    score: fraction(score),
    interval: interval === null ? null : { lower: interval.lower.toFraction(), upper: interval.upper.toFraction(), seed: seedHex },
    means: { family_balanced: fraction(score), scenario_balanced: fraction(scenarioBalancedMean(h)), micro: fraction(microMean(h)) },
    safety: coverage(episodes, total, (t) => t.breakdown?.safety ?? null),
    quality: coverage(episodes, total, (t) => t.breakdown?.quality ?? null),
    components,
    families: firstAppearance(familyMeans(h), (f) => f.family, familyOrder).map((f) => ({ family: f.family, score: f.mean.toFraction(), scenarios: scenarioCount.get(f.family)! })),
    scenarios: firstAppearance(scenarioMeans(h), (s) => s.scenarioId, order).map((s) => ({
      scenario_id: s.scenarioId,
      primary_family: s.family,
      score: s.mean.toFraction(),
      applicable_episodes: episodes.filter((e) => e.applicable && e.scenario_id === s.scenarioId).length,
    })),
    tail: tailOf(h, order),
    ...counts,
    totals: totalsOf(episodes, trials),
    diagnostics: { congestion: congestionOf(episodes, trials) },
    episodes,
  };
}

/** What the score is computed against; a pack target is checked against the results' manifest. */
export type ScoreTarget =
  | { readonly kind: 'suite' }
  | { readonly kind: 'pack'; readonly pack_id: string; readonly pack_digest: string; readonly manifest_hash: string };

export interface ScoreReportInput {
  /** The suite the results were authenticated against (for a pack, its suite copy). */
  readonly suite: Suite;
  /**
   * One result per trial: the same model on the same manifest, authenticated
   * whole or evaluated as it was streamed (scored-trials.ts).
   */
  readonly trials: readonly ScoringTrial[];
  /** Extra failure declarations per trial (the --failures files), merged with each result's own. */
  readonly failures?: readonly (readonly FailureDeclaration[])[];
  readonly target: ScoreTarget;
  /** Bootstrap resamples (default 2000). */
  readonly resamples?: number;
  /** Names of the trials' results and failure files in messages (default "trial K"). */
  readonly sources?: readonly string[];
  readonly failureSources?: readonly string[];
}

/**
 * Scores the trials of one model on one manifest. The results must have been
 * authenticated (authenticateResult) against `suite`; with a pack target,
 * the caller has also checked them against the pack. Different models or
 * manifests are a scoring input error (exit 3); a pack of another manifest
 * is a mismatch (exit 5).
 */
export function buildScoreReport(input: ScoreReportInput): ScoreReport {
  return runSteps(buildScoreReportSteps(input));
}

/** buildScoreReport as steps (src/core/steps.ts): the same report, byte for byte, with progress between steps. */
export function* buildScoreReportSteps(input: ScoreReportInput): Steps<ScoreReport> {
  const { suite, target } = input;
  const trials = input.trials.map(trialHead);
  const source = (k: number) => input.sources?.[k] ?? `trial ${k}`;
  const first = trials[0];
  if (first === undefined) throw new ValidationError('scoring input error: no trial to score');
  trials.forEach((t, k) => {
    if (t.modelId !== first.modelId) {
      throw new ValidationError(`scoring input error: ${source(k)}: model ${JSON.stringify(t.modelId)} differs from ${JSON.stringify(first.modelId)} (${source(0)}); a report scores one model`);
    }
    if (t.manifestHash !== first.manifestHash) {
      throw new ValidationError(`scoring input error: ${source(k)}: manifest ${t.manifestHash} differs from ${first.manifestHash} (${source(0)}); every trial must run the same manifest`);
    }
  });
  const manifest = first.manifest;
  if (manifest.suite.suite_hash !== suite.hash) throw new ValidationError(`scoring input error: the results' manifest targets suite ${manifest.suite.suite_hash}, not ${suite.hash}`);
  if (target.kind === 'pack' && target.manifest_hash !== first.manifestHash) {
    throw new MismatchError(`the results' manifest ${first.manifestHash} is not the manifest ${target.manifest_hash} of environment pack ${target.pack_id}`);
  }
  if (input.failures !== undefined && input.failures.length !== trials.length) {
    throw new ValidationError(`scoring input error: ${input.failures.length} failure lists for ${trials.length} trials`);
  }
  const episodesOfTrials: TrialEpisodes[] = input.trials.map((t, k) =>
    trialEpisodes(t, mergeFailures(trials[k]!, input.failures?.[k] ?? [], input.failureSources?.[k] ?? `failures of ${source(k)}`), source(k)),
  );
  const scenarios = new Map(suite.entries.map((e) => [e.scenarioId, e.scenario]));
  // A step per scheduled episode: each may compute its fire world and M* (thousands of episodes took over a second).
  const episodes: EpisodeEvidence[] = [];
  for (const scheduled of manifest.episodes) {
    yield { what: 'scoring episodes', done: episodes.length, total: manifest.episodes.length };
    episodes.push(scheduledEpisodeEvidence(scheduled, scenarios.get(scheduled.scenario_id)!, episodesOfTrials));
  }
  const header: ScoreReportHeader = {
    constants_digest: SCORING_CONSTANTS_DIGEST,
    manifest_hash: first.manifestHash,
    model_id: first.modelId,
    resamples: input.resamples ?? DEFAULT_RESAMPLES,
    scoring_version: SCORING_VERSION,
    statistics_version: STATISTICS_VERSION,
    suite: { suite_hash: manifest.suite.suite_hash, suite_id: manifest.suite.suite_id, suite_version: manifest.suite.suite_version },
    target: target.kind === 'suite' ? { kind: 'suite' } : { kind: 'pack', pack_id: target.pack_id, pack_digest: target.pack_digest },
    trials: trials.map((t, k) => ({
      trial: k,
      result_digest: t.digest,
      committed_episodes: t.committedCount,
      declared_failures: episodesOfTrials[k]!.failures.size,
      missing_episodes: t.scheduledEpisodes - t.committedCount - episodesOfTrials[k]!.failures.size,
    })),
  };
  return yield* aggregateScoreReportSteps(header, episodes);
}

/** The report file text: canonical JSON plus one LF. */
export function scoreReportText(report: ScoreReport): string {
  return canonicalJson(report) + '\n';
}

/** The report digest: SHA-256 of the file text without its final LF. */
export function scoreReportDigest(text: string): string {
  return fileDigest(text);
}

