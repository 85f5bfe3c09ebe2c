/**
 * The sandbox of user agents (docs/agents.md "Sandbox"): every module host
 * and every command agent runs under bubblewrap (`bwrap`, Debian's
 * `bubblewrap`), never a home-made namespace tool. This file probes it and
 * decides what an agent may read; sandbox-launch.ts starts it,
 * seccomp-filter.ts is its syscall filter, sandbox-limits.ts holds the
 * limits per episode.
 *
 * - the file system is the system runtime read-only (/usr, /bin, /lib*, a
 *   few /etc files a runtime needs), exactly the agent's own files
 *   read-only (its --agent-path folders, or its script's folder unless that
 *   is a shared folder such as /tmp or /, then the script alone), an
 *   interpreter's installation folder, for the module host the project's
 *   host files; a private empty /tmp and /dev/shm (the only writable
 *   places, in memory), a new /proc and a minimal /dev; nothing else;
 * - never root: a root evaluator runs agents as uid/gid 65534 in an
 *   unprivileged user namespace (no capabilities, no groups);
 * - no network (an empty network namespace) unless --agent-network;
 * - its own PID namespace, --die-with-parent and a new session: when the
 *   agent process ends or is killed, every descendant dies with it;
 * - an environment reduced to an allowlist plus --agent-env names; HOME and
 *   TMPDIR are the private /tmp; only stdio and the protocol channel open.
 *
 * Where bubblewrap is missing or fails its probe (macOS, Windows, a Linux
 * without user namespaces) agents still run, with the same environment and
 * caps where prlimit exists, at isolation level `none`; the CLI says so once.
 */

import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { AgentError } from '../../core/errors.js';
import { type AgentIsolation, type AgentSandboxOptions } from './sandbox-options.js';

/** The host uid and gid agents run as when the evaluator is root. */
export const AGENT_UID = 65534;
export const AGENT_GID = 65534;

/** The uid and gid agents run as: 65534 when the evaluator is root on Linux, else the evaluator's own (undefined). */
export function agentUser(): { uid: number; gid: number } | undefined {
  return process.platform === 'linux' && process.getuid?.() === 0 ? { uid: AGENT_UID, gid: AGENT_GID } : undefined;
}

/** Set to `off` to run agents without the sandbox (diagnosis and tests of the `none` level). */
export const SANDBOX_SWITCH_VARIABLE = 'EMBER_AGENT_SANDBOX';

const BWRAP_PATHS = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'];
const TRUE_PATHS = ['/usr/bin/true', '/bin/true'];
const BASH_PATHS = ['/bin/bash', '/usr/bin/bash'];

/** System folders bound read-only at the same place (or re-created as the same symlinks). */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** The /etc entries a runtime needs: the dynamic loader's cache and config, alternatives, the time zone. Not passwd. */
const ETC_RUNTIME = ['/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/alternatives', '/etc/localtime', '/etc/timezone'];
/** With --agent-network also name resolution and TLS roots. */
const ETC_NETWORK = ['/etc/resolv.conf', '/etc/hosts', '/etc/nsswitch.conf', '/etc/gai.conf', '/etc/host.conf', '/etc/services', '/etc/protocols', '/etc/ssl', '/etc/ca-certificates', '/etc/pki'];

