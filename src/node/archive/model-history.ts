/**
 * The Models view's queries: the models of the archive and one model's
 * scored trials in time order. Read-only, over the trials table's columns
 * (the score and interval the trial row keeps from its score report).
 */

import type { ModelHistoryPoint, ModelSummary } from '../../shared/api/contract.js';
import { statement, type Archive } from './archive.js';

/** Every model with a trial, in model ID order, with its trial counts. */
export function listModels(archive: Archive): ModelSummary[] {
  return statement<{ model_id: string; trials: number; scored: number; latest: string }>(
    archive,
    `SELECT model_id, COUNT(*) AS trials, SUM(score IS NOT NULL) AS scored, MAX(created) AS latest FROM trials GROUP BY model_id ORDER BY model_id`,
  )
    .all()
    .map((r) => ({ modelId: r.model_id, trials: r.trials, scored: r.scored, latest: r.latest }));
}

/** The scored trials of one model, oldest first (creation time, then trial ID for trials made in the same instant). */
export function modelHistory(archive: Archive, modelId: string): ModelHistoryPoint[] {
  return statement<{
    trial_id: number;
    created: string;
    official: number;
    pack_id: string | null;
    suite_id: string;
    manifest_hash: string;
    score: string;
    score_rounded: string | null;
    interval_low: string | null;
    interval_high: string | null;
  }>(
    archive,
    `SELECT trial_id, created, official, pack_id, suite_id, manifest_hash, score, score_rounded, interval_low, interval_high
       FROM trials WHERE model_id = ? AND score IS NOT NULL ORDER BY created, trial_id`,
  )
    .all(modelId)
    .map((r) => ({
      trialId: r.trial_id,
      created: r.created,
      official: r.official === 1,
      target: r.official === 1 && r.pack_id !== null ? r.pack_id : r.suite_id,
      manifestHash: r.manifest_hash,
      score: r.score,
      scoreRounded: r.score_rounded,
      intervalLow: r.interval_low,
      intervalHigh: r.interval_high,
    }));
}
