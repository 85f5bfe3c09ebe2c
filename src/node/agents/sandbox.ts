/**
 * The sandbox of user agents (docs/agents.md "Sandbox"): every module host
 * and every command agent runs under bubblewrap (`bwrap`, Debian's
 * `bubblewrap`), never a home-made namespace tool:
 *
 * - the file system is the system runtime read-only (/usr, /bin, /lib*, a
 *   few /etc files a runtime needs), the folders the session names
 *   read-only (the agent's own folder, an interpreter's installation folder,
 *   for the module host the project's host files), a private empty /tmp
 *   (the only writable place, sized by the memory cap), a new /proc and a
 *   minimal /dev; nothing else exists;
 * - no network (an empty network namespace) unless --agent-network;
 * - its own PID namespace, --die-with-parent and a new session: when the
 *   agent process ends or is killed, every descendant dies with it;
 * - no capabilities; an environment reduced to an allowlist plus
 *   --agent-env names; HOME and TMPDIR are the private /tmp;
 * - RLIMIT_DATA (--agent-memory; RLIMIT_AS would stop Node, whose
 *   WebAssembly reserves address space) and RLIMIT_CPU
 *   (--agent-cpu-seconds), set by util-linux `prlimit` inside the sandbox.
 *
 * Where bubblewrap is missing or fails its probe (macOS, Windows, a Linux
 * without user namespaces) agents still run, with the same environment and
 * caps where prlimit exists, at isolation level `none`; the CLI says so once.
 */

import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, lstatSync, mkdtempSync, readlinkSync, realpathSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { AgentError } from '../../core/errors.js';
import { AGENT_ENV_ALLOWLIST, describeMemory, type AgentIsolation, type AgentSandboxOptions } from './sandbox-options.js';
import { processScope, type Release } from '../lifetime.js';

/** Set to `off` to run agents without the sandbox (diagnosis and tests of the `none` level). */
export const SANDBOX_SWITCH_VARIABLE = 'EMBER_AGENT_SANDBOX';

const BWRAP_PATHS = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'];
const PRLIMIT_PATHS = ['/usr/bin/prlimit', '/bin/prlimit', '/usr/local/bin/prlimit'];
const TRUE_PATHS = ['/usr/bin/true', '/bin/true'];

/** System folders bound read-only at the same place (or re-created as the same symlinks). */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** The /etc entries a runtime needs: the dynamic loader's cache and config, alternatives, the time zone. Not passwd. */
const ETC_RUNTIME = ['/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/alternatives', '/etc/localtime', '/etc/timezone'];
/** With --agent-network also name resolution and TLS roots. */
const ETC_NETWORK = ['/etc/resolv.conf', '/etc/hosts', '/etc/nsswitch.conf', '/etc/gai.conf', '/etc/host.conf', '/etc/services', '/etc/protocols', '/etc/ssl', '/etc/ca-certificates', '/etc/pki'];

function executable(paths: readonly string[]): string | undefined {
  for (const path of paths) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // Try the next one.
    }
  }
  return undefined;
}

/** Whether `path` is `dir` or inside it (both absolute and normalized). */
export function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

function isSystemPath(path: string): boolean {
  return SYSTEM_DIRS.some((dir) => isInside(path, dir));
}

/** bwrap arguments that rebuild the system runtime, read-only. */
function systemArgs(network: boolean): string[] {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    let stat;
    try {
      stat = lstatSync(dir);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else if (stat.isDirectory()) args.push('--ro-bind', dir, dir);
  }
  for (const path of network ? [...ETC_RUNTIME, ...ETC_NETWORK] : ETC_RUNTIME) args.push('--ro-bind-try', path, path);
  return args;
}

export interface SandboxProbe {
  readonly isolation: AgentIsolation;
  /** Why there is no sandbox (isolation `none`). */
  readonly reason: string | undefined;
  readonly bwrap: string | undefined;
  /** Whether this bubblewrap can size a tmpfs (`--size`, bubblewrap 0.5 and later). */
  readonly tmpfsSize: boolean;
}

let probed: SandboxProbe | undefined;

