/**
 * The rules of repeated trials (scoring-v1.0.md section 12) over the
 * trials' operational records, checked by `score` before it scores:
 *
 * - every trial ran one inference configuration (one digest) of the scored
 *   model; otherwise the trials are refused (ValidationError, exit 3);
 * - an official score (against a pack) refuses a trial whose answers came
 *   partly from a response cache;
 * - a model declared stochastic needs at least 3 trials: fewer is a warning
 *   (the score is still computed; no trial is ever selected or dropped).
 */

import { ValidationError } from '../errors.js';
import type { OperationalRecord } from '../scoring/operational.js';

export const MIN_STOCHASTIC_TRIALS = 3;

export interface TrialRecordsCheck {
  /** The operational records, one per trial in result order (may be empty). */
  readonly records: readonly { readonly record: OperationalRecord; readonly source: string }[];
  readonly trials: number;
  /** The scored model (the results' model ID). */
  readonly modelId: string;
  /** Scored against an environment pack. */
  readonly official: boolean;
  /** The model was declared stochastic (sampled answers). */
  readonly stochastic: boolean;
}

/** Throws for trials that may not be scored together; returns the warnings. */
export function checkTrialRecords(check: TrialRecordsCheck): string[] {
  const { records } = check;
  const first = records[0];
  for (const { record, source } of records) {
    if (record.model_id !== check.modelId) {
      throw new ValidationError(`${source}: the operational record is for model ${JSON.stringify(record.model_id)}, the results for ${JSON.stringify(check.modelId)}`);
    }
    if (record.inference_config_digest !== first!.record.inference_config_digest) {
      throw new ValidationError(
        `${source}: inference configuration ${record.inference_config_digest} differs from ${first!.source}'s ${first!.record.inference_config_digest}: trials of one score must share one inference configuration`,
      );
    }
    if (check.official && record.response_cache_hits !== undefined) {
      throw new ValidationError(`${source}: ${record.response_cache_hits} answers came from a response cache; an official score needs answers the model gave in the run`);
    }
  }
  const warnings: string[] = [];
  if (check.stochastic && check.trials < MIN_STOCHASTIC_TRIALS) {
    warnings.push(`a stochastic model needs at least ${MIN_STOCHASTIC_TRIALS} trials with one inference configuration (scoring-v1.0.md section 12); this score has ${check.trials}`);
  }
  return warnings;
}
