/**
 * The operational record of one trial of `builtin:openai-chat`
 * (scoring-v1.0.md section 11), built from the transcripts of the episodes
 * the trial's result holds (committed and declared failed). Building it from
 * the transcripts, not from counters in memory, makes it the same whether
 * the episodes ran in one thread or in `--jobs` workers, and after a
 * `--resume` it still covers the episodes of earlier runs.
 *
 *   latency_seconds   sum over the trial's model calls of the evaluator-
 *                     measured request-to-response wall time of every
 *                     attempt (backoff and waits for a connection slot
 *                     excluded)
 *   input/output      the endpoint's usage fields, summed per kind
 *   cost              exact, from the pricing table; null without a pricing
 *                     table or when some answer had no usage fields
 *   response_cache_hits  present when answers came from the response cache
 *   cut               present when some episode runs were cut and ran
 *                     again: their calls, tokens and cost, apart (cut/)
 *   isolation         `in_process`: the adapter is the evaluator's own code
 *                     (the model runs behind its endpoint, never here)
 */

import { ValidationError } from '../../../core/errors.js';
import type { AgentConfig } from '../../../core/llm/config.js';
import { NO_USAGE, addUsage, costOf, millisecondsAsSeconds, type UsageTotals } from '../../../core/llm/cost.js';
import { buildOperationalRecord, type OperationalRecord } from '../../../core/scoring/operational.js';
import { readCutTranscripts, readTranscript, type ReadTranscript } from './transcript.js';

export interface TrialRecordInput {
  readonly modelId: string;
  readonly config: AgentConfig;
  readonly transcriptDir: string;
  /** Manifest indices of the result's committed episodes and declared failures. */
  readonly indices: readonly number[];
}

/** The summed usage of a trial's episode transcripts (ValidationError for a missing or damaged transcript, or one of another configuration). */
export async function trialUsage(config: AgentConfig, transcriptDir: string, indices: readonly number[]): Promise<UsageTotals> {
  const transcripts: ReadTranscript[] = [];
  for (const index of indices) transcripts.push(await readTranscript(transcriptDir, index));
  return usageOf(config, transcriptDir, transcripts);
}

function usageOf(config: AgentConfig, transcriptDir: string, transcripts: readonly ReadTranscript[]): UsageTotals {
  let total = NO_USAGE;
  for (const t of transcripts) {
    if (t.header.inference_config_digest !== config.inference_config_digest) {
      throw new ValidationError(`transcript of episode ${t.header.episode} in ${transcriptDir} was made with inference configuration ${t.header.inference_config_digest}, not ${config.inference_config_digest}`);
    }
    const s = t.summary;
    total = addUsage(total, {
      calls: s.calls,
      inputTokens: s.input_tokens,
      outputTokens: s.output_tokens,
      retries: s.retries,
      timeouts: s.timeouts,
      latencyMs: s.latency_ms,
      cacheHits: s.cache_hits,
      unmetered: s.unmetered,
    });
  }
  return total;
}

/** The trial's operational record, or null when the result holds no episode yet. */
export async function trialOperationalRecord(input: TrialRecordInput): Promise<OperationalRecord | null> {
  if (input.indices.length === 0) return null;
  const { config } = input;
  const usage = await trialUsage(config, input.transcriptDir, input.indices);
  const cutRuns = await readCutTranscripts(input.transcriptDir);
  const cut = usageOf(config, input.transcriptDir, cutRuns);
  const pricing = config.pricing;
  const costKnown = pricing !== null && usage.unmetered === 0;
  return buildOperationalRecord({
    modelId: input.modelId,
    providerId: config.provider_id,
    inferenceConfigDigest: config.inference_config_digest,
    trials: 1,
    episodes: input.indices.length,
    latencySeconds: millisecondsAsSeconds(usage.latencyMs),
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cost: !costKnown ? null : { amount: costOf(pricing, usage.inputTokens, usage.outputTokens), unit: pricing.cost_unit },
    retries: usage.retries,
    timeouts: usage.timeouts,
    responseCacheHits: usage.cacheHits,
    isolation: 'in_process',
    ...(cutRuns.length === 0
      ? {}
      : {
          cut: {
            episodes: cutRuns.length,
            calls: cut.calls,
            inputTokens: cut.inputTokens,
            outputTokens: cut.outputTokens,
            cost: !costKnown || cut.unmetered > 0 ? null : costOf(pricing, cut.inputTokens, cut.outputTokens),
          },
        }),
  });
}
