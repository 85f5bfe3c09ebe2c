/**
 * The leaderboard (scoring-v1.0.md section 8, docs/comparison.md). Order is
 * separate from significance. `leaderboard_order` sorts by:
 *
 *   1. the score rounded half-even to 0.1 point, descending;
 *   2. the Safety factor, descending;
 *   3. avoidable casualties per trial, ascending;
 *   4. avoidable stranded per trial, ascending;
 *   5. the worst scenario score, descending;
 *   6. the model ID (code point order).
 *
 * So safety decides every tie of the displayed score. Next to the order the
 * leaderboard publishes the paired comparison of each adjacent pair, which
 * can be inconclusive. All reports must be comparable (compare.ts): one
 * scoring version, constants digest, manifest and target; model IDs and
 * report digests must be distinct. Every number in the artifact is exact.
 */

import { ValidationError } from '../errors.js';
import { canonicalJson, compareCodePoints } from '../json/canonical.js';
import { DEFAULT_RESAMPLES } from '../stats/bootstrap.js';
import { Rational } from '../stats/rational.js';
import { checkComparable, compareReports, type ComparisonOutcome, type ReportView } from './compare.js';

/** The score rounded half-even to 0.1 point, as an exact rational (the displayed score). */
export function displayedScore(score: Rational): Rational {
  return Rational.parse(score.toFixed(1));
}

/** Nulls (undefined values) sort last in either direction. */
function compareNullable(x: Rational | null, y: Rational | null, descending: boolean): number {
  if (x === null || y === null) return x === null ? (y === null ? 0 : 1) : -1;
  return descending ? y.cmp(x) : x.cmp(y);
}

/** The section 8 order: negative when `a` ranks above `b`. */
export function leaderboardOrder(a: ReportView, b: ReportView): number {
  return (
    compareNullable(a.score === null ? null : displayedScore(a.score), b.score === null ? null : displayedScore(b.score), true) ||
    compareNullable(a.safety, b.safety, true) ||
    a.avoidableCasualtiesPerTrial.cmp(b.avoidableCasualtiesPerTrial) ||
    a.avoidableStrandedPerTrial.cmp(b.avoidableStrandedPerTrial) ||
    compareNullable(a.worstScenario?.score ?? null, b.worstScenario?.score ?? null, true) ||
    compareCodePoints(a.modelId, b.modelId)
  );
}

export type LeaderboardEntry = {
  readonly rank: number;
  readonly model_id: string;
  readonly report_digest: string;
  readonly trials: number;
  readonly score: string | null;
  /** The score rounded half-even to 0.1 ("72.4"), the first sort key. */
  readonly score_display: string | null;
  readonly safety: string | null;
  readonly avoidable_casualties_per_trial: string;
  readonly avoidable_stranded_per_trial: string;
  readonly worst_scenario_id: string | null;
  readonly worst_scenario_score: string | null;
};

export type AdjacentComparison = {
  /** Ranks of the upper (A) and lower (B) entry. */
  readonly rank_a: number;
  readonly rank_b: number;
  readonly model_a: string;
  readonly model_b: string;
  readonly delta: string | null;
  readonly interval: { readonly lower: string; readonly upper: string } | null;
  readonly outcome: ComparisonOutcome;
};

export type LeaderboardArtifact = {
  readonly scoring_version: string;
  readonly constants_digest: string;
  readonly manifest_hash: string;
  readonly suite_hash: string;
  readonly official: boolean;
  readonly pack_id: string | null;
  readonly pack_digest: string | null;
  readonly resamples: number;
  readonly order: readonly string[];
  readonly entries: readonly LeaderboardEntry[];
  readonly adjacent: readonly AdjacentComparison[];
};

