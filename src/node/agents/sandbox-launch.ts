/**
 * How a sandboxed agent process is started (docs/agents.md "Sandbox"):
 *
 *   bash CLOSER  ->  bwrap ... --seccomp K  ->  prlimit ...  ->  program
 *
 * - Never root: when the evaluator is root, the launcher is spawned as uid
 *   and gid 65534 (nobody) with no supplementary groups (libuv drops them)
 *   and so no capabilities; bubblewrap then makes an unprivileged user
 *   namespace that maps 65534 to itself.
 * - Only the protocol's descriptors: the launcher (bash, always present on
 *   Linux) closes every descriptor above its control pipe K, whatever the
 *   evaluator inherited, before anything else runs.
 * - The control pipe K carries `go\n` and then the seccomp program
 *   (seccomp-filter.ts): the launcher waits for `go` so the evaluator can
 *   first place it in the episode's cgroup (sandbox-limits.ts); bubblewrap
 *   reads the rest with `--seccomp K` and closes it.
 * - Limits: prlimit sets RLIMIT_DATA, RLIMIT_CPU and RLIMIT_NPROC in the
 *   sandbox; the cgroup or the watchdog holds them for the whole tree.
 */

import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { describeMemory, AGENT_ENV_ALLOWLIST, type AgentSandboxOptions } from './sandbox-options.js';
import { agentUser, executable, isInside, probeSandbox, real, systemArgs, type SandboxPlan } from './sandbox.js';
import { seccompArch, seccompProgram } from './seccomp-filter.js';
import { episodeCgroupParent, EpisodeCgroup, Watchdog, type LimitBreach, type LimitMechanisms } from './sandbox-limits.js';
import { processScope, type Release } from '../lifetime.js';

const PRLIMIT_PATHS = ['/usr/bin/prlimit', '/bin/prlimit', '/usr/local/bin/prlimit'];
const BASH_PATHS = ['/bin/bash', '/usr/bin/bash'];

/** The launcher's script: $1 is the control descriptor K, $2 whether bubblewrap reads K (1) or it is closed (0). */
const LAUNCHER = [
  'k=$1 keep=$2; shift 2',
  'for f in /proc/self/fd/*; do n=${f##*/}; if [ "$n" -gt "$k" ] && [ -e "$f" ]; then eval "exec $n>&-"; fi; done',
  'IFS= read -r -u "$k" go && [ "$go" = go ] || exit 125',
  '[ "$keep" = 1 ] || eval "exec $k<&-"',
  'exec "$@"',
].join('\n');

