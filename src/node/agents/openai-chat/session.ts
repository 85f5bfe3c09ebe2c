/**
 * Opening `builtin:openai-chat`: the agent session the runner and `episode
 * run` use. The options are plain data (they cross into `--jobs` worker
 * threads); the connection slots are a SharedArrayBuffer, so the cap of
 * calls in flight holds for the whole process. The API key is read here,
 * from the environment variable the configuration names, and kept only in
 * the call policy.
 */

import { setMaxListeners } from 'node:events';
import { UsageError } from '../../../core/errors.js';
import type { AgentConfig } from '../../../core/llm/config.js';
import { NO_USAGE, addUsage, type UsageTotals } from '../../../core/llm/cost.js';
import { systemPrompt } from '../../../core/llm/prompt.js';
import type { AgentFactory } from '../../../core/sim/agent.js';
import { LlmAgent, type LlmContext } from './agent.js';
import { ResponseCache } from './cache.js';
import { closeTransport, openTransport } from './client.js';
import { ConnectionSlots, createSlots } from './slots.js';

export { DEFAULT_MAX_CONNECTIONS, MAX_CONNECTIONS_LIMIT, OPENAI_CHAT_AGENT_ID } from './limits.js';

export interface LlmAgentOptions {
  readonly config: AgentConfig;
  /** Calls in flight at most (and, with --jobs 1, episodes run at once in one thread). */
  readonly maxConnections: number;
  /** The shared budget (createSlots(maxConnections)); made on open when absent. */
  readonly slots?: SharedArrayBuffer;
  /** Where episode transcripts go (episode-<index>.jsonl). */
  readonly transcriptDir: string;
  /** The response cache directory, or null (no cache). */
  readonly responseCacheDir: string | null;
  /** A live usage counter shared by every thread (live-usage.ts createLiveUsage), or absent. */
  readonly liveUsage?: SharedArrayBuffer;
}

/** An open adapter session: an AgentSession plus what the runner and the app read. */
export interface LlmSession {
  readonly factory: AgentFactory;
  /** A factory whose agents write the transcript of manifest episode `index`. */
  factoryFor(index: number): AgentFactory;
  /** Episodes the in-thread runner may keep in flight at once. */
  readonly episodesInFlight: number;
  /** Usage of the episodes finished in this thread so far (a live counter). */
  usage(): UsageTotals;
  close(): Promise<void>;
}

/** The API key from the environment (UsageError when the named variable is unset or empty; the value is never shown). */
export function apiKeyFromEnv(config: AgentConfig): string | null {
  if (config.api_key_env === null) return null;
  const value = process.env[config.api_key_env];
  if (value === undefined || value === '') throw new UsageError(`the agent configuration reads the API key from $${config.api_key_env}, which is not set`);
  return value;
}

export function openLlmSession(options: LlmAgentOptions): LlmSession {
  const { config } = options;
  const apiKey = apiKeyFromEnv(config);
  const slots = new ConnectionSlots(options.slots ?? createSlots(options.maxConnections));
  const transport = openTransport();
  const closing = new AbortController();
  // Every call in flight listens on it: many more than the default 10.
  setMaxListeners(0, closing.signal);
  let total: UsageTotals = NO_USAGE;
  const ctx: LlmContext = {
    config,
    policy: { baseUrl: config.base_url, apiKey, timeoutMs: config.request_timeout_ms, maxRetries: config.max_retries, retryBaseMs: config.retry_base_ms, transport },
    slots,
    cache: options.responseCacheDir === null ? null : new ResponseCache(options.responseCacheDir, config.inference_config_digest),
    transcriptDir: options.transcriptDir,
    liveUsage: options.liveUsage ?? null,
    systemPrompt: systemPrompt(config.inference.system_prompt_version, config.inference.mode, config.inference.planner_interval),
    signal: closing.signal,
    onEpisodeUsage: (usage) => {
      total = addUsage(total, usage);
    },
  };
  return {
    factory: () => new LlmAgent(ctx, null),
    factoryFor: (index) => () => new LlmAgent(ctx, index),
    episodesInFlight: options.maxConnections,
    usage: () => total,
    close: () => {
      closing.abort();
      closeTransport(transport);
      return Promise.resolve();
    },
  };
}
