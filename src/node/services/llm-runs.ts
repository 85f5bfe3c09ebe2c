/**
 * Language-model runs from the app (`builtin:openai-chat`, docs/llm.md "In
 * the app"): the Run view's agent choice `{kind: 'openai-chat', config,
 * maxConnections}` checked exactly like an `--agent-config` file, the
 * adapter's spec per trial, the live token and cost counter of
 * `run.progress`, the operational record stored when a trial's run ends,
 * and the transcripts `episodes.transcript` reads.
 *
 * Transcripts live in the archive's folder beside the file:
 * `<archive>.cache/transcripts/trial-<id>/episode-<index>.jsonl` (the
 * adapter writes them there as each episode ends, docs/archive.md). The
 * operational record is built from them (so a resumed trial's record covers
 * the earlier runs' episodes too) and stored as an `operational` artifact
 * named by the trial's operational_digest.
 *
 * The API key: the configuration names an environment variable of the
 * services process; its value is read by the adapter when a run opens and
 * lives only in the call policy in memory. It is never in the archive (the
 * run configuration holds the variable's name), an event, an answer or a
 * transcript.
 */

import { EmberError, fieldError, isEmberError, UsageError } from '../../core/errors.js';
import type { JsonValue } from '../../core/json/canonical.js';
import { readAgentConfig, type AgentConfig } from '../../core/llm/config.js';
import { costText } from '../../core/llm/cost.js';
import { Rational } from '../../core/stats/rational.js';
import type { AgentChoice, RunProgressEvent, RunTotals, TranscriptLine } from '../../shared/api/contract.js';
import { liveCost, readLiveUsage } from '../agents/openai-chat/live-usage.js';
import { apiKeyFromEnv } from '../agents/openai-chat/session.js';
import { createSlots } from '../agents/openai-chat/slots.js';
import { readTranscript } from '../agents/openai-chat/transcript.js';
import type { AgentSpec } from '../agents/spec.js';
import type { Archive } from '../archive/archive.js';
import { trialTranscriptDir } from '../jobs/delete-trial.js';
import { ServiceError } from './dispatch.js';

export type LlmChoice = Extract<AgentChoice, { kind: 'openai-chat' }>;

const SOURCE = 'agent.config';

/**
 * The adapter configuration of a Run view choice: readAgentConfig's checks
 * (those of an --agent-config file), errors naming `agent.config.<field>`;
 * and the API key's variable must be set in this process.
 */
export function llmConfigOf(choice: LlmChoice): AgentConfig {
  let config: AgentConfig;
  try {
    config = readAgentConfig(choice.config as JsonValue, SOURCE);
  } catch (error) {
    if (!isEmberError(error)) throw error;
    // FieldReader messages read "agent.config: PATH: problem"; PATH "$" is the object itself.
    const m = /^agent\.config: (\S+): ([\s\S]*)$/.exec(error.message);
    if (m === null) throw new EmberError('validation', error.message, { field: SOURCE });
    const path = m[1] ?? '$';
    const problem = m[2] ?? '';
    const key = path === '$' ? /^(?:missing|unknown) field "([A-Za-z_]+)"$/.exec(problem)?.[1] : path;
    const field = key === undefined ? SOURCE : `${SOURCE}.${key}`;
    throw new EmberError('validation', `${field}: ${problem}`, { field });
  }
  try {
    apiKeyFromEnv(config);
  } catch (error) {
    if (error instanceof UsageError) throw fieldError(`${SOURCE}.api_key_env`, `${error.message} in the workbench's services process (set it before starting the app or \`emberbench serve\`)`);
    throw error;
  }
  return config;
}

/** Where the adapter writes trial `trialId`'s transcripts. */
export function transcriptDirOf(archive: Archive, trialId: number): string {
  return trialTranscriptDir(archive, trialId);
}

/** The live counter of one launch of a trial: read for run.progress `usage`. */
export interface LiveCounter {
  readonly buffer: SharedArrayBuffer;
  readonly config: AgentConfig;
}

/** The adapter's spec for one launch of a trial (a fresh connection budget shared by its worker threads). */
export function llmSpecOf(archive: Archive, choice: LlmChoice, trialId: number, live: SharedArrayBuffer): { spec: AgentSpec; config: AgentConfig } {
  const config = llmConfigOf(choice);
  return {
    config,
    spec: {
      kind: 'llm',
      options: {
        config,
        maxConnections: choice.maxConnections,
        slots: createSlots(choice.maxConnections),
        transcriptDir: transcriptDirOf(archive, trialId),
        // The response cache is never used from the app: app runs may be official.
        responseCacheDir: null,
        liveUsage: live,
      },
    },
  };
}

/** An exact cost as a decimal string (costText: the one rule for showing a cost). */
export const decimalOf = costText;

/** The `usage` of a progress event from the live counter. */
export function liveUsageOf(counter: LiveCounter): NonNullable<RunProgressEvent['usage']> {
  const usage = readLiveUsage(counter.buffer);
  const pricing = counter.config.pricing;
  const cost = pricing === null ? null : liveCost(counter.buffer, pricing);
  return {
    calls: usage.calls,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cost: cost === null ? null : decimalOf(cost),
    costUnit: pricing === null ? null : pricing.cost_unit,
  };
}

/** A series' totals plus one trial's episodes and usage (costs added exactly; unknown stays unknown). */
export function addRunTotals(before: RunTotals, episodes: number, usage: RunProgressEvent['usage']): RunTotals {
  if (usage === undefined) return { ...before, episodes: before.episodes + episodes };
  const cost = before.cost === null || usage.cost === null ? null : decimalOf(Rational.parse(before.cost).add(Rational.parse(usage.cost)));
  return {
    episodes: before.episodes + episodes,
    calls: before.calls + usage.calls,
    inputTokens: before.inputTokens + usage.inputTokens,
    outputTokens: before.outputTokens + usage.outputTokens,
    cost,
  };
}

/** The transcript of episode `index` of a language-model trial, as the Trial and Replay views show it. */
export async function transcriptLines(archive: Archive, trialId: number, index: number): Promise<TranscriptLine[]> {
  let transcript;
  try {
    transcript = await readTranscript(transcriptDirOf(archive, trialId), index);
  } catch (error) {
    if (isEmberError(error)) throw new ServiceError('not_found', `index: trial ${trialId} has no transcript of episode ${index} (${error.message})`, 'index');
    throw error;
  }
  return transcript.calls.map((c) => ({
    step: c.step,
    prompt: c.prompt,
    answer: c.answer,
    outcome: c.error === null ? c.status : `${c.status}: ${c.error}`,
    latencyMs: c.latency_ms,
    inputTokens: c.input_tokens,
    outputTokens: c.output_tokens,
    attempts: c.attempts,
    retries: c.retries,
  }));
}