/** Builds the leaderboard of two or more comparable reports. `labels[i]` names report i in messages. */
export function buildLeaderboard(reports: readonly ReportView[], resamples: number = DEFAULT_RESAMPLES, labels?: readonly string[]): LeaderboardArtifact {
  if (reports.length < 2) throw new ValidationError('leaderboard: needs at least two score reports');
  const label = (i: number): string => labels?.[i] ?? `report ${i + 1}`;
  const first = reports[0]!;
  reports.forEach((r, i) => {
    if (i > 0) checkComparable(first, r, label(0), label(i));
  });
  const seenModels = new Map<string, number>();
  const seenDigests = new Map<string, number>();
  reports.forEach((r, i) => {
    const model = seenModels.get(r.modelId);
    if (model !== undefined) throw new ValidationError(`leaderboard: ${label(model)} and ${label(i)} are both model ${r.modelId}; one report per model`);
    seenModels.set(r.modelId, i);
    const digest = seenDigests.get(r.digest);
    if (digest !== undefined) throw new ValidationError(`leaderboard: ${label(digest)} and ${label(i)} are the same report`);
    seenDigests.set(r.digest, i);
  });

  const ordered = reports.map((report, i) => ({ report, label: label(i) })).sort((x, y) => leaderboardOrder(x.report, y.report));
  const entries = ordered.map(({ report: r }, i): LeaderboardEntry => ({
    rank: i + 1,
    model_id: r.modelId,
    report_digest: r.digest,
    trials: r.trials,
    score: r.score?.toFraction() ?? null,
    score_display: r.score?.toFixed(1) ?? null,
    safety: r.safety?.toFraction() ?? null,
    avoidable_casualties_per_trial: r.avoidableCasualtiesPerTrial.toFraction(),
    avoidable_stranded_per_trial: r.avoidableStrandedPerTrial.toFraction(),
    worst_scenario_id: r.worstScenario?.scenarioId ?? null,
    worst_scenario_score: r.worstScenario?.score.toFraction() ?? null,
  }));
  const adjacent = ordered.slice(1).map(({ report: lower, label: lowerLabel }, i): AdjacentComparison => {
    const upper = ordered[i]!;
    const c = compareReports(upper.report, lower, resamples, upper.label, lowerLabel);
    return {
      rank_a: i + 1,
      rank_b: i + 2,
      model_a: upper.report.modelId,
      model_b: lower.modelId,
      delta: c.artifact.delta,
      interval: c.artifact.interval,
      outcome: c.outcome,
    };
  });
  return {
    scoring_version: first.scoringVersion,
    constants_digest: first.constantsDigest,
    manifest_hash: first.manifestHash,
    suite_hash: first.suiteHash,
    official: first.official,
    pack_id: first.packId,
    pack_digest: first.packDigest,
    resamples,
    order: entries.map((e) => e.model_id),
    entries,
    adjacent,
  };
}

export function leaderboardText(artifact: LeaderboardArtifact): string {
  return canonicalJson(artifact) + '\n';
}

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

/** The human table (rounding only here): one row per entry, then the adjacent comparisons. */
export function leaderboardTable(artifact: LeaderboardArtifact): string[] {
  const fixed = (s: string | null, places: number): string => (s === null ? 'n/a' : Rational.parse(s).toFixed(places));
  const header = ['rank', 'model', 'score', 'safety', 'cas/trial', 'str/trial', 'worst scenario'];
  const rows = artifact.entries.map((e) => [
    String(e.rank),
    e.model_id,
    e.score_display ?? 'n/a',
    fixed(e.safety, 3),
    fixed(e.avoidable_casualties_per_trial, 1),
    fixed(e.avoidable_stranded_per_trial, 1),
    e.worst_scenario_id === null ? 'n/a' : `${fixed(e.worst_scenario_score, 1)} (${e.worst_scenario_id})`,
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const numeric = [true, false, true, true, true, true, false];
  const line = (cells: readonly string[]): string => cells.map((cell, c) => pad(cell, widths[c]!, numeric[c])).join('  ').trimEnd();
  const lines = [
    `EMBER leaderboard under EMBER scoring version ${artifact.scoring_version} (${artifact.official ? `official; environment pack ${artifact.pack_id}` : 'UNOFFICIAL'})`,
    line(header),
    ...rows.map(line),
    'Adjacent comparisons (A - B, paired, 95% CI):',
    ...artifact.adjacent.map((c) => {
      const delta = c.delta === null ? 'n/a' : Rational.parse(c.delta).toFixed(1);
      const interval = c.interval === null ? 'no interval' : `[${fixed(c.interval.lower, 1)}, ${fixed(c.interval.upper, 1)}]`;
      return `  ${c.rank_a} ${c.model_a} vs ${c.rank_b} ${c.model_b}: delta ${delta}; ${interval}; ${c.outcome}`;
    }),
    'Order: score to 0.1 point, then Safety, avoidable casualties, avoidable stranded, worst scenario, model ID.',
  ];
  return lines;
}
