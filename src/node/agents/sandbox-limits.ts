/**
 * Limits per episode, over an agent's whole process tree (docs/agents.md
 * "Sandbox"): --agent-memory, --agent-cpu-seconds and
 * --agent-max-processes. Two mechanisms, chosen once per process:
 *
 * - `cgroup_v2`: where the evaluator may create a child of its own cgroup
 *   with the memory and pids controllers (root on a cgroup v2 host, or a
 *   delegated subtree), each episode's sandbox is started inside a fresh
 *   cgroup: memory.max (swap off) and pids.max are enforced by the kernel,
 *   and CPU time is read from cpu.stat, which counts exited processes too.
 * - `watchdog`: otherwise (cgroup v1 hosts, no delegation, no root) a timer
 *   samples the sandbox's process tree: the sum of its processes' private
 *   memory plus the size of its in-memory /tmp and /dev/shm, the sum of
 *   their CPU time (with what their reaped children used), and their
 *   number. Over a cap the whole sandbox is killed. The kernel's per-process
 *   limits stay as a backstop between samples: RLIMIT_DATA and RLIMIT_CPU
 *   at the cap, and RLIMIT_NPROC, which in the sandbox's own user namespace
 *   counts that sandbox's processes only, stops a fork bomb at once.
 */

import { mkdirSync, readdirSync, readFileSync, rmdirSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export type { LimitMechanism, LimitMechanisms } from '../../core/scoring/operational.js';

export interface EpisodeLimits {
  readonly memoryBytes: number;
  readonly cpuSeconds: number | undefined;
  readonly maxProcesses: number;
}

/** Which cap a sandbox ran into, as the watchdog or the cgroup saw it. */
export type LimitBreach = 'memory' | 'cpu' | 'processes';

/** How often the watchdog samples: often enough to catch a burst of children before it adds up. */
export const WATCHDOG_INTERVAL_MS = 50;

// ---------------------------------------------------------------------------
// cgroup v2

/** The evaluator's own cgroup v2 folder, or undefined (no unified hierarchy, or this process is not in it). */
export function ownCgroupFolder(): string | undefined {
  let line: string | undefined;
  let mount: string | undefined;
  try {
    line = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('0::'));
    for (const entry of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
      const [left, right] = entry.split(' - ');
      if (right?.split(' ')[0] !== 'cgroup2') continue;
      const fields = left!.split(' ');
      // Only a mount of the hierarchy's root (or of our namespace's root) maps paths one to one.
      if (fields[3] === '/') mount = fields[4];
    }
  } catch {
    return undefined;
  }
  if (line === undefined || mount === undefined) return undefined;
  return join(mount, line.slice(3));
}

function controllers(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').trim().split(/\s+/);
  } catch {
    return [];
  }
}

let cgroupParent: string | null | undefined;
const EVALUATOR_LEAF = 'ember-evaluator';

/**
 * A cgroup under which this process may create one cgroup per episode with
 * the memory and pids controllers, or undefined. When its own cgroup holds
 * processes (a delegated scope), the evaluator first moves itself into a
 * leaf `ember-evaluator` child, as cgroup v2 wants; any failure leaves
 * everything as it was and the watchdog takes over.
 */
