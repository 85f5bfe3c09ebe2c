/** Option specs and value checks shared by several commands. Every bad value is a UsageError (exit 2). */

import { statSync } from 'node:fs';
import { UsageError, isEmberError } from '../core/errors.js';
import { parseSeed } from '../core/world/seed.js';
import { DEFAULT_ACT_TIMEOUT_MS, MAX_ACT_TIMEOUT_MS } from '../node/agents/open-agent.js';
import { parseAgentCommand, parseAgentSpec, type AgentSpec } from '../node/agents/spec.js';
import type { OptionSpec, ParsedArgs } from './command.js';
import { positiveIntegerArgument } from './integer-argument.js';

export const OUT_OPTION: OptionSpec = {
  name: 'out',
  kind: 'value',
  required: true,
  valueName: 'FILE',
  description: 'the output file; its directory must exist, an existing file is not replaced without --force',
};

export const FORCE_OPTION: OptionSpec = {
  name: 'force',
  kind: 'flag',
  description: 'replace an existing output file (never an input file or a directory)',
};

export const AGENT_OPTION: OptionSpec = {
  name: 'agent',
  kind: 'value',
  required: true,
  valueName: 'SPEC',
  description: "the agent: 'builtin:ID' for a baseline, 'builtin:openai-chat' for a language model (with --agent-config), or 'MODULE:FACTORY' resolved only in --agent-path directories",
};

/** The agent options of a command that runs episodes: exactly one of --agent or --agent-command. */
export const AGENT_CHOICE_OPTIONS: readonly OptionSpec[] = [
  { ...AGENT_OPTION, required: false, description: `${AGENT_OPTION.description} (give this or --agent-command)` },
  { name: 'agent-command', kind: 'value', valueName: 'CMD', description: 'a program on the line protocol, spawned per episode without a shell (give this or --agent)' },
];

/** Exactly one of --agent SPEC or --agent-command "CMD" (usage error otherwise). */
export function agentArgument(args: ParsedArgs): AgentSpec {
  const agent = args.value('agent');
  const command = args.value('agent-command');
  if (agent !== undefined && command !== undefined) throw new UsageError('give exactly one of --agent SPEC or --agent-command "CMD", not both');
  if (agent !== undefined) return parseAgentSpec(agent);
  if (command !== undefined) return parseAgentCommand(command);
  throw new UsageError('missing required option: --agent SPEC (or --agent-command "CMD")');
}

/** The agent module's file, an input too (src/node/agents/spec.ts). */
export { agentModuleInputs } from '../node/agents/spec.js';

/** --agent-network, --agent-env, --agent-memory, --agent-cpu-seconds, --require-isolation. */
export { AGENT_SANDBOX_OPTIONS, agentSandboxArguments } from './agent-sandbox-options.js';

export const AGENT_PATH_OPTION: OptionSpec = {
  name: 'agent-path',
  kind: 'repeatable',
  valueName: 'DIR',
  description: 'a directory to resolve a MODULE:FACTORY agent in, searched in the order given (never the current directory)',
};

export const ACT_TIMEOUT_OPTION: OptionSpec = {
  name: 'act-timeout-ms',
  kind: 'value',
  valueName: 'N',
  description: `deadline of one act (and one factory call) of a module agent, in milliseconds (1 to ${MAX_ACT_TIMEOUT_MS}; default ${DEFAULT_ACT_TIMEOUT_MS})`,
};

/** A --seed value: a decimal integer in [0, 2^64 - 1]. The value is never echoed. */
export function seedArgument(text: string, option = '--seed'): string {
  // Named apart from the general rule: `--seed -1` is a negative number, not a missing value.
  if (/^-[0-9]/.test(text)) {
    throw new UsageError(`${option}: a negative value is out of range: must be a decimal string in [0, 2^64 - 1] (digits only, no sign, spaces or leading zeros)`);
  }
  try {
    return parseSeed(text, option);
  } catch (error) {
    if (isEmberError(error)) throw new UsageError(error.message);
    throw error;
  }
}

/** --act-timeout-ms: a canonical decimal integer in [1, MAX_ACT_TIMEOUT_MS]. */
export function actTimeoutArgument(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  return positiveIntegerArgument('--act-timeout-ms', text, MAX_ACT_TIMEOUT_MS);
}

/**
 * --agent-path directories: each must exist and be a directory (a usage
 * error otherwise). Order is kept: it is the search order.
 */
export function agentPathArguments(dirs: readonly string[]): readonly string[] {
  for (const dir of dirs) {
    let isDirectory = false;
    try {
      isDirectory = statSync(dir).isDirectory();
    } catch {
      throw new UsageError(`--agent-path: directory does not exist: ${dir}`);
    }
    if (!isDirectory) throw new UsageError(`--agent-path: not a directory: ${dir}`);
  }
  return dirs;
}
