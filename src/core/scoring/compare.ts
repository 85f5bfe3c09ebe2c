/**
 * The paired score comparison (scoring-v1.0.md section 8, evaluation.md
 * section 6; docs/comparison.md).
 *
 * Two score reports are comparable only with the same scoring version, the
 * same constants digest, the same evaluation manifest, the same target (the
 * same environment pack, or both unofficial on the same suite) and the same
 * applicable episodes; anything else is a ValidationError (exit 3).
 *
 * Per applicable episode e, d_e = a_e - b_e, where a_e and b_e are the
 * episode scores (the mean over trials). The differences are aggregated with
 * the score's own hierarchy (scenario, then primary family, then overall),
 * which is linear, so delta = score_a - score_b exactly (checked). The
 * interval is the stratified two-stage bootstrap of the differences, with
 * seed32 = SHA-256 of the canonical JSON
 *
 *   {"constants_digest": ..., "manifest_hash": ..., "model_a": ...,
 *    "model_b": ..., "paired_differences": ["num/den", ...],
 *    "scoring_version": ...}
 *
 * (the differences in manifest order). Outcome: exact_tie when every paired
 * episode score is identical (at least one applicable episode); a_better
 * when the lower bound is > 0 and delta >= 1 point; b_better when the upper
 * bound is < 0 and -delta >= 1; inconclusive otherwise, including fewer
 * than 5 applicable episodes (no interval).
 */

import { ValidationError } from '../errors.js';
import { sha256Bytes } from '../hash.js';
import { canonicalJson } from '../json/canonical.js';
import { DEFAULT_RESAMPLES, bootstrapIntervalSteps, type Interval } from '../stats/bootstrap.js';
import { runSteps, type Steps } from '../steps.js';
import { buildHierarchy, familyBalancedMean, familyMeans, type Hierarchy } from '../stats/hierarchy.js';
import { Rational } from '../stats/rational.js';
import { SCORING_CONSTANTS } from './constants.js';

/** The smallest difference, in points, that counts as "better" (an official constant). */
export const PRACTICAL_DIFFERENCE: Rational = Rational.parse(SCORING_CONSTANTS.practical_difference);

export type ComparisonOutcome = 'exact_tie' | 'a_better' | 'b_better' | 'inconclusive';

/** One scheduled episode of a report: its place in the hierarchy and its score (mean over trials), null when not applicable. */
export interface ReportEpisode {
  readonly index: number;
  readonly scenarioId: string;
  readonly primaryFamily: string;
  readonly score: Rational | null;
}

/** What a comparison and a leaderboard read from a loaded score report. */
export interface ReportView {
  /** fileDigest of the report file. */
  readonly digest: string;
  readonly modelId: string;
  readonly scoringVersion: string;
  readonly constantsDigest: string;
  readonly manifestHash: string;
  readonly suiteHash: string;
  readonly official: boolean;
  /** The environment pack's full digest and ID; null for an unofficial score. */
  readonly packDigest: string | null;
  readonly packId: string | null;
  readonly trials: number;
  /** The EMBER Score (exact); null when no episode is applicable. */
  readonly score: Rational | null;
  /** The aggregate Safety factor; null when undefined. */
  readonly safety: Rational | null;
  readonly avoidableCasualtiesPerTrial: Rational;
  readonly avoidableStrandedPerTrial: Rational;
  /** The lowest scenario score and its scenario; null when no episode is applicable. */
  readonly worstScenario: { readonly scenarioId: string; readonly score: Rational } | null;
  /** Every scheduled episode in manifest order. */
  readonly episodes: readonly ReportEpisode[];
}

export type PairedEpisode = {
  readonly index: number;
  readonly scenario_id: string;
  readonly primary_family: string;
  readonly a: string;
  readonly b: string;
  readonly difference: string;
};

/** The comparison artifact (canonical JSON + LF; its digest is fileDigest of the file). */
export type ComparisonArtifact = {
  readonly scoring_version: string;
  readonly constants_digest: string;
  readonly manifest_hash: string;
  readonly suite_hash: string;
  readonly official: boolean;
  readonly pack_id: string | null;
  readonly pack_digest: string | null;
  readonly report_a: { readonly digest: string; readonly model_id: string; readonly score: string | null; readonly trials: number };
  readonly report_b: { readonly digest: string; readonly model_id: string; readonly score: string | null; readonly trials: number };
  /** score_a - score_b, exact ("num/den"); null when no episode is applicable. */
  readonly delta: string | null;
  readonly interval: { readonly lower: string; readonly upper: string } | null;
  readonly resamples: number;
  /** Hex SHA-256 seed of the bootstrap stream. */
  readonly bootstrap_seed: string;
  readonly practical_difference: string;
  readonly outcome: ComparisonOutcome;
  readonly applicable_episodes: number;
  readonly family_deltas: readonly { readonly family: string; readonly delta: string }[];
  /** The applicable episodes, sorted by difference ascending (B's strongest first), then index. */
  readonly episodes: readonly PairedEpisode[];
};