export function episodeCgroupParent(): string | undefined {
  if (cgroupParent !== undefined) return cgroupParent ?? undefined;
  cgroupParent = null;
  if (process.platform !== 'linux') return undefined;
  const own = ownCgroupFolder();
  if (own === undefined) return undefined;
  const wanted = ['memory', 'pids'];
  // Moved into its leaf already (another thread of this process did it): the parent is the one.
  const parent = dirname(own);
  if (basename(own) === EVALUATOR_LEAF && wanted.every((c) => controllers(join(parent, 'cgroup.subtree_control')).includes(c))) {
    cgroupParent = parent;
    return parent;
  }
  if (!wanted.every((c) => controllers(join(own, 'cgroup.controllers')).includes(c))) return undefined;
  if (wanted.every((c) => controllers(join(own, 'cgroup.subtree_control')).includes(c))) {
    cgroupParent = own;
    return own;
  }
  const leaf = join(own, EVALUATOR_LEAF);
  try {
    mkdirSync(leaf, { recursive: true });
    writeFileSync(join(leaf, 'cgroup.procs'), String(process.pid));
  } catch {
    return undefined;
  }
  try {
    writeFileSync(join(own, 'cgroup.subtree_control'), '+memory +pids');
    cgroupParent = own;
    return own;
  } catch {
    try {
      writeFileSync(join(own, 'cgroup.procs'), String(process.pid));
      rmdirSync(leaf);
    } catch {
      // Left in the leaf: harmless, the watchdog works from anywhere.
    }
    return undefined;
  }
}

let episodeCounter = 0;

/** One episode's cgroup: created with its caps; the sandbox's first process is placed in it before it starts anything. */
export class EpisodeCgroup {
  private constructor(readonly folder: string) {}

  static create(parent: string, limits: EpisodeLimits): EpisodeCgroup | undefined {
    const folder = join(parent, `ember-agent-${process.pid}-${++episodeCounter}`);
    try {
      mkdirSync(folder);
      writeFileSync(join(folder, 'memory.max'), String(limits.memoryBytes));
      writeFileSync(join(folder, 'pids.max'), String(limits.maxProcesses));
    } catch {
      try {
        rmdirSync(folder);
      } catch {
        // Nothing was created.
      }
      return undefined;
    }
    try {
      // No swap: the memory cap is a cap on memory, not on memory plus swap.
      writeFileSync(join(folder, 'memory.swap.max'), '0');
    } catch {
      // No swap controller: no swap to turn off.
    }
    return new EpisodeCgroup(folder);
  }

  /** Moves a process (the paused sandbox launcher) into the cgroup. */
  adopt(pid: number): boolean {
    try {
      writeFileSync(join(this.folder, 'cgroup.procs'), String(pid));
      return true;
    } catch {
      return false;
    }
  }

  /** CPU seconds used by every process that ever ran in it. */
  cpuSeconds(): number {
    const match = /usage_usec (\d+)/.exec(readText(join(this.folder, 'cpu.stat')));
    return match === null ? 0 : Number(match[1]) / 1e6;
  }

  /** Whether the kernel killed a process of it for memory. */
  oomKilled(): boolean {
    const match = /oom_kill (\d+)/.exec(readText(join(this.folder, 'memory.events')));
    return match !== null && Number(match[1]) > 0;
  }

  /** Kills everything in it (cgroup.kill, Linux 5.14) and removes it once empty; retried briefly. */
  remove(): void {
    try {
      writeFileSync(join(this.folder, 'cgroup.kill'), '1');
    } catch {
      // Older kernels: the sandbox's own teardown kills the processes.
    }
    const attempt = (left: number): void => {
      try {
        rmdirSync(this.folder);
      } catch {
        if (left > 0) setTimeout(() => attempt(left - 1), 100).unref();
      }
    };
    attempt(50);
  }
}

// ---------------------------------------------------------------------------
// Watchdog

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** The pids of a process and all its descendants, through /proc/PID/task/TID/children. */
export function processTree(root: number): number[] {
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0 && out.length < 100_000) {
    const pid = queue.shift()!;
    out.push(pid);
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      for (const child of readText(`/proc/${pid}/task/${tid}/children`).split(' ')) if (child.trim() !== '') queue.push(Number(child));
    }
  }
  return out;
}

const CLOCK_TICKS = 100;

/** A process's CPU time (its own and its reaped children's), in seconds; 0 when it is gone. */
export function processCpuSeconds(pid: number): number {
  const stat = readText(`/proc/${pid}/stat`);
  // Fields after the command (which may contain spaces) start at state; utime is field 14.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + (Number(rest[i]) || 0), 0);
  return ticks / CLOCK_TICKS;
}

