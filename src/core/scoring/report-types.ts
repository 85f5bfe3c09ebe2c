/**
 * The shape of a score report (aggregated in report.ts). Apart from
 * report.ts so that the tallies (report-tallies.ts), which report.ts calls,
 * can name it without importing report.ts back.
 */

import type { ComponentName, EpisodeEvidence, EpisodeFailureKind, QualityComponentName } from './evidence.js';

/** What the score is computed against: a bare suite (unofficial) or an environment pack. */
export type TargetEvidence = { readonly kind: 'suite' } | { readonly kind: 'pack'; readonly pack_id: string; readonly pack_digest: string };

export interface TrialEvidence {
  readonly trial: number;
  /** fileDigest of the evaluation result of this trial. */
  readonly result_digest: string;
  readonly committed_episodes: number;
  /** Declared failures (the result's and the --failures file's, merged). */
  readonly declared_failures: number;
  /** Scheduled episodes with neither a result nor a declaration. */
  readonly missing_episodes: number;
}

/** The part of a report that the aggregation does not compute: identity and inputs. */
export interface ScoreReportHeader {
  readonly constants_digest: string;
  readonly manifest_hash: string;
  readonly model_id: string;
  readonly resamples: number;
  readonly scoring_version: string;
  readonly statistics_version: string;
  readonly suite: { readonly suite_hash: string; readonly suite_id: string; readonly suite_version: string };
  readonly target: TargetEvidence;
  readonly trials: readonly TrialEvidence[];
}

export interface Coverage {
  /** The hierarchy mean over the episode-trials where defined; null when none is. */
  readonly mean: string | null;
  readonly defined: number;
  readonly total: number;
}

export interface PeopleTotals {
  readonly escapable: number;
  readonly evacuated: number;
  readonly avoidable_casualties: number;
  readonly avoidable_stranded: number;
  readonly unavoidable_losses: number;
}

export type PeopleTotalsPerTrial = { readonly [K in keyof PeopleTotals]: string };

export interface ScoreReport extends ScoreReportHeader {
  /** True only against an environment pack whose manifest is the results' manifest. */
  readonly official: boolean;
  /** The EMBER Score: the family-balanced mean ("num/den"); null when no episode is applicable. */
  readonly score: string | null;
  /** The 95% interval; null with fewer than 5 applicable episodes. `seed` is the hex seed32 of the bootstrap stream. */
  readonly interval: { readonly lower: string; readonly upper: string; readonly seed: string } | null;
  readonly means: { readonly family_balanced: string | null; readonly scenario_balanced: string | null; readonly micro: string | null };
  readonly safety: Coverage;
  readonly quality: Coverage;
  readonly components: { readonly [K in ComponentName]: Coverage };
  /** In the order of first appearance in the manifest. */
  readonly families: readonly { readonly family: string; readonly score: string; readonly scenarios: number }[];
  readonly scenarios: readonly { readonly scenario_id: string; readonly primary_family: string; readonly score: string; readonly applicable_episodes: number }[];
  readonly tail: {
    readonly median_scenario: string | null;
    readonly worst_scenario: { readonly scenario_id: string; readonly score: string } | null;
    readonly p10_episode: string | null;
    readonly cvar10: string | null;
    /** ceil(n / 10): how many of the lowest episode scores CVaR10 averages. */
    readonly cvar10_episodes: number;
  };
  readonly episode_trials: {
    readonly total: number;
    readonly applicable: number;
    readonly not_applicable: number;
    readonly scored: number;
    readonly catastrophic: number;
    readonly failed: number;
  };
  /** Applicable episode-trials that score 0 by their status: catastrophic and each failure kind. */
  readonly zero_score: { readonly [K in 'catastrophic' | EpisodeFailureKind | 'total']: number };
  readonly robustness: { readonly severe_episode_trials: { readonly [K in QualityComponentName]: number } };
  readonly totals: { readonly all: PeopleTotals; readonly per_trial: PeopleTotalsPerTrial; readonly by_trial: readonly PeopleTotals[] };
  readonly diagnostics: { readonly congestion: CongestionDiagnostics };
  readonly episodes: readonly EpisodeEvidence[];
}

/** Pooled over the authenticated applicable episode-trials; never a score input. */
export interface CongestionDiagnostics {
  readonly moves_attempted: number;
  readonly blocked_moves: number;
  /** blocked / attempted; null when no move was attempted. */
  readonly block_rate: string | null;
  readonly contested_cell_steps: number;
  readonly contested_cell_steps_per_trial: string;
  readonly hotspot_cells: number;
  readonly hotspot_cells_per_trial: string;
  /** The largest number of contested cells in one step of any episode-trial. */
  readonly peak_contested_cells: number;
  /** Evacuations per exit-step inside the exits' windows, pooled; null without an evacuation. */
  readonly exit_throughput: string | null;
}
