/**
 * A new output directory, written whole or not at all: environment packs,
 * official bundles, generated batches, archive exports.
 *
 * The target must not exist (a directory is never replaced: there is no
 * --force) and must not lie inside an input directory. It is reserved with
 * an exclusive mkdir (a placeholder holding only a mark naming its owner,
 * output-placeholder.ts, so a directory another process creates meanwhile is
 * never replaced, and a placeholder left by a killed process is cleared by
 * the next run); the content is written into a
 * temporary directory beside it (each file fsynced), checked by the caller,
 * and renamed over the empty placeholder in one step. On any failure, and on
 * Ctrl+C (files.ts removePendingOutputs), the temporary directory and the
 * placeholder are removed: nothing is left behind. A SIGKILL leaves the
 * marked placeholder (and the temporary directory), which the next run
 * clears once its owner is provably dead.
 */

import { randomBytes } from 'node:crypto';
import { constants, lstatSync, realpathSync, statSync } from 'node:fs';
import { copyFile, lstat, mkdir, open, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { OutputError, isEmberError } from '../core/errors.js';
import { trackPendingDirectory, trackPendingRemoval } from './files.js';
import { errnoCode } from './errno.js';
import { clearDeadPlaceholder, markPlaceholder, removeOwnedPlaceholder, tempPrefix, unmarkPlaceholder, type OwnedPlaceholder } from './output-placeholder.js';

function isInside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

/** Trailing separators would make `basename` empty: `out/` names `out`. */
export function stripTrailingSeparators(path: string): string {
  return path.length > 1 ? path.replace(/[\\/]+$/, '') : path;
}

/** How messages name the directory being written. */
export interface OutputDirectoryKind {
  /** The artifact: `environment pack`. */
  readonly what: string;
  /** Why an existing directory is refused: `a pack is always built into a new directory`. */
  readonly existsNote: string;
}

/** An input directory the output must not lie inside, and how messages name it (`suite directory`). */
export interface InputDirectory {
  readonly dir: string;
  readonly label: string;
}

/**
 * The output directory must not exist, its parent must, and it must not lie
 * inside an input directory.
 */
export function checkOutputDirectory(out: string, kind: OutputDirectoryKind, inputDirs: readonly InputDirectory[]): void {
  if (out === '') throw new OutputError('output directory path is empty');
  const parent = dirname(resolve(out));
  let parentIsDir = false;
  try {
    parentIsDir = statSync(parent).isDirectory();
  } catch {
    throw new OutputError(`output parent directory does not exist: ${dirname(out)}`);
  }
  if (!parentIsDir) throw new OutputError(`output parent is not a directory: ${dirname(out)}`);
  let exists = true;
  try {
    lstatSync(out);
  } catch {
    exists = false;
  }
  // Never replaced, not even an empty one: there is no --force. Only the
  // placeholder of a provably dead emberbench process is cleared.
  if (exists && !clearDeadPlaceholder(out)) throw new OutputError(`output directory exists (${kind.existsNote}): ${out}`);
  for (const input of inputDirs) {
    let inputReal: string;
    try {
      inputReal = realpathSync(input.dir);
    } catch {
      continue; // a missing input is its loader's error
    }
    if (isInside(realpathSync(parent), inputReal)) {
      throw new OutputError(`output ${out} is inside the input ${input.label} ${input.dir}; inputs are never written`);
    }
  }
}

/** Creates a file that must not exist yet, writes it and fsyncs it. */
export async function writeFileSynced(path: string, data: Uint8Array | string): Promise<void> {
  const handle = await open(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o666);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Copies a file to a new path (never over an existing one) and makes the copy durable, like writeFileSynced. */
export async function copyFileSynced(from: string, to: string): Promise<void> {
  await copyFile(from, to, constants.COPYFILE_EXCL);
  const handle = await open(to, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes new entries durable; not every platform can open a directory. */
export async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, constants.O_RDONLY);
    await handle.sync().catch(() => undefined);
    await handle.close();
  } catch {
    // best effort
  }
}

/**
 * Renames the temporary directory over the empty placeholder. POSIX rename
 * replaces an empty directory atomically and fails if it is not empty
 * (someone wrote into it: then it is not replaced). Where rename cannot
 * replace a directory at all (Windows), the placeholder is removed first,
 * but only while it is still ours and empty.
 */
async function publish(temp: string, target: string, ours: OwnedPlaceholder): Promise<void> {
  unmarkPlaceholder(ours);
  try {
    await rename(temp, target);
    return;
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOTEMPTY') throw new OutputError(`output directory ${target} was written by another process; it is not replaced`);
    if (code !== 'EPERM' && code !== 'EEXIST' && code !== 'EACCES' && code !== 'EISDIR') throw error;
  }
  const now = await lstat(target).catch(() => undefined);
  if (now === undefined || now.dev !== ours.dev || now.ino !== ours.ino || (await readdir(target)).length !== 0) {
    throw new OutputError(`output directory ${target} was changed by another process; it is not replaced`);
  }
  await rmdir(target);
  try {
    await rename(temp, target);
  } catch (error) {
    if (errnoCode(error) === 'EEXIST' || errnoCode(error) === 'ENOTEMPTY') throw new OutputError(`output directory exists: ${target}`);
    throw error;
  }
}

/** Creates the marked placeholder (clearing one a dead process left first). */
async function reserve(target: string, kind: OutputDirectoryKind): Promise<OwnedPlaceholder> {
  for (let attempt = 0; ; attempt++) {
    try {
      await mkdir(target);
      break;
    } catch (error) {
      if (errnoCode(error) === 'EEXIST') {
        if (attempt === 0 && clearDeadPlaceholder(target)) continue;
        throw new OutputError(`output directory exists (${kind.existsNote}): ${target}`);
      }
      throw new OutputError(`cannot create output directory ${target}: ${errnoCode(error) ?? String(error)}`);
    }
  }
  try {
    return markPlaceholder(target);
  } catch (error) {
    await rmdir(target).catch(() => undefined);
    throw new OutputError(`cannot create output directory ${target}: ${errnoCode(error) ?? String(error)}`);
  }
}

export interface OutputDirectoryHooks {
  /** Runs after the temporary directory is complete and checked, before it is renamed into place (a seam for tests). */
  readonly beforePublish?: (tempDir: string) => void | Promise<void>;
}

/**
 * Writes a new directory `target` atomically: `fill(temp)` writes every
 * file into the temporary directory (with writeFileSynced) and may read it
 * back to check it; its value is returned once the directory is published.
 * Call checkOutputDirectory first, before any long computation.
 */
export async function writeOutputDirectory<T>(target: string, kind: OutputDirectoryKind, fill: (temp: string) => Promise<T>, hooks: OutputDirectoryHooks = {}): Promise<T> {
  const ours = await reserve(target, kind);
  const untrackPlaceholder = trackPendingRemoval(() => removeOwnedPlaceholder(ours));
  const temp = join(dirname(resolve(target)), `${tempPrefix(target, process.pid)}${randomBytes(6).toString('hex')}.tmp`);
  const untrackTemp = trackPendingDirectory(temp, true);
  try {
    await mkdir(temp);
    const value = await fill(temp);
    await syncDirectory(temp);
    await hooks.beforePublish?.(temp);
    await publish(temp, target, ours);
    untrackTemp();
    untrackPlaceholder();
    await syncDirectory(dirname(resolve(target)));
    return value;
  } catch (error) {
    await rm(temp, { recursive: true, force: true }).catch(() => undefined);
    removeOwnedPlaceholder(ours);
    untrackTemp();
    untrackPlaceholder();
    if (isEmberError(error)) throw error;
    throw new OutputError(`cannot write ${kind.what} ${target}: ${errnoCode(error) ?? String(error)}`);
  }
}
