/**
 * One board of the Leaderboard view from the trials on it: their order and
 * each adjacent pair's paired outcome (core's buildLeaderboard, as
 * `emberbench leaderboard` computes them) with each trial's interval,
 * isolation and signers. The Leaderboard and the Models view's comparison
 * of several models both build their boards here.
 */

import type { ReportView } from '../../core/scoring/compare.js';
import { buildLeaderboard } from '../../core/scoring/leaderboard.js';
import type { LeaderboardGroup, SignerView } from '../../shared/api/contract.js';
import { trialRowOf, type TrialDbRow } from '../archive/queries.js';
import { roundedScore } from '../archive/trials-store.js';
import type { ScoreReport } from '../../core/scoring/report-types.js';

export interface BoardHead {
  readonly target: string;
  readonly official: boolean;
  readonly manifestHash: string;
}

/**
 * One model on a board: its trial, or the scored trials of its series of K
 * (oldest first) with their combined report (the mean over the trials).
 */
export interface BoardEntry {
  readonly rows: readonly TrialDbRow[];
  readonly view: ReportView;
  readonly report: ScoreReport;
}

function intervalOf(entry: BoardEntry): { intervalLow: string | null; intervalHigh: string | null } {
  return { intervalLow: entry.report.interval?.lower ?? null, intervalHigh: entry.report.interval?.upper ?? null };
}

/** The trial a row stands for: the latest of its entry. */
function latest(entry: BoardEntry): TrialDbRow {
  return entry.rows[entry.rows.length - 1]!;
}

/** One entry per model. */
export function leaderboardGroup(head: BoardHead, entries: readonly BoardEntry[], resamples: number, signersOf: (trialId: number) => SignerView[]): LeaderboardGroup {
  const trialIds = (entry: BoardEntry): number[] => entry.rows.map((r) => r.trial_id);
  if (entries.length < 2) {
    const entry = entries[0]!;
    const row = latest(entry);
    const score = entry.report.score;
    return { ...head, board: null, rows: [{ rank: 1, modelId: row.model_id, trialIds: trialIds(entry), score, scoreRounded: roundedScore(score), ...intervalOf(entry), vsNext: null, isolation: trialRowOf(row).isolation, signers: signersOf(row.trial_id) }] };
  }
  const board = buildLeaderboard(entries.map((e) => e.view), resamples, entries.map((e) => trialIds(e).map((id) => `trial ${id}`).join('+')));
  return {
    ...head,
    board,
    rows: board.entries.map((e) => {
      const entry = entries.find((x) => x.rows[0]!.model_id === e.model_id)!;
      const row = latest(entry);
      return {
        rank: e.rank,
        modelId: e.model_id,
        trialIds: trialIds(entry),
        score: e.score,
        scoreRounded: e.score_display,
        ...intervalOf(entry),
        vsNext: board.adjacent.find((c) => c.rank_a === e.rank)?.outcome ?? null,
        isolation: trialRowOf(row).isolation,
        signers: signersOf(row.trial_id),
      };
    }),
  };
}
