/**
 * The report's tallies over the episode-trials with an authenticated
 * applicable result (scored or catastrophic; see report.ts): people totals,
 * the zero-score causes and severe counts, and the congestion diagnostics.
 * Plain sums and exact fractions of the evidence.
 */

import { Rational } from '../stats/rational.js';
import { EPISODE_FAILURE_KINDS, QUALITY_COMPONENTS, type EpisodeEvidence, type EpisodeFailureKind, type EpisodeTrialEvidence, type QualityComponentName } from './evidence.js';
import type { CongestionDiagnostics, PeopleTotals, PeopleTotalsPerTrial, ScoreReport } from './report-types.js';

/** Trials with an authenticated applicable result: the population of totals, severe counts and diagnostics. */
function authenticatedApplicable(episodes: readonly EpisodeEvidence[]): EpisodeTrialEvidence[] {
  return episodes.filter((e) => e.applicable).flatMap((e) => e.trials.filter((t) => t.status === 'scored' || t.status === 'catastrophic'));
}

/** One value per people total, in the report's key order. */
function perPeopleKey<T>(value: (key: keyof PeopleTotals) => T): { readonly [K in keyof PeopleTotals]: T } {
  return {
    escapable: value('escapable'),
    evacuated: value('evacuated'),
    avoidable_casualties: value('avoidable_casualties'),
    avoidable_stranded: value('avoidable_stranded'),
    unavoidable_losses: value('unavoidable_losses'),
  };
}

const ZERO_TOTALS: PeopleTotals = { escapable: 0, evacuated: 0, avoidable_casualties: 0, avoidable_stranded: 0, unavoidable_losses: 0 };

function plus(a: PeopleTotals, b: PeopleTotals): PeopleTotals {
  return perPeopleKey((k) => a[k] + b[k]);
}

function peopleOf(t: EpisodeTrialEvidence): PeopleTotals {
  const p = t.people!;
  return {
    escapable: t.references!.max_evacuated,
    evacuated: p.evacuated,
    avoidable_casualties: p.avoidable_casualties,
    avoidable_stranded: p.avoidable_stranded,
    unavoidable_losses: p.unavoidable_casualty_ids.length + p.unavoidable_stranded_ids.length,
  };
}

export function totalsOf(episodes: readonly EpisodeEvidence[], trials: number): ScoreReport['totals'] {
  const byTrial = Array.from({ length: trials }, () => ZERO_TOTALS);
  for (const t of authenticatedApplicable(episodes)) byTrial[t.trial] = plus(byTrial[t.trial]!, peopleOf(t));
  const all = byTrial.reduce(plus, ZERO_TOTALS);
  const perTrial: PeopleTotalsPerTrial = perPeopleKey((k) => Rational.of(all[k], trials).toFraction());
  return { all, per_trial: perTrial, by_trial: byTrial };
}

export function congestionOf(episodes: readonly EpisodeEvidence[], trials: number): CongestionDiagnostics {
  let attempted = 0;
  let blocked = 0;
  let contested = 0;
  let hotspots = 0;
  let peak = 0;
  let evacuations = 0;
  let windows = 0;
  for (const t of authenticatedApplicable(episodes)) {
    const c = t.congestion!;
    attempted += c.moves_attempted;
    blocked += c.blocked_moves;
    contested += c.contested_cell_steps;
    hotspots += c.hotspot_cells;
    peak = Math.max(peak, c.peak_contested_cells);
    evacuations += c.exit_evacuations;
    windows += c.exit_window_steps;
  }
  return {
    moves_attempted: attempted,
    blocked_moves: blocked,
    block_rate: attempted === 0 ? null : Rational.of(blocked, attempted).toFraction(),
    contested_cell_steps: contested,
    contested_cell_steps_per_trial: Rational.of(contested, trials).toFraction(),
    hotspot_cells: hotspots,
    hotspot_cells_per_trial: Rational.of(hotspots, trials).toFraction(),
    peak_contested_cells: peak,
    exit_throughput: windows === 0 ? null : Rational.of(evacuations, windows).toFraction(),
  };
}

export function countsOf(episodes: readonly EpisodeEvidence[]): Pick<ScoreReport, 'episode_trials' | 'zero_score' | 'robustness'> {
  const all = episodes.flatMap((e) => e.trials);
  const applicable = episodes.filter((e) => e.applicable).flatMap((e) => e.trials);
  const status = (s: EpisodeTrialEvidence['status']) => applicable.filter((t) => t.status === s).length;
  const failures = Object.fromEntries(
    EPISODE_FAILURE_KINDS.map((kind) => [kind, applicable.filter((t) => t.status === 'failed' && t.failure!.kind === kind).length]),
  ) as { [K in EpisodeFailureKind]: number };
  const catastrophic = status('catastrophic');
  const failed = status('failed');
  const severe = Object.fromEntries(
    QUALITY_COMPONENTS.map((k) => [k, authenticatedApplicable(episodes).filter((t) => t.breakdown!.severe.includes(k)).length]),
  ) as { [K in QualityComponentName]: number };
  return {
    episode_trials: {
      total: all.length,
      applicable: applicable.length,
      not_applicable: all.length - applicable.length,
      scored: status('scored'),
      catastrophic,
      failed,
    },
    zero_score: { catastrophic, ...failures, total: catastrophic + failed },
    robustness: { severe_episode_trials: severe },
  };
}