/** A process's private memory in bytes (RssAnon): shared library pages are not counted once per process. */
export function processPrivateBytes(pid: number): number {
  const match = /RssAnon:\s+(\d+) kB/.exec(readText(`/proc/${pid}/status`));
  return match === null ? 0 : Number(match[1]) * 1024;
}

const TMPFS_MAGIC = 0x01021994;

/**
 * Bytes used in a sandbox's tmpfs seen through a process's root
 * (/proc/PID/root/tmp), 0 if unreachable, not a tmpfs, or still the host's
 * own folder (the sandbox is not set up yet: that is not the agent's).
 */
export function tmpfsUsedBytes(path: string, hostPath: string): number {
  try {
    if (statSync(path).dev === statSync(hostPath).dev) return 0;
    const stats = statfsSync(path);
    return stats.type === TMPFS_MAGIC ? (stats.blocks - stats.bfree) * stats.bsize : 0;
  } catch {
    return 0;
  }
}

export interface WatchdogOptions {
  readonly limits: EpisodeLimits;
  /** The sandbox's first process (bubblewrap, or the agent itself without a sandbox). */
  readonly pid: number;
  /** In-memory file systems of the sandbox, seen from outside, with the host folder at the same place: [/proc/PID/root/tmp, /tmp]. */
  readonly tmpfs: (tree: readonly number[]) => readonly (readonly [string, string])[];
  readonly cgroup?: EpisodeCgroup;
  /** Processes of the sandbox itself, not counted against the process cap (bubblewrap's two: outside and as init). */
  readonly ownProcesses: number;
  /** Called once when a cap is crossed; the caller kills the sandbox. */
  onBreach(breach: LimitBreach): void;
}

/**
 * Samples the sandbox every {@link WATCHDOG_INTERVAL_MS} ms until stopped;
 * with a cgroup only its CPU time (the kernel holds the rest). Its timer
 * does not keep the evaluator alive.
 */
export class Watchdog {
  private timer: NodeJS.Timeout | undefined;
  private breached = false;
  /** The largest total the watchdog saw (for tests and diagnostics). */
  peak = { memoryBytes: 0, processes: 0, cpuSeconds: 0 };

  constructor(private readonly opts: WatchdogOptions) {
    this.timer = setInterval(() => this.sample(), WATCHDOG_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private totalCpu(tree: readonly number[]): number {
    if (this.opts.cgroup !== undefined) return this.opts.cgroup.cpuSeconds();
    return tree.reduce((sum, pid) => sum + processCpuSeconds(pid), 0);
  }

  sample(): void {
    if (this.breached) return;
    const { limits, cgroup } = this.opts;
    const tree = cgroup === undefined || limits.cpuSeconds !== undefined ? processTree(this.opts.pid) : [];
    if (limits.cpuSeconds !== undefined) {
      const cpu = this.totalCpu(tree);
      this.peak.cpuSeconds = Math.max(this.peak.cpuSeconds, cpu);
      if (cpu > limits.cpuSeconds) return this.breach('cpu');
    }
    if (cgroup !== undefined) return;
    this.peak.processes = Math.max(this.peak.processes, tree.length);
    if (tree.length > limits.maxProcesses + this.opts.ownProcesses) return this.breach('processes');
    let memory = tree.reduce((sum, pid) => sum + processPrivateBytes(pid), 0);
    for (const [path, host] of this.opts.tmpfs(tree)) memory += tmpfsUsedBytes(path, host);
    this.peak.memoryBytes = Math.max(this.peak.memoryBytes, memory);
    if (memory > limits.memoryBytes) this.breach('memory');
  }

  private breach(what: LimitBreach): void {
    this.breached = true;
    this.stop();
    this.opts.onBreach(what);
  }
}