export interface Comparison {
  readonly artifact: ComparisonArtifact;
  readonly delta: Rational | null;
  readonly interval: Interval | null;
  readonly outcome: ComparisonOutcome;
}

function reject(problem: string): never {
  throw new ValidationError(`score compare: ${problem}`);
}

/**
 * The reports must be comparable: same scoring version, constants, manifest
 * and target, and the same applicable episodes. `labelA`/`labelB` name them
 * in messages (file names or model IDs).
 */
export function checkComparable(a: ReportView, b: ReportView, labelA = 'A', labelB = 'B'): void {
  const same = (what: string, x: string | null, y: string | null): void => {
    if (x !== y) reject(`${labelA} and ${labelB} have different ${what} (${String(x)} and ${String(y)})`);
  };
  same('scoring versions', a.scoringVersion, b.scoringVersion);
  same('scoring constants digests', a.constantsDigest, b.constantsDigest);
  same('evaluation manifests', a.manifestHash, b.manifestHash);
  same('suites', a.suiteHash, b.suiteHash);
  if (a.official !== b.official) {
    reject(`${a.official ? labelA : labelB} is official and ${a.official ? labelB : labelA} is not; compare two official scores on one environment pack, or two unofficial scores on one suite`);
  }
  same('environment packs', a.packDigest, b.packDigest);
  if (a.episodes.length !== b.episodes.length) reject(`${labelA} and ${labelB} schedule different numbers of episodes`);
  a.episodes.forEach((ea, i) => {
    const eb = b.episodes[i]!;
    if (ea.index !== i || eb.index !== i) reject(`episode lists are not in manifest order at position ${i}`);
    if (ea.scenarioId !== eb.scenarioId || ea.primaryFamily !== eb.primaryFamily) reject(`episode ${i} differs between ${labelA} and ${labelB}`);
    if ((ea.score === null) !== (eb.score === null)) reject(`episode ${i} is applicable in ${ea.score === null ? labelB : labelA} only; the applicable episodes must be the same`);
  });
}

function hierarchyOf(episodes: readonly ReportEpisode[], value: (e: ReportEpisode) => Rational | null): Hierarchy {
  return buildHierarchy(episodes.map((e) => ({ family: e.primaryFamily, scenarioId: e.scenarioId, value: value(e) })));
}

/** seed32 of the comparison's bootstrap stream (see the module comment). */
export function comparisonSeed(a: ReportView, b: ReportView, differences: readonly Rational[]): Uint8Array {
  return sha256Bytes(
    canonicalJson({
      constants_digest: a.constantsDigest,
      manifest_hash: a.manifestHash,
      model_a: a.modelId,
      model_b: b.modelId,
      paired_differences: differences.map((d) => d.toFraction()),
      scoring_version: a.scoringVersion,
    }),
  );
}

function hex(bytes: Uint8Array): string {
  return [...bytes].map((x) => x.toString(16).padStart(2, '0')).join('');
}

export function decideOutcome(differences: readonly Rational[], delta: Rational | null, interval: Interval | null): ComparisonOutcome {
  if (differences.length > 0 && differences.every((d) => d.isZero())) return 'exact_tie';
  if (delta === null || interval === null) return 'inconclusive';
  if (interval.lower.cmp(Rational.ZERO) > 0 && delta.cmp(PRACTICAL_DIFFERENCE) >= 0) return 'a_better';
  if (interval.upper.cmp(Rational.ZERO) < 0 && delta.neg().cmp(PRACTICAL_DIFFERENCE) >= 0) return 'b_better';
  return 'inconclusive';
}

/** Compares A with B (A - B). */
export function compareReports(a: ReportView, b: ReportView, resamples: number = DEFAULT_RESAMPLES, labelA = 'A', labelB = 'B'): Comparison {
  return runSteps(compareReportSteps(a, b, resamples, labelA, labelB));
}

