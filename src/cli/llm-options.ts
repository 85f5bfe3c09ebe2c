/**
 * Command-line options of the chat-completions adapter (`--agent
 * builtin:openai-chat`), shared by `episode run` and `evaluation run`, and
 * the names of the files a run of it writes:
 *
 *   --trials K (evaluation run)  results OUT_STEM.t1.json .. OUT_STEM.tK.json
 *                                when K > 1 (OUT itself when K = 1)
 *   transcripts                  --transcript-dir DIR, else RESULT_STEM.transcripts/
 *                                (per trial with K > 1: DIR/t1, DIR/t2, ...)
 *   operational record           --operational-out FILE, else
 *                                RESULT_STEM.operational.json (with K > 1 and a
 *                                given FILE: FILE_STEM.t1.json, ...)
 *
 * where X_STEM is the path without a final `.json`. The adapter's agent
 * spec itself (reading --agent-config) is llm-agent-argument.ts, imported
 * only when the adapter is asked for.
 */

import { join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { DEFAULT_MAX_CONNECTIONS, MAX_CONNECTIONS_LIMIT, OPENAI_CHAT_AGENT_ID } from '../node/agents/openai-chat/limits.js';
import type { OptionSpec, ParsedArgs } from './command.js';

export const OPENAI_CHAT_SPEC = `builtin:${OPENAI_CHAT_AGENT_ID}`;

/** Options of the adapter on every command that runs episodes. */
export const LLM_AGENT_OPTIONS: readonly OptionSpec[] = [
  { name: 'agent-config', kind: 'value', valueName: 'FILE', description: `the adapter configuration (JSON; with --agent ${OPENAI_CHAT_SPEC} only; see docs/llm.md)` },
  { name: 'max-connections', kind: 'value', valueName: 'N', description: `model calls in flight at most, 1 to ${MAX_CONNECTIONS_LIMIT} (default ${DEFAULT_MAX_CONNECTIONS}); with --jobs 1 also the episodes run at once` },
  { name: 'transcript-dir', kind: 'value', valueName: 'DIR', description: 'where episode transcripts (JSON Lines) go (default: next to the output, OUT_STEM.transcripts)' },
  { name: 'response-cache', kind: 'value', valueName: 'DIR', description: 'reuse answers for the same inference configuration and prompt (off by default; marked in the operational record)' },
];

/** The extra options of `evaluation run`. */
export const LLM_EVALUATION_OPTIONS: readonly OptionSpec[] = [
  { name: 'trials', kind: 'value', valueName: 'K', description: 'run K trials of the manifest, one result each (OUT_STEM.t1.json ...; default 1)' },
  { name: 'operational-out', kind: 'value', valueName: 'FILE', description: `the operational record of a ${OPENAI_CHAT_SPEC}, module or command agent run (default OUT_STEM.operational.json; it states the isolation level and holds wall-clock times, so it differs between two identical runs, unlike the result)` },
];

function stem(path: string): string {
  return path.endsWith('.json') ? path.slice(0, -'.json'.length) : path;
}

/** The result file of trial k (1-based) of K. */
export function trialResultPath(out: string, k: number, trials: number): string {
  return trials === 1 ? out : `${stem(out)}.t${k}.json`;
}

/** The transcript directory of trial k of K for result file `resultPath`. */
export function trialTranscriptDir(given: string | undefined, resultPath: string, k: number, trials: number): string {
  if (given === undefined) return `${stem(resultPath)}.transcripts`;
  return trials === 1 ? given : join(given, `t${k}`);
}

/** The operational record file of trial k of K. */
export function trialOperationalPath(given: string | undefined, resultPath: string, k: number, trials: number): string {
  if (given === undefined) return `${stem(resultPath)}.operational.json`;
  return trials === 1 ? given : `${stem(given)}.t${k}.json`;
}

export function isLlmAgentArgument(args: ParsedArgs): boolean {
  return args.value('agent') === OPENAI_CHAT_SPEC;
}

/** UsageError when an adapter option is given without the adapter (`except`: options the caller checks itself). */
export function rejectLlmOptions(args: ParsedArgs, except: readonly string[] = []): void {
  for (const option of [...LLM_AGENT_OPTIONS, ...LLM_EVALUATION_OPTIONS]) {
    if (option.name === 'trials' || except.includes(option.name)) continue;
    if (args.value(option.name) !== undefined) throw new UsageError(`--${option.name} applies only to --agent ${OPENAI_CHAT_SPEC}`);
  }
}

/** --trials K: 1 .. 1000 (default 1). */
export function trialsArgument(text: string | undefined): number {
  if (text === undefined) return 1;
  if (!/^[1-9][0-9]{0,3}$/.test(text) || Number(text) > 1000) throw new UsageError('--trials: must be an integer from 1 to 1000');
  return Number(text);
}