function runProbe(): SandboxProbe {
  const none = (reason: string): SandboxProbe => ({ isolation: 'none', reason, bwrap: undefined, tmpfsSize: false });
  if (process.env[SANDBOX_SWITCH_VARIABLE] === 'off') return none(`${SANDBOX_SWITCH_VARIABLE}=off`);
  if (process.platform !== 'linux') return none(`bubblewrap runs on Linux only, this is ${process.platform}`);
  const bwrap = executable(BWRAP_PATHS);
  if (bwrap === undefined) return none('bubblewrap (bwrap) is not installed; on Debian or Ubuntu: apt-get install bubblewrap');
  const trueBin = executable(TRUE_PATHS) ?? '/bin/true';
  const probeRun = (size: string[]) => {
    const args = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', ...systemArgs(false), '--proc', '/proc', '--dev', '/dev', ...size, '--tmpfs', '/tmp', '--', trueBin];
    return spawnSync(bwrap, args, { env: {}, encoding: 'utf8', timeout: 10_000 });
  };
  if (probeRun(['--size', '1048576']).status === 0) return { isolation: 'sandboxed', reason: undefined, bwrap, tmpfsSize: true };
  const run = probeRun([]);
  if (run.error) return none(`bubblewrap failed its probe run: ${run.error.message}`);
  if (run.status !== 0) {
    const why = (run.stderr ?? '').trim().split('\n')[0] || `exit ${run.status ?? run.signal}`;
    return none(`bubblewrap failed its probe run (${why}); user namespaces may be disabled`);
  }
  return { isolation: 'sandboxed', reason: undefined, bwrap, tmpfsSize: false };
}

/** Probes bubblewrap once per thread (a real run of `true` in a sandbox); cached. */
export function probeSandbox(): SandboxProbe {
  probed ??= runProbe();
  return probed;
}

let announced = false;

/**
 * The isolation a user agent will get. Without a sandbox: AgentError
 * (exit 4) under --require-isolation, otherwise one note on stderr per
 * process (from the main thread only, so `--jobs N` says it once).
 */
export function checkIsolation(options: AgentSandboxOptions, write: (text: string) => void = (text) => void process.stderr.write(text)): AgentIsolation {
  const probe = probeSandbox();
  if (probe.isolation === 'sandboxed') return 'sandboxed';
  if (options.requireIsolation) {
    throw new AgentError('model_error', `--require-isolation: no agent sandbox is available: ${probe.reason}`);
  }
  if (!announced && isMainThread) {
    announced = true;
    write(`emberbench: warning: agents run without a sandbox (isolation: none): ${probe.reason}. They can read your files and use the network; --require-isolation refuses to run like this.\n`);
  }
  return 'none';
}

// ---------------------------------------------------------------------------
// What an agent may read

/** The real path of an existing path, or undefined. */
function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The folder an executable is installed in: the parent of its `bin/`
 * (a pyenv version, a conda env, a venv, an nvm Node), else its own
 * folder; never the home folder or `/` itself. System paths need nothing.
 */
export function installationFolder(program: string): string | undefined {
  if (isSystemPath(program)) return undefined;
  const dir = dirname(program);
  // bin/ of an installation; shims/ of pyenv (rbenv, nodenv), whose shims run the installation's own tools.
  const parent = basename(dir) === 'bin' || basename(dir) === 'shims' ? dirname(dir) : dir;
  const home = homedir();
  // Never the whole home (or an ancestor of it): then only the program's own folder.
  if (parent === '/' || isInside(home, parent)) return dir === '/' || isInside(home, dir) ? undefined : dir;
  return parent;
}

/**
 * The module agent's file and folders after symbolic links: the file must
 * resolve inside one of the resolved --agent-path folders, else AgentError.
 */
export function containedAgentModule(file: string, agentPaths: readonly string[], label: string): { file: string; folders: string[] } {
  const folders = agentPaths.map((dir) => real(dir) ?? resolve(dir));
  const realFile = real(file) ?? resolve(file);
  if (!folders.some((dir) => isInside(realFile, dir))) {
    throw new AgentError('model_error', `cannot import agent module ${label}: ${file} resolves to ${realFile}, outside the --agent-path folders (${folders.join(', ')}); symbolic links must stay inside them`);
  }
  return { file: realFile, folders };
}