/** compareReports as steps (src/core/steps.ts), so the CLI can stop between them (Ctrl+C). */
export function* compareReportSteps(a: ReportView, b: ReportView, resamples: number = DEFAULT_RESAMPLES, labelA = 'A', labelB = 'B'): Steps<Comparison> {
  checkComparable(a, b, labelA, labelB);
  const paired = a.episodes
    .map((ea, i) => ({ ea, eb: b.episodes[i]! }))
    .filter(({ ea }) => ea.score !== null)
    .map(({ ea, eb }) => ({ episode: ea, a: ea.score!, b: eb.score!, difference: ea.score!.sub(eb.score!) }));
  const differenceOf = new Map(paired.map((p) => [p.episode.index, p.difference]));
  const h = hierarchyOf(a.episodes, (e) => differenceOf.get(e.index) ?? null);
  const delta = familyBalancedMean(h);

  // The hierarchy is linear, so the mean of the differences is the difference of the means.
  const scoreA = familyBalancedMean(hierarchyOf(a.episodes, (e) => e.score));
  const scoreB = familyBalancedMean(hierarchyOf(b.episodes, (e) => e.score));
  for (const [label, report, recomputed] of [[labelA, a, scoreA], [labelB, b, scoreB]] as const) {
    if ((report.score === null) !== (recomputed === null) || (recomputed !== null && !recomputed.eq(report.score!))) {
      reject(`${label}: its EMBER Score is not the family-balanced mean of its episode scores`);
    }
  }
  if (delta !== null && !delta.eq(scoreA!.sub(scoreB!))) throw new Error('internal: delta is not score_a - score_b');

  const differences = paired.map((p) => p.difference);
  const seed32 = comparisonSeed(a, b, differences);
  const interval = yield* bootstrapIntervalSteps(h, seed32, resamples);
  const outcome = decideOutcome(differences, delta, interval);
  const sorted = paired.slice().sort((x, y) => x.difference.cmp(y.difference) || x.episode.index - y.episode.index);

  const side = (r: ReportView): ComparisonArtifact['report_a'] => ({ digest: r.digest, model_id: r.modelId, score: r.score?.toFraction() ?? null, trials: r.trials });
  const artifact: ComparisonArtifact = {
    scoring_version: a.scoringVersion,
    constants_digest: a.constantsDigest,
    manifest_hash: a.manifestHash,
    suite_hash: a.suiteHash,
    official: a.official,
    pack_id: a.packId,
    pack_digest: a.packDigest,
    report_a: side(a),
    report_b: side(b),
    delta: delta?.toFraction() ?? null,
    interval: interval === null ? null : { lower: interval.lower.toFraction(), upper: interval.upper.toFraction() },
    resamples,
    bootstrap_seed: hex(seed32),
    practical_difference: PRACTICAL_DIFFERENCE.toFraction(),
    outcome,
    applicable_episodes: paired.length,
    family_deltas: familyMeans(h).map((f) => ({ family: f.family, delta: f.mean.toFraction() })),
    episodes: sorted.map((p) => ({
      index: p.episode.index,
      scenario_id: p.episode.scenarioId,
      primary_family: p.episode.primaryFamily,
      a: p.a.toFraction(),
      b: p.b.toFraction(),
      difference: p.difference.toFraction(),
    })),
  };
  return { artifact, delta, interval, outcome };
}

export function comparisonText(artifact: ComparisonArtifact): string {
  return canonicalJson(artifact) + '\n';
}

function signed(value: Rational, places: number): string {
  const text = value.toFixed(places);
  return text.startsWith('-') || /^0\.?0*$/.test(text) ? text : `+${text}`;
}

/** The human summary of a comparison (rounding only here). */
export function comparisonSummary(c: Comparison): string[] {
  const { artifact } = c;
  const score = (s: string | null): string => (s === null ? 'n/a' : Rational.parse(s).toFixed(1));
  const lines = [
    `Paired comparison A - B under EMBER scoring version ${artifact.scoring_version} (${artifact.official ? `official; environment pack ${artifact.pack_id}` : 'UNOFFICIAL'})`,
    `A ${artifact.report_a.model_id} ${score(artifact.report_a.score)}; B ${artifact.report_b.model_id} ${score(artifact.report_b.score)}`,
    c.delta === null ? 'Delta n/a (no applicable episode)' : `Delta ${signed(c.delta, 1)} points`,
    c.interval === null
      ? '95% CI: no interval (fewer than 5 applicable episodes)'
      : `95% CI [${c.interval.lower.toFixed(1)}, ${c.interval.upper.toFixed(1)}] (stratified two-stage bootstrap of the paired differences, ${artifact.resamples} resamples; this sample only)`,
    `Outcome ${c.outcome} (practical difference ${Rational.parse(artifact.practical_difference).toFixed(1)} point; applicable episodes ${artifact.applicable_episodes})`,
    `Family deltas: ${artifact.family_deltas.map((f) => `${f.family} ${signed(Rational.parse(f.delta), 1)}`).join('; ')}`,
  ];
  return lines;
}