/** The process environment of an agent: the allowlist, --agent-env names, HOME and TMPDIR. */
export function agentEnvironment(options: AgentSandboxOptions, tmp: string): Record<string, string> {
  const env: Record<string, string> = {};
  // Windows programs (Node itself) do not start without these.
  const platform = process.platform === 'win32' ? ['SYSTEMROOT', 'WINDIR', 'PATHEXT', 'COMSPEC'] : [];
  for (const name of [...AGENT_ENV_ALLOWLIST, ...platform, ...options.env]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  env.HOME = tmp;
  env.TMPDIR = tmp;
  return env;
}

function capArgs(options: AgentSandboxOptions, sandboxed: boolean): string[] {
  const prlimit = executable(PRLIMIT_PATHS);
  if (prlimit === undefined) return [];
  const args = [prlimit, `--data=${options.memoryBytes}`];
  // Soft limit: SIGXCPU; one second later the hard limit SIGKILLs an agent that ignores it.
  if (options.cpuSeconds !== undefined) args.push(`--cpu=${options.cpuSeconds}:${options.cpuSeconds + 1}`);
  // In the sandbox's own user namespace RLIMIT_NPROC counts that sandbox's tasks only (+1: bubblewrap's init).
  // Without a sandbox it would count every process of the user: the watchdog counts there instead.
  if (sandboxed) args.push(`--nproc=${options.maxProcesses + 1}`);
  return [...args, '--'];
}

export interface SandboxLaunch {
  /** The executable to spawn (bash, bwrap, prlimit or the program itself). */
  readonly command: string;
  /** Its arguments; they end with the program and its arguments. */
  readonly args: string[];
  readonly env: Record<string, string>;
  readonly cwd: string;
  readonly sandboxed: boolean;
  /** The uid and gid to spawn as (root evaluator), else undefined. */
  readonly user: { uid: number; gid: number } | undefined;
  /** The child's control descriptor (after stdin, stdout, stderr and the protocol channel), or undefined (no launcher). */
  readonly controlFd: number | undefined;
  /** What the control pipe carries after `go\n`: the seccomp program, if any. */
  readonly seccomp: Buffer | undefined;
  /** Removes the private temporary folder of an unsandboxed agent. */
  cleanup(): void;
}

/**
 * How to start `program args` under the plan, with `extraFds` descriptors
 * after stdio (the module host's protocol channel). Relative arguments
 * naming existing files are made absolute when the current folder is not
 * visible in the sandbox (the agent then starts in its private /tmp).
 */
export function sandboxLaunch(plan: SandboxPlan, program: string, args: readonly string[], extraFds = 0): SandboxLaunch {
  const { options } = plan;
  const cwd = process.cwd();
  const bash = process.platform === 'linux' ? executable(BASH_PATHS) : undefined;
  const controlFd = bash === undefined ? undefined : 3 + extraFds;
  const launcher = (keep: boolean, rest: string[]): string[] => (bash === undefined ? rest : [bash, '-c', LAUNCHER, 'ember-agent-launcher', String(controlFd), keep ? '1' : '0', ...rest]);
  if (plan.isolation === 'none') {
    const tmp = mkdtempSync(join(tmpdir(), 'ember-agent-'));
    const [command, ...rest] = launcher(false, [...capArgs(options, false), program, ...args]);
    return { command: command!, args: rest, env: agentEnvironment(options, tmp), cwd, sandboxed: false, user: undefined, controlFd, seccomp: undefined, cleanup: () => rmSync(tmp, { recursive: true, force: true }) };
  }
  const probe = probeSandbox();
  const user = agentUser();
  const visible = plan.readOnly.some((dir) => isInside(real(cwd) ?? cwd, dir));
  const programArgs = visible ? [...args] : args.map((arg) => (!isAbsolute(arg) && !arg.startsWith('-') && existsSync(arg) ? (real(arg) ?? resolve(arg)) : arg));
  const bwrap = ['--unshare-all', ...(options.network ? ['--share-net'] : []), '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  bwrap.push(...systemArgs(options.network), '--proc', '/proc', '--dev', '/dev');
  // /tmp and /dev/shm live in memory: sized by the memory cap, and the cgroup or the watchdog counts them against it.
  const size = probe.tmpfsSize ? ['--size', String(options.memoryBytes)] : [];
  bwrap.push(...size, '--tmpfs', '/tmp', ...size, '--tmpfs', '/dev/shm');
  for (const path of plan.readOnly) bwrap.push('--ro-bind', path, path);
  for (const [target, path] of plan.links ?? []) bwrap.push('--symlink', target, path);
  const arch = seccompArch();
  const seccomp = arch === undefined || controlFd === undefined ? undefined : seccompProgram(arch);
  if (seccomp !== undefined) bwrap.push('--seccomp', String(controlFd));
  bwrap.push('--chdir', visible ? (real(cwd) ?? cwd) : '/tmp', '--');
  const [command, ...rest] = launcher(seccomp !== undefined, [probe.bwrap!, ...bwrap, ...capArgs(options, true), program, ...programArgs]);
  // The launcher starts in / (the evaluator's folder may not be reachable by the agent's uid); bubblewrap's --chdir sets the agent's.
  return { command: command!, args: rest, env: agentEnvironment(options, '/tmp'), cwd: user === undefined ? cwd : '/', sandboxed: true, user, controlFd, seccomp, cleanup: () => undefined };
}

/** Which mechanism holds each limit for launches of this process (the same for every episode). */
export function limitMechanisms(sandboxed: boolean): LimitMechanisms {
  if (episodeCgroupParent() !== undefined) return { memory: 'cgroup_v2', cpu: 'cgroup_v2', processes: 'cgroup_v2' };
  return { memory: 'watchdog', cpu: 'watchdog', processes: sandboxed ? 'rlimit' : 'watchdog' };
}

/**
 * Spawns a launch: stdin, stdout and stderr piped, `extraFds` more pipes
 * (the protocol channel), then the control pipe. The launcher is placed in
 * the episode's cgroup (where there is one) before it is let go, and the
 * limits of the whole tree are watched until it exits.
 */
export function spawnLaunch(launch: SandboxLaunch, options: AgentSandboxOptions, extraFds = 0): ChildProcess {
  const stdio: StdioOptions = ['pipe', 'pipe', 'pipe', ...Array<'pipe'>(extraFds).fill('pipe'), ...(launch.controlFd === undefined ? [] : ['pipe' as const])];
  const child = spawn(launch.command, launch.args, {
    stdio,
    shell: false,
    windowsHide: true,
    env: launch.env,
    cwd: launch.cwd,
    ...(launch.user === undefined ? {} : { uid: launch.user.uid, gid: launch.user.gid }),
  });
  const limits = { memoryBytes: options.memoryBytes, cpuSeconds: options.cpuSeconds, maxProcesses: options.maxProcesses };
  const parent = episodeCgroupParent();
  const cgroup = parent === undefined || child.pid === undefined ? undefined : EpisodeCgroup.create(parent, limits);
  if (cgroup !== undefined && !cgroup.adopt(child.pid!)) cgroup.remove();
  const placed = cgroup !== undefined && existsSync(cgroup.folder) ? cgroup : undefined;
  const entry: LaunchEntry = { options, launch, breach: undefined, watchdog: undefined, cgroup: placed, release: () => undefined, stderrWatch: { sawOutOfMemory: false } };
  // The watchdog reads /proc: Linux only (elsewhere there is no sandbox, and the per-process caps hold where prlimit exists).
  if (child.pid !== undefined && process.platform === 'linux') {
    const pid = child.pid;
    entry.watchdog = new Watchdog({
      limits,
      pid,
      cgroup: placed,
      ownProcesses: launch.sandboxed ? 2 : 0,
      // The sandbox's init (bubblewrap's child) sees its private /tmp and /dev/shm.
      tmpfs: (tree) =>
        launch.sandboxed && tree[1] !== undefined
          ? [
              [`/proc/${tree[1]}/root/tmp`, '/tmp'],
              [`/proc/${tree[1]}/root/dev/shm`, '/dev/shm'],
            ]
          : [],
      onBreach: (breach) => {
        entry.breach = breach;
        child.kill('SIGKILL');
      },
    });
  }
  launched.set(child, entry);
  // An unsandboxed agent's temporary folder must not outlive the evaluator either (lifetime.ts runs it at exit).
  const cleanup = (): void => {
    try {
      launch.cleanup();
    } catch {
      // best effort at exit
    }
  };
  entry.release = processScope.add({ dispose: cleanup, onExit: cleanup });
  // V8 prints its "heap out of memory" before a long native stack trace: watch the whole stream, not the tail.
  let carry = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (entry.stderrWatch.sawOutOfMemory) return;
    const text = carry + chunk.toString('latin1');
    entry.stderrWatch.sawOutOfMemory = OUT_OF_MEMORY.test(text);
    carry = text.slice(-64);
  });
  if (launch.controlFd !== undefined) {
    const control = child.stdio[launch.controlFd] as Writable | null;
    control?.on('error', () => undefined);
    control?.end(launch.seccomp === undefined ? Buffer.from('go\n') : Buffer.concat([Buffer.from('go\n'), launch.seccomp]));
  }
  return child;
}

