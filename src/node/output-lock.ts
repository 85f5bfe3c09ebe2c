/**
 * One writer per output: a command that writes a result (evaluation run,
 * fresh or resumed, evaluation merge) holds `OUT.lock` for its whole life.
 * Node has no flock, and flock does not cross the nodes of a cluster, so the
 * lock is a file that exists only while it is held:
 *
 * - Taken by link(2) of a fully written temporary file to `OUT.lock`: atomic
 *   on local filesystems and on NFS (v2+, the classic NFS lock), and the lock
 *   never appears empty or half-written. Where a filesystem has no hard links
 *   it is created with O_CREAT | O_EXCL (atomic on NFSv3+) and then written.
 * - It names its holder (process-identity.ts: pid, host, boot id, pid
 *   namespace, start time) and a random nonce, so a second process is refused
 *   (OutputError, exit 6) naming who holds it, before it writes a byte.
 * - Released when the command ends (normally, on an error, and on SIGINT or
 *   SIGTERM, also through the process exit hook), and only while the file is
 *   still ours (its text carries our nonce).
 * - A lock whose holder is provably dead on this host (same boot and pid
 *   namespace; its pid gone or reused, e.g. after SIGKILL) is taken over,
 *   with a notice. A lock from another host or container is never broken:
 *   the message says how to clear it. Two processes taking over one stale
 *   lock serialize on `OUT.lock.takeover` (also linked), and the stale lock is
 *   removed only if its text is still exactly the stale text that was read.
 */

import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { link, open, readFile, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { OutputError } from '../core/errors.js';
import { errnoCode, errnoText } from './errno.js';
import { processScope, type Release, type ResourceScope } from './lifetime.js';
import { currentProcess, processState, type ProcessIdentity } from './process-identity.js';

export const LOCK_VERSION = '1';

/** The lock file of an output. */
export function lockPath(out: string): string {
  return `${out}.lock`;
}

export interface LockHolder extends ProcessIdentity {
  /** When it took the lock (ISO 8601, for people: never compared). */
  readonly startedAt: string;
}

/** The holder a lock file names, or undefined when its text is not a lock of this version. */
export function parseLockText(text: string): LockHolder | undefined {
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    const strings = ['host', 'boot_id', 'pid_ns', 'start_ticks', 'started_at', 'nonce'];
    if (v.ember_lock !== LOCK_VERSION || !Number.isSafeInteger(v.pid) || strings.some((k) => typeof v[k] !== 'string')) return undefined;
    return {
      pid: v.pid as number,
      host: v.host as string,
      bootId: v.boot_id as string,
      pidNamespace: v.pid_ns as string,
      startTicks: v.start_ticks as string,
      startedAt: v.started_at as string,
    };
  } catch {
    return undefined;
  }
}

/** "pid 41 on host node-3, started 2026-12-02T02:40:00.000Z" */
export function describeHolder(holder: LockHolder): string {
  return `pid ${holder.pid} on host ${holder.host}, started ${holder.startedAt}`;
}

/** The text of a lock (or of a placeholder's owner mark, output-placeholder.ts) naming `me` and a fresh nonce. */
export function lockText(me: ProcessIdentity): string {
  return (
    JSON.stringify({
      ember_lock: LOCK_VERSION,
      pid: me.pid,
      host: me.host,
      boot_id: me.bootId,
      pid_ns: me.pidNamespace,
      start_ticks: me.startTicks,
      started_at: new Date().toISOString(),
      nonce: randomBytes(12).toString('hex'),
    }) + '\n'
  );
}

// link() errors that mean "no hard links here", not "the lock exists".
const LINK_UNSUPPORTED = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'ENOSYS', 'EMLINK']);

/** Creates `path` holding `text` if it does not exist; false if it exists. Other failures: OutputError. */
async function createExclusive(path: string, text: string): Promise<boolean> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, text, { flag: 'wx', mode: 0o644 });
    try {
      await link(temp, path);
      return true;
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'EEXIST') return false;
      if (code === undefined || !LINK_UNSUPPORTED.has(code)) throw error;
    }
    // No hard links: O_EXCL on the lock itself (atomic on NFSv3+); a reader may briefly see it empty.
    let handle;
    try {
      handle = await open(path, 'wx', 0o644);
    } catch (error) {
      if (errnoCode(error) === 'EEXIST') return false;
      throw error;
    }
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if (error instanceof OutputError) throw error;
    throw new OutputError(`cannot create lock ${path}: ${errnoText(error)}`);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

async function readOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw new OutputError(`cannot read lock ${path}: ${errnoText(error)}`);
  }
}

function lockedError(out: string, holder: LockHolder, state: 'alive' | 'unknown'): OutputError {
  const lock = lockPath(out);
  const clear =
    state === 'alive'
      ? 'wait for it to finish or stop it (SIGTERM stops it resumably)'
      : `it runs on another host or container; if no emberbench process there writes ${out} any more (e.g. its pod or job is gone), remove ${lock} and run again`;
  return new OutputError(`output ${out} is being written by another process (${describeHolder(holder)}); only one process writes an output: ${clear}`);
}