export function executable(paths: readonly string[]): string | undefined {
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
export function systemArgs(network: boolean): string[] {
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
  // The launcher (sandbox-launch.ts) that closes inherited descriptors and passes the syscall filter.
  if (executable(BASH_PATHS) === undefined) return none('bash, which starts the sandbox, is not installed');
  const trueBin = executable(TRUE_PATHS) ?? '/bin/true';
  // As the agents will run: a root evaluator's agents are uid 65534 in an unprivileged user namespace.
  const user = agentUser();
  const probeRun = (size: string[]) => {
    const args = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', ...systemArgs(false), '--proc', '/proc', '--dev', '/dev', ...size, '--tmpfs', '/tmp', '--', trueBin];
    return spawnSync(bwrap, args, { env: {}, encoding: 'utf8', timeout: 10_000, cwd: '/', ...(user ?? {}) });
  };
  if (probeRun(['--size', '1048576']).status === 0) return { isolation: 'sandboxed', reason: undefined, bwrap, tmpfsSize: true };
  const run = probeRun([]);
  if (run.error) return none(`bubblewrap failed its probe run: ${run.error.message}`);
  if (run.status !== 0) {
    const why = (run.stderr ?? '').trim().split('\n')[0] || `exit ${run.status ?? run.signal}`;
    return none(`bubblewrap failed its probe run${user === undefined ? '' : ` as uid ${AGENT_UID}`} (${why}); unprivileged user namespaces may be disabled`);
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
export function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * A folder that many unrelated things live in, never given to an agent
 * whole: `/`, the home folder or one of its ancestors, and any folder
 * anyone may write to (sticky or world-writable: /tmp, /var/tmp, /dev/shm).
 */
export function isSharedFolder(dir: string): boolean {
  if (dir === '/' || isInside(homedir(), dir)) return true;
  try {
    return (statSync(dir).mode & 0o1002) !== 0;
  } catch {
    return false;
  }
}

/**
 * What of an executable's installation the agent may read: the parent of
 * its `bin/` (a pyenv version, a conda env, a venv, an nvm Node), else its
 * own folder; where that is a shared folder (/tmp, /, the home), the
 * program file alone. System paths need nothing.
 */
export function installationFolder(program: string): string | undefined {
  if (isSystemPath(program)) return undefined;
  const dir = dirname(program);
  // bin/ of an installation; shims/ of pyenv (rbenv, nodenv), whose shims run the installation's own tools.
  const parent = basename(dir) === 'bin' || basename(dir) === 'shims' ? dirname(dir) : dir;
  if (!isSharedFolder(parent)) return parent;
  return isSharedFolder(dir) ? program : dir;
}

/**
 * The first path on the way to `path` that the uid and gid cannot pass (a
 * folder they cannot search, or the end they cannot read), or undefined.
 * A path that does not exist is not blocked here (bubblewrap names it).
 */
export function blockedFor(path: string, uid: number, gid: number): string | undefined {
  const parts = path.split(sep).filter((part) => part !== '');
  for (let i = 0; i <= parts.length; i++) {
    const current = sep + parts.slice(0, i).join(sep);
    let stat;
    try {
      stat = statSync(current);
    } catch {
      return undefined;
    }
    const need = i < parts.length ? 0o1 : stat.isDirectory() ? 0o5 : 0o4;
    const bits = stat.uid === uid ? (stat.mode >> 6) & 7 : stat.gid === gid ? (stat.mode >> 3) & 7 : stat.mode & 7;
    if ((bits & need) !== need) return current;
  }
  return undefined;
}

/**
 * Under a root evaluator agents run as uid 65534: every path they are
 * given must be reachable by it, else AgentError naming the path and the
 * fix (bubblewrap, itself unprivileged, could not even bind it).
 */
function checkReachable(paths: readonly string[]): void {
  const user = agentUser();
  if (user === undefined) return;
  for (const path of paths) {
    const blocked = blockedFor(path, user.uid, user.gid);
    if (blocked === undefined) continue;
    throw new AgentError(
      'model_error',
      `the sandbox runs agents as uid ${user.uid} (nobody), never as root, and ${blocked} is not ${blocked === path ? 'readable' : 'searchable'} by that uid, so the agent cannot use ${path}: make it readable by others (chmod o+rX), keep the agent and its interpreter outside private folders such as /root, or run the evaluator as an ordinary user`,
    );
  }
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

function packageRoot(hostEntry: string): string {
  let root = dirname(resolve(hostEntry));
  while (!existsSync(join(root, 'package.json')) && dirname(root) !== root) root = dirname(root);
  return root;
}

/** The package's node_modules as a link to its real place, when it is a symbolic link (a worktree sharing one install). */
export function hostRuntimeLinks(hostEntry: string): [string, string][] {
  const modules = join(packageRoot(hostEntry), 'node_modules');
  try {
    return lstatSync(modules).isSymbolicLink() ? [[realpathSync(modules), modules]] : [];
  } catch {
    return [];
  }
}

/**
 * The project files the module host itself needs, read-only: the top folder
 * of the host entry under its package root (src/ or dist/), the package's
 * package.json (module type) and node_modules (tsx).
 */
export function hostRuntimeFolders(hostEntry: string): string[] {
  const root = packageRoot(hostEntry);
  const entry = resolve(hostEntry);
  const top = join(root, entry.slice(root.length + 1).split(sep)[0]!);
  const out = [top, join(root, 'package.json'), join(root, 'node_modules')].filter((p) => existsSync(p));
  const node = installationFolder(real(process.execPath) ?? process.execPath);
  if (node !== undefined) out.push(node);
  return out.map((p) => real(p) ?? p);
}

/**
 * What a command agent may read: its --agent-path folders, or by default
 * the folder of the script it names (its first argument that is an
 * existing file; the script alone when that folder is shared, such as
 * /tmp), plus the installation of its program (the path as found on PATH
 * and after symbolic links) unless the program is one of those files.
 * Symbolic links are resolved.
 */
export function commandFolders(program: string, args: readonly string[], agentPaths: readonly string[]): string[] {
  const own: string[] = [];
  if (agentPaths.length > 0) {
    for (const dir of agentPaths) own.push(real(dir) ?? resolve(dir));
  } else {
    const script = args.find((arg) => !arg.startsWith('-') && isFile(arg));
    const file = script === undefined ? undefined : real(script)!;
    if (file !== undefined) own.push(isSharedFolder(dirname(file)) ? file : dirname(file));
  }
  const out = [...own];
  for (const path of [program, real(program)]) {
    if (path === undefined || own.some((dir) => isInside(path, dir))) continue;
    const folder = installationFolder(path);
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
  /** Symbolic links re-created in the sandbox, [target, path]: a package's node_modules that links elsewhere. */
  readonly links?: readonly (readonly [string, string])[];
}

/** The plan of a command agent: the isolation now (probe, --require-isolation), its folders. */
export function commandSandboxPlan(program: string, args: readonly string[], options: AgentSandboxOptions, agentPaths: readonly string[]): SandboxPlan {
  const isolation = checkIsolation(options);
  const readOnly = isolation === 'sandboxed' ? commandFolders(program, args, agentPaths) : [];
  if (isolation === 'sandboxed') checkReachable([...readOnly, program]);
  return { isolation, options, readOnly };
}

/** The plan of a module host: the agent's (resolved) folders and the host's own runtime. */
export function moduleSandboxPlan(hostEntry: string, folders: readonly string[], options: AgentSandboxOptions): SandboxPlan {
  const isolation = checkIsolation(options);
  const readOnly = isolation === 'sandboxed' ? [...new Set([...folders, ...hostRuntimeFolders(hostEntry)])] : [];
  if (isolation === 'sandboxed') checkReachable([...readOnly, real(process.execPath) ?? process.execPath]);
  return { isolation, options, readOnly, links: isolation === 'sandboxed' ? hostRuntimeLinks(hostEntry) : [] };
}