// ---------------------------------------------------------------------------
// Launched processes

interface LaunchEntry {
  readonly options: AgentSandboxOptions;
  readonly launch: SandboxLaunch;
  breach: LimitBreach | undefined;
  watchdog: Watchdog | undefined;
  readonly cgroup: EpisodeCgroup | undefined;
  /** Drops the cleanup from the process scope once it ran. */
  release: Release;
  /** Whether its stderr ever reported running out of memory (the 4 KiB tail may have lost it). */
  readonly stderrWatch: { sawOutOfMemory: boolean };
}

const launched = new WeakMap<object, LaunchEntry>();

/** The exit status bubblewrap reports for a child killed by signal N is 128 + N. */
const SIGXCPU_STATUS = 128 + 24;
const OUT_OF_MEMORY = /out of memory|MemoryError|Cannot allocate memory|allocation failed|bad_alloc|ENOMEM/i;

/**
 * An agent's own error message, with the memory cap named when the message
 * is an allocation failure (the process lived on and reported it itself).
 */
export function withMemoryCapNote(message: string, options: AgentSandboxOptions | undefined): string {
  if (options === undefined || !OUT_OF_MEMORY.test(message)) return message;
  return `${message} (the agent ran into the memory cap of ${describeMemory(options.memoryBytes)} (--agent-memory))`;
}

const MEMORY_CAP = (options: AgentSandboxOptions): string => `the memory cap of ${describeMemory(options.memoryBytes)} (--agent-memory)`;
const CPU_CAP = (options: AgentSandboxOptions): string => `the CPU-time cap of ${options.cpuSeconds} s per episode (--agent-cpu-seconds)`;

/**
 * Which cap an exited agent process ran into, as a phrase for
 * "agent process exceeded ..." (undefined if none). `breach` is what the
 * watchdog or the cgroup saw over the whole process tree.
 */
export function exceededCap(options: AgentSandboxOptions, exit: { code: number | null; signal: string | null }, stderr: string, breach?: LimitBreach): string | undefined {
  switch (breach) {
    case 'memory':
      return MEMORY_CAP(options);
    case 'cpu':
      return CPU_CAP(options);
    case 'processes':
      return `the process cap of ${options.maxProcesses} (--agent-max-processes)`;
    case undefined:
      break;
  }
  if (options.cpuSeconds !== undefined && (exit.signal === 'SIGXCPU' || exit.code === SIGXCPU_STATUS)) return CPU_CAP(options);
  if ((exit.code !== 0 || exit.signal !== null) && OUT_OF_MEMORY.test(stderr)) return MEMORY_CAP(options);
  return undefined;
}

/** At a launched child's exit: stops its watchdog, removes its cgroup and temporary folder, and names the cap it exceeded, if any. */
export function settleLaunch(child: object, exit: { code: number | null; signal: string | null }, stderr: () => string): string | undefined {
  const entry = launched.get(child);
  if (entry === undefined) return undefined;
  launched.delete(child);
  entry.release();
  entry.watchdog?.stop();
  if (entry.breach === undefined && entry.cgroup?.oomKilled() === true) entry.breach = 'memory';
  entry.cgroup?.remove();
  try {
    entry.launch.cleanup();
  } catch {
    // A temporary folder that cannot be removed is not the episode's failure.
  }
  return exceededCap(entry.options, exit, entry.stderrWatch.sawOutOfMemory ? 'out of memory' : stderr(), entry.breach);
}
