/**
 * What the operator allows a user agent (module host or command agent):
 * plain data, so it crosses into the evaluation's worker threads unchanged.
 * The command line parses it in one place (src/cli/arguments.ts); the
 * sandbox itself is sandbox.ts.
 */

/** How a session's agent code is isolated: `sandboxed` (bubblewrap) or `none` (the user's full rights). */
export type AgentIsolation = 'sandboxed' | 'none';

export interface AgentSandboxOptions {
  /** --agent-network: keep the host's network (default: a network namespace with nothing in it). */
  readonly network: boolean;
  /** --agent-env NAME: variables passed on top of the allowlist, by name (their values come from this process). */
  readonly env: readonly string[];
  /** --agent-memory: the memory cap of the agent's whole process tree per episode, in bytes. */
  readonly memoryBytes: number;
  /** --agent-cpu-seconds: CPU time of the agent's whole process tree per episode; undefined = no cap. */
  readonly cpuSeconds: number | undefined;
  /** --agent-max-processes: processes (and threads) of the agent's whole tree at once. */
  readonly maxProcesses: number;
  /** --require-isolation: refuse to open a user agent without a sandbox. */
  readonly requireIsolation: boolean;
}

export const GiB = 1024 * 1024 * 1024;

/** Default memory cap: 4 GiB (--agent-memory). */
export const DEFAULT_AGENT_MEMORY_BYTES = 4 * GiB;
/** Smallest memory cap accepted: a Node module host needs about 64 MiB to start. */
export const MIN_AGENT_MEMORY_BYTES = 64 * 1024 * 1024;
/** Largest CPU cap accepted, in seconds (one day). */
export const MAX_AGENT_CPU_SECONDS = 86_400;

/** Default process cap (--agent-max-processes). */
export const DEFAULT_AGENT_MAX_PROCESSES = 256;
/** Smallest process cap accepted: Node alone starts about a dozen threads, which count. */
export const MIN_AGENT_MAX_PROCESSES = 32;
/** Largest process cap accepted. */
export const MAX_AGENT_MAX_PROCESSES = 65_536;

export const DEFAULT_AGENT_SANDBOX_OPTIONS: AgentSandboxOptions = {
  network: false,
  env: [],
  memoryBytes: DEFAULT_AGENT_MEMORY_BYTES,
  cpuSeconds: undefined,
  maxProcesses: DEFAULT_AGENT_MAX_PROCESSES,
  requireIsolation: false,
};

/**
 * The environment every agent gets, whatever the parent has: enough for an
 * interpreter to start and format text. HOME and TMPDIR point at the
 * agent's private temporary folder (set by the sandbox, not copied).
 */
export const AGENT_ENV_ALLOWLIST: readonly string[] = ['PATH', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'LC_NUMERIC', 'TZ', 'TERM'];

/** An environment variable name --agent-env accepts. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** "4 GiB", "512 MiB" or "N bytes", for messages. */
export function describeMemory(bytes: number): string {
  const MiB = 1024 * 1024;
  if (bytes % GiB === 0) return `${bytes / GiB} GiB`;
  if (bytes % MiB === 0) return `${bytes / MiB} MiB`;
  return `${bytes} bytes`;
}