/** The held lock: release() removes it if it is still ours. */
export interface OutputLock {
  readonly path: string;
  release(): Promise<void>;
}

export interface LockOptions {
  /** Holds the lock until released, and removes it at process exit; default processScope. */
  readonly scope?: ResourceScope;
  /** Told when a stale lock of a dead holder is taken over (one line, no newline). */
  readonly onNotice?: (text: string) => void;
}

const TAKEOVER_WAIT_MS = 25;
const TAKEOVER_ATTEMPTS = 400;

/**
 * Takes the lock of `out` (OutputError, exit 6, when another live or
 * unknown process holds it). The output's directory must exist (checked by
 * the caller's checkOutputPath first, for its precise message).
 */
export async function acquireOutputLock(out: string, options: LockOptions = {}): Promise<OutputLock> {
  const path = lockPath(out);
  const text = lockText(currentProcess());
  for (let attempt = 0; attempt < TAKEOVER_ATTEMPTS; attempt++) {
    if (await createExclusive(path, text)) return held(path, text, options.scope ?? processScope);
    const found = await readOrUndefined(path);
    if (found === undefined) continue; // released meanwhile: try again
    const holder = parseLockText(found);
    if (holder === undefined) {
      // An O_EXCL lock being written right now reads empty for an instant.
      if (found === '') {
        await sleep(TAKEOVER_WAIT_MS);
        continue;
      }
      throw new OutputError(`${path} is not an emberbench lock (version ${LOCK_VERSION}); if no emberbench process writes ${out}, remove it and run again`);
    }
    const state = processState(holder);
    if (state !== 'dead') throw lockedError(out, holder, state);
    if (await breakStaleLock(path, found)) {
      options.onNotice?.(`took over the lock of ${out}: its holder (${describeHolder(holder)}) is no longer running on this host`);
    } else {
      await sleep(TAKEOVER_WAIT_MS);
    }
  }
  throw new OutputError(`cannot take the lock ${path}: other processes keep taking it over; run one process per output`);
}

/**
 * Removes the stale lock if its text is still `stale`, while holding
 * `OUT.lock.takeover`; false when another process is taking it over (try
 * again). A takeover file left by a breaker that died is refused with how to
 * clear it: a crash within those few microseconds is not guessed at.
 */
async function breakStaleLock(path: string, stale: string): Promise<boolean> {
  const takeover = `${path}.takeover`;
  const mine = lockText(currentProcess());
  if (!(await createExclusive(takeover, mine))) {
    const other = await readOrUndefined(takeover);
    const holder = other === undefined ? undefined : parseLockText(other);
    if (holder !== undefined && processState(holder) === 'dead') {
      throw new OutputError(`a takeover of the stale lock ${path} was interrupted (${describeHolder(holder)}); if no emberbench process writes the output, remove ${path} and ${takeover} and run again`);
    }
    return false;
  }
  try {
    if ((await readOrUndefined(path)) === stale) await unlink(path).catch(() => undefined);
    return true;
  } finally {
    await unlinkIfText(takeover, mine);
  }
}

async function unlinkIfText(path: string, text: string): Promise<void> {
  if ((await readOrUndefined(path).catch(() => undefined)) === text) await unlink(path).catch(() => undefined);
}

function unlinkIfTextSync(path: string, text: string): void {
  try {
    if (readFileSync(path, 'utf8') === text) unlinkSync(path);
  } catch {
    // already gone, or not ours
  }
}

function held(path: string, text: string, scope: ResourceScope): OutputLock {
  let released = false;
  // The exit hook removes it when the process exits holding it (process.exit on a second Ctrl+C, an uncaught error).
  const release: Release = scope.add({ dispose: () => unlinkIfText(path, text), onExit: () => unlinkIfTextSync(path, text) });
  return {
    path,
    async release() {
      if (released) return;
      released = true;
      release();
      await unlinkIfText(path, text);
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The lock of `out` as `evaluation status` shows it: none, or its holder and whether it is alive. */
export function lockStatus(out: string): { readonly holder: LockHolder; readonly state: 'alive' | 'dead' | 'unknown' } | 'unreadable' | undefined {
  let text: string;
  try {
    text = readFileSync(lockPath(out), 'utf8');
  } catch {
    return undefined;
  }
  const holder = parseLockText(text);
  return holder === undefined ? 'unreadable' : { holder, state: processState(holder) };
}

/** Runs `work` holding the lock of `out`; the lock is released however `work` ends. */
export async function withOutputLock<T>(out: string, options: LockOptions, work: () => Promise<T>): Promise<T> {
  const lock = await acquireOutputLock(out, options);
  try {
    return await work();
  } finally {
    await lock.release();
  }
}
