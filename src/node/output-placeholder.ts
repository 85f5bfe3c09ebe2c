/**
 * The placeholder that reserves a new output directory (output-directory.ts)
 * names its owner, so that a SIGKILL between reserving and publishing does
 * not block every later run with "exists".
 *
 * The placeholder holds one file, OWNER_MARK, whose text is a lock text
 * (output-lock.ts: pid, host, boot id, pid namespace, start time, nonce).
 * Just before the finished temporary directory is renamed over it, the mark
 * is removed (POSIX rename replaces only an empty directory). A later run
 * that finds a placeholder:
 *
 * - whose owner is provably dead on this host (same boot and pid namespace,
 *   pid gone or reused) clears it, with the dead owner's temporary
 *   directories beside it, and says so (a notice on stderr);
 * - whose owner is alive, or runs on another host or container, is refused
 *   naming the owner (it is never cleared: a process elsewhere is never
 *   presumed dead);
 * - that is empty, or holds anything else, is an existing directory, refused
 *   as before (a mark not yet written, or removed just before the rename, is
 *   a window of microseconds; a folder someone made is not ours).
 */

import { closeSync, lstatSync, openSync, readFileSync, readdirSync, rmSync, rmdirSync, unlinkSync, writeSync, fsyncSync, constants } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { OutputError } from '../core/errors.js';
import { errnoText } from './errno.js';
import { describeHolder, lockText, parseLockText, type LockHolder } from './output-lock.js';
import { currentProcess, processState } from './process-identity.js';

/** The file inside a placeholder that names its owner. */
export const OWNER_MARK = '.emberbench-owner';

/** A placeholder this process created: its identity and the text of its mark. */
export interface OwnedPlaceholder {
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
  readonly markText: string;
}

let noticeSink: ((text: string) => void) | undefined;

/**
 * Where the notice of a cleared placeholder goes (the CLI's stderr unless
 * --json); returns the function that restores the previous one.
 */
export function setPlaceholderNotices(sink: ((text: string) => void) | undefined): () => void {
  const previous = noticeSink;
  noticeSink = sink;
  return () => {
    noticeSink = previous;
  };
}

/** The prefix of the temporary directories writeOutputDirectory makes beside `target` for process `pid`. */
export function tempPrefix(target: string, pid: number): string {
  return `.${basename(target)}.${pid}.`;
}

/** Writes the owner mark into the just-created, empty placeholder `path`. */
export function markPlaceholder(path: string): OwnedPlaceholder {
  const markText = lockText(currentProcess());
  const fd = openSync(join(path, OWNER_MARK), constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o644);
  try {
    writeSync(fd, markText);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const stats = lstatSync(path);
  return { path, dev: stats.dev, ino: stats.ino, markText };
}

function readMark(path: string): string | undefined {
  try {
    return readFileSync(join(path, OWNER_MARK), 'utf8');
  } catch {
    return undefined;
  }
}

/** Removes the mark if it is still ours (before the rename over the placeholder, or on cleanup). */
export function unmarkPlaceholder(ours: OwnedPlaceholder): void {
  try {
    const now = lstatSync(ours.path);
    if (now.dev === ours.dev && now.ino === ours.ino && readMark(ours.path) === ours.markText) unlinkSync(join(ours.path, OWNER_MARK));
  } catch {
    // gone already
  }
}

/** Removes the placeholder while it is still ours and holds nothing but our mark. */
export function removeOwnedPlaceholder(ours: OwnedPlaceholder): void {
  unmarkPlaceholder(ours);
  try {
    const now = lstatSync(ours.path);
    if (now.dev === ours.dev && now.ino === ours.ino && readdirSync(ours.path).length === 0) rmdirSync(ours.path);
  } catch {
    // gone already, or not empty: not ours to remove
  }
}

/** The owner named by the placeholder at `target`, or undefined when `target` is not a marked placeholder. */
function placeholderOwner(target: string): { readonly holder: LockHolder; readonly text: string; readonly dev: number; readonly ino: number } | undefined {
  try {
    const stats = lstatSync(target);
    if (!stats.isDirectory()) return undefined;
    const entries = readdirSync(target);
    if (entries.length !== 1 || entries[0] !== OWNER_MARK || !lstatSync(join(target, OWNER_MARK)).isFile()) return undefined;
    const text = readMark(target);
    const holder = text === undefined ? undefined : parseLockText(text);
    return holder === undefined || text === undefined ? undefined : { holder, text, dev: stats.dev, ino: stats.ino };
  } catch {
    return undefined;
  }
}

/**
 * For an existing `target`: clears it when it is the placeholder of a
 * provably dead owner (true, with a notice); refuses a placeholder of a live
 * owner or of one elsewhere (OutputError naming it); false for anything else
 * (the caller refuses an existing directory).
 */
export function clearDeadPlaceholder(target: string): boolean {
  const found = placeholderOwner(target);
  if (found === undefined) return false;
  const { holder } = found;
  const state = processState(holder);
  if (state === 'alive') {
    throw new OutputError(`output directory ${target} is being written by another process (${describeHolder(holder)}); wait for it to finish or stop it`);
  }
  if (state === 'unknown') {
    throw new OutputError(
      `output directory ${target} was reserved by a process on another host or container (${describeHolder(holder)}); if no emberbench process there writes it any more, remove ${target} and run again`,
    );
  }
  const parent = dirname(resolve(target));
  const prefix = tempPrefix(target, holder.pid);
  try {
    for (const name of readdirSync(parent)) {
      if (name.startsWith(prefix) && name.endsWith('.tmp')) rmSync(join(parent, name), { recursive: true, force: true });
    }
    // Only while it is still the same placeholder with the same dead owner's mark.
    const now = lstatSync(target);
    if (now.dev !== found.dev || now.ino !== found.ino || readMark(target) !== found.text) return false;
    unlinkSync(join(target, OWNER_MARK));
    rmdirSync(target);
  } catch (error) {
    throw new OutputError(`cannot clear the output placeholder ${target} left by a process that is no longer running (${describeHolder(holder)}): ${errnoText(error)}; remove it and run again`);
  }
  noticeSink?.(`cleared the output placeholder ${target} left by a process that is no longer running on this host (${describeHolder(holder)})`);
  return true;
}