/**
 * The project files the module host itself needs, read-only: the top folder
 * of the host entry under its package root (src/ or dist/), the package's
 * package.json (module type) and node_modules (tsx).
 */
export function hostRuntimeFolders(hostEntry: string): string[] {
  let root = dirname(resolve(hostEntry));
  while (!existsSync(join(root, 'package.json')) && dirname(root) !== root) root = dirname(root);
  const entry = resolve(hostEntry);
  const top = join(root, entry.slice(root.length + 1).split(sep)[0]!);
  const out = [top, join(root, 'package.json'), join(root, 'node_modules')].filter((p) => existsSync(p));
  const node = installationFolder(real(process.execPath) ?? process.execPath);
  if (node !== undefined) out.push(node);
  return out.map((p) => real(p) ?? p);
}

/**
 * The folders a command agent may read: its --agent-path folders, or by
 * default the folder of the script it names (its first argument that is an
 * existing file), plus the installation folder of its program (the path as
 * found on PATH and after symbolic links). Symbolic links are resolved.
 */
export function commandFolders(program: string, args: readonly string[], agentPaths: readonly string[]): string[] {
  const out: string[] = [];
  if (agentPaths.length > 0) {
    for (const dir of agentPaths) out.push(real(dir) ?? resolve(dir));
  } else {
    const script = args.find((arg) => !arg.startsWith('-') && isFile(arg));
    if (script !== undefined) out.push(dirname(real(script)!));
  }
  for (const path of [program, real(program)]) {
    const folder = path === undefined ? undefined : installationFolder(path);
    const found = folder === undefined ? undefined : real(folder);
    if (found !== undefined) out.push(found);
  }
  return [...new Set(out)];
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------
// Launching

export interface SandboxPlan {
  readonly isolation: AgentIsolation;
  readonly options: AgentSandboxOptions;
  /** Real paths the agent may read. */
  readonly readOnly: readonly string[];
}

export interface SandboxLaunch {
  /** The executable to spawn (bwrap, prlimit or the program itself). */
  readonly command: string;
  /** Its arguments; they end with the program and its arguments. */
  readonly args: string[];
  readonly env: Record<string, string>;
  readonly cwd: string;
  /** Removes the private temporary folder of an unsandboxed agent. */
  cleanup(): void;
}

/** The plan of a command agent: the isolation now (probe, --require-isolation), its folders. */
export function commandSandboxPlan(program: string, args: readonly string[], options: AgentSandboxOptions, agentPaths: readonly string[]): SandboxPlan {
  const isolation = checkIsolation(options);
  return { isolation, options, readOnly: isolation === 'sandboxed' ? commandFolders(program, args, agentPaths) : [] };
}

/** The plan of a module host: the agent's (resolved) folders and the host's own runtime. */
export function moduleSandboxPlan(hostEntry: string, folders: readonly string[], options: AgentSandboxOptions): SandboxPlan {
  const isolation = checkIsolation(options);
  return { isolation, options, readOnly: isolation === 'sandboxed' ? [...new Set([...folders, ...hostRuntimeFolders(hostEntry)])] : [] };
}

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

function capArgs(options: AgentSandboxOptions): string[] {
  const prlimit = executable(PRLIMIT_PATHS);
  if (prlimit === undefined) return [];
  const args = [prlimit, `--data=${options.memoryBytes}`];
  // Soft limit: SIGXCPU; one second later the hard limit SIGKILLs an agent that ignores it.
  if (options.cpuSeconds !== undefined) args.push(`--cpu=${options.cpuSeconds}:${options.cpuSeconds + 1}`);
  return [...args, '--'];
}

/**
 * How to start `program args` under the plan. Relative arguments naming
 * existing files are made absolute when the current folder is not visible
 * in the sandbox (the agent then starts in its private /tmp).
 */
export function sandboxLaunch(plan: SandboxPlan, program: string, args: readonly string[]): SandboxLaunch {
  const { options } = plan;
  const cwd = process.cwd();
  if (plan.isolation === 'none') {
    const tmp = mkdtempSync(join(tmpdir(), 'ember-agent-'));
    const caps = capArgs(options);
    const [command, ...rest] = caps.length > 0 ? [...caps, program, ...args] : [program, ...args];
    return { command: command!, args: rest, env: agentEnvironment(options, tmp), cwd, cleanup: () => rmSync(tmp, { recursive: true, force: true }) };
  }
  const probe = probeSandbox();
  const visible = plan.readOnly.some((dir) => isInside(real(cwd) ?? cwd, dir));
  const programArgs = visible ? [...args] : args.map((arg) => (!isAbsolute(arg) && !arg.startsWith('-') && existsSync(arg) ? (real(arg) ?? resolve(arg)) : arg));
  const bwrap = ['--unshare-all', ...(options.network ? ['--share-net'] : []), '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  bwrap.push(...systemArgs(options.network), '--proc', '/proc', '--dev', '/dev');
  // The private /tmp lives in memory: it counts against the memory cap where bubblewrap can size it.
  bwrap.push(...(probe.tmpfsSize ? ['--size', String(options.memoryBytes)] : []), '--tmpfs', '/tmp');
  for (const path of plan.readOnly) bwrap.push('--ro-bind', path, path);
  bwrap.push('--chdir', visible ? (real(cwd) ?? cwd) : '/tmp', '--');
  return {
    command: probe.bwrap!,
    args: [...bwrap, ...capArgs(options), program, ...programArgs],
    env: agentEnvironment(options, '/tmp'),
    cwd,
    cleanup: () => undefined,
  };
}

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

/**
 * Which cap an exited agent process ran into, as a phrase for
 * "agent process exceeded ..." (undefined if none).
 */
export function exceededCap(options: AgentSandboxOptions, exit: { code: number | null; signal: string | null }, stderr: string): string | undefined {
  if (options.cpuSeconds !== undefined && (exit.signal === 'SIGXCPU' || exit.code === SIGXCPU_STATUS)) {
    return `the CPU-time cap of ${options.cpuSeconds} s per episode (--agent-cpu-seconds)`;
  }
  if ((exit.code !== 0 || exit.signal !== null) && OUT_OF_MEMORY.test(stderr)) {
    return `the memory cap of ${describeMemory(options.memoryBytes)} (--agent-memory)`;
  }
  return undefined;
}

// ---------------------------------------------------------------------------
// Launched processes

interface Launched {
  readonly options: AgentSandboxOptions;
  readonly launch: SandboxLaunch;
  /** Drops the cleanup from the process scope once it ran. */
  readonly release: Release;
  /** Whether its stderr ever reported running out of memory (the 4 KiB tail may have lost it). */
  readonly stderrWatch: { sawOutOfMemory: boolean };
}

const launched = new WeakMap<object, Launched>();

/** Remembers how a child was launched, for {@link settleLaunch} (child-lifecycle.ts calls it at exit). */
export function registerLaunch(child: { readonly stderr?: NodeJS.ReadableStream | null }, options: AgentSandboxOptions, launch: SandboxLaunch): void {
  // An unsandboxed agent's temporary folder must not outlive the evaluator either (lifetime.ts runs it at exit).
  const cleanup = (): void => {
    try {
      launch.cleanup();
    } catch {
      // best effort at exit
    }
  };
  // V8 prints its "heap out of memory" before a long native stack trace: watch the whole stream, not the tail.
  const stderrWatch = { sawOutOfMemory: false };
  let carry = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderrWatch.sawOutOfMemory) return;
    const text = carry + chunk.toString('latin1');
    stderrWatch.sawOutOfMemory = OUT_OF_MEMORY.test(text);
    carry = text.slice(-64);
  });
  launched.set(child, { options, launch, release: processScope.add({ dispose: cleanup, onExit: cleanup }), stderrWatch });
}

/** At a launched child's exit: removes its temporary folder and names the cap it exceeded, if any. */
export function settleLaunch(child: object, exit: { code: number | null; signal: string | null }, stderr: () => string): string | undefined {
  const entry = launched.get(child);
  if (entry === undefined) return undefined;
  launched.delete(child);
  entry.release();
  try {
    entry.launch.cleanup();
  } catch {
    // A temporary folder that cannot be removed is not the episode's failure.
  }
  return exceededCap(entry.options, exit, entry.stderrWatch.sawOutOfMemory ? 'out of memory' : stderr());
}
