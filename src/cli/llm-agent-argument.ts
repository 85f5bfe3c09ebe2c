/**
 * The chat-completions adapter's agent spec from the command line
 * (llm-options.ts has its options). A module of its own, imported by a
 * command only when `--agent builtin:openai-chat` is given: reading and
 * checking --agent-config takes the configuration reader, exact decimals
 * and the inference-configuration digest, modules a run of any other agent
 * would load for nothing (about 10-15 ms of an `episode run` on Node 20).
 */

import { UsageError } from '../core/errors.js';
import { loadAgentConfig } from '../node/agents/openai-chat/config-file.js';
import { createSlots } from '../node/agents/openai-chat/slots.js';
import { DEFAULT_MAX_CONNECTIONS, MAX_CONNECTIONS_LIMIT } from '../node/agents/openai-chat/limits.js';
import type { AgentSpec } from '../node/agents/spec.js';
import type { ParsedArgs } from './command.js';
import { OPENAI_CHAT_SPEC, trialTranscriptDir } from './llm-options.js';

function maxConnectionsArgument(text: string | undefined): number {
  if (text === undefined) return DEFAULT_MAX_CONNECTIONS;
  if (!/^[1-9][0-9]{0,4}$/.test(text) || Number(text) > MAX_CONNECTIONS_LIMIT) {
    throw new UsageError(`--max-connections: must be an integer from 1 to ${MAX_CONNECTIONS_LIMIT}`);
  }
  return Number(text);
}

/**
 * The adapter's agent spec for one output (`resultPath`, trial k of K):
 * --agent-config is read and validated here (exit 3 for a bad file). One
 * shared connection budget serves every trial and every worker thread.
 */
export function llmAgentArgument(args: ParsedArgs, resultPath: string, k = 1, trials = 1, slots?: SharedArrayBuffer, liveUsage?: SharedArrayBuffer): AgentSpec & { kind: 'llm' } {
  const configPath = args.value('agent-config');
  if (configPath === undefined) throw new UsageError(`--agent ${OPENAI_CHAT_SPEC} needs --agent-config FILE`);
  if (args.value('agent-command') !== undefined) throw new UsageError('give exactly one of --agent SPEC or --agent-command "CMD", not both');
  const maxConnections = maxConnectionsArgument(args.value('max-connections'));
  const config = loadAgentConfig(configPath);
  return {
    kind: 'llm',
    options: {
      config,
      maxConnections,
      slots: slots ?? createSlots(maxConnections),
      transcriptDir: trialTranscriptDir(args.value('transcript-dir'), resultPath, k, trials),
      responseCacheDir: args.value('response-cache') ?? null,
      ...(liveUsage === undefined ? {} : { liveUsage }),
    },
  };
}
