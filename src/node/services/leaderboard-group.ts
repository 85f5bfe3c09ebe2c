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

export interface BoardHead {
  readonly target: string;
  readonly official: boolean;
  readonly manifestHash: string;
}

/** `entries[i]`'s score report is `views[i]`; one entry per model. */
export function leaderboardGroup(head: BoardHead, entries: readonly TrialDbRow[], views: readonly ReportView[], resamples: number, signersOf: (trialId: number) => SignerView[]): LeaderboardGroup {
  if (entries.length < 2) {
    const row = entries[0]!;
    return { ...head, board: null, rows: [{ rank: 1, modelId: row.model_id, trialIds: [row.trial_id], score: row.score, scoreRounded: row.score_rounded, intervalLow: row.interval_low, intervalHigh: row.interval_high, vsNext: null, isolation: trialRowOf(row).isolation, signers: signersOf(row.trial_id) }] };
  }
  const board = buildLeaderboard(views, resamples, entries.map((r) => `trial ${r.trial_id}`));
  return {
    ...head,
    board,
    rows: board.entries.map((e) => {
      const row = entries.find((r) => r.model_id === e.model_id)!;
      return {
        rank: e.rank,
        modelId: e.model_id,
        trialIds: [row.trial_id],
        score: e.score,
        scoreRounded: e.score_display,
        intervalLow: row.interval_low,
        intervalHigh: row.interval_high,
        vsNext: board.adjacent.find((c) => c.rank_a === e.rank)?.outcome ?? null,
        isolation: trialRowOf(row).isolation,
        signers: signersOf(row.trial_id),
      };
    }),
  };
}
