/**
 * The sandbox options of the commands that run agents (`episode run`,
 * `evaluation run`): parsed here and nowhere else, into the plain
 * AgentSandboxOptions the agent hosts take (src/node/agents/sandbox.ts).
 * Every bad value is a UsageError (exit 2).
 */

import { UsageError } from '../core/errors.js';
import { checkIsolation } from '../node/agents/sandbox.js';
import {
  DEFAULT_AGENT_MAX_PROCESSES,
  DEFAULT_AGENT_MEMORY_BYTES,
  MAX_AGENT_MAX_PROCESSES,
  MIN_AGENT_MAX_PROCESSES,
  ENV_NAME,
  MAX_AGENT_CPU_SECONDS,
  MIN_AGENT_MEMORY_BYTES,
  describeMemory,
  type AgentSandboxOptions,
} from '../node/agents/sandbox-options.js';
import type { AgentSpec } from '../node/agents/spec.js';
import type { OptionSpec, ParsedArgs } from './command.js';

export const AGENT_SANDBOX_OPTIONS: readonly OptionSpec[] = [
  { name: 'agent-network', kind: 'flag', description: 'let a module or command agent use the network (default: no network in its sandbox)' },
  {
    name: 'agent-env',
    kind: 'repeatable',
    valueName: 'NAME',
    description: 'also pass this environment variable to a module or command agent (default: only PATH, LANG, LANGUAGE, LC_*, TZ, TERM)',
  },
  {
    name: 'agent-memory',
    kind: 'value',
    valueName: 'SIZE',
    description: `memory cap of the agent's whole process tree per episode (its in-memory /tmp and /dev/shm included), in bytes or with K, M, G, T (binary) such as 512M (default ${describeMemory(DEFAULT_AGENT_MEMORY_BYTES).replace(' GiB', 'G')})`,
  },
  {
    name: 'agent-cpu-seconds',
    kind: 'value',
    valueName: 'N',
    description: `CPU-time cap of the agent's whole process tree per episode, 1 to ${MAX_AGENT_CPU_SECONDS} seconds (default: none; the act deadline still applies)`,
  },
  {
    name: 'agent-max-processes',
    kind: 'value',
    valueName: 'N',
    description: `most processes and threads the agent's process tree may have at once, ${MIN_AGENT_MAX_PROCESSES} to ${MAX_AGENT_MAX_PROCESSES} (default ${DEFAULT_AGENT_MAX_PROCESSES})`,
  },
  { name: 'require-isolation', kind: 'flag', description: 'refuse to run a module or command agent without the bubblewrap sandbox (exit 4)' },
];

const UNITS: Readonly<Record<string, number>> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 };
/** The largest memory cap accepted: 1 TiB. */
const MAX_AGENT_MEMORY_BYTES = 1024 ** 4;

/** --agent-memory SIZE: `536870912`, `512M`, `512MiB`, `4G`, `4GiB` (binary units). */
export function memoryArgument(text: string): number {
  const match = /^([1-9][0-9]{0,15})(?:([KMGT])(?:i?B)?)?$/i.exec(text);
  const bytes = match === null ? NaN : Number(match[1]) * UNITS[(match[2] ?? '').toUpperCase()]!;
  if (!Number.isSafeInteger(bytes) || bytes < MIN_AGENT_MEMORY_BYTES || bytes > MAX_AGENT_MEMORY_BYTES) {
    throw new UsageError(`--agent-memory: must be a size from 64M to 1T, in bytes or with K, M, G or T (such as 512M or 4G), not "${text}"`);
  }
  return bytes;
}

/** --agent-cpu-seconds N: an integer number of seconds in [1, MAX_AGENT_CPU_SECONDS]. */
export function cpuSecondsArgument(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[1-9][0-9]{0,5}$/.test(text) || Number(text) > MAX_AGENT_CPU_SECONDS) {
    throw new UsageError(`--agent-cpu-seconds: must be an integer in [1, ${MAX_AGENT_CPU_SECONDS}], not "${text}"`);
  }
  return Number(text);
}

/** --agent-max-processes N: an integer in [MIN_AGENT_MAX_PROCESSES, MAX_AGENT_MAX_PROCESSES]. */
export function maxProcessesArgument(text: string | undefined): number {
  if (text === undefined) return DEFAULT_AGENT_MAX_PROCESSES;
  if (!/^[1-9][0-9]{0,5}$/.test(text) || Number(text) < MIN_AGENT_MAX_PROCESSES || Number(text) > MAX_AGENT_MAX_PROCESSES) {
    throw new UsageError(`--agent-max-processes: must be an integer in [${MIN_AGENT_MAX_PROCESSES}, ${MAX_AGENT_MAX_PROCESSES}] (processes and threads together), not "${text}"`);
  }
  return Number(text);
}

/** --agent-env NAME: a variable name, each at most once. */
export function envNamesArgument(names: readonly string[]): readonly string[] {
  const seen = new Set<string>();
  for (const name of names) {
    if (!ENV_NAME.test(name)) throw new UsageError(`--agent-env: "${name}" is not an environment variable name ([A-Za-z_][A-Za-z0-9_]*; give the name, not NAME=value)`);
    if (seen.has(name)) throw new UsageError(`--agent-env: ${name} is given twice`);
    seen.add(name);
  }
  return names;
}

/**
 * The sandbox options. For a module or command agent this also settles the
 * isolation now, in the main thread: without a sandbox it says so once on
 * stderr, or refuses under --require-isolation (AgentError, exit 4), before
 * any input is read or any worker starts.
 */
export function agentSandboxArguments(args: ParsedArgs, agent: AgentSpec): AgentSandboxOptions {
  const memory = args.value('agent-memory');
  const options: AgentSandboxOptions = {
    network: args.flag('agent-network'),
    env: envNamesArgument(args.list('agent-env')),
    memoryBytes: memory === undefined ? DEFAULT_AGENT_MEMORY_BYTES : memoryArgument(memory),
    cpuSeconds: cpuSecondsArgument(args.value('agent-cpu-seconds')),
    maxProcesses: maxProcessesArgument(args.value('agent-max-processes')),
    requireIsolation: args.flag('require-isolation'),
  };
  if (agent.kind === 'module' || agent.kind === 'command') checkIsolation(options);
  return options;
}
