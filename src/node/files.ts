/**
 * Output files (cli-v1.0.md "Files", evaluation.md section 1 "Writes").
 *
 * - An output that is also an input is refused, even with --force.
 * - Parent directories are never created; an output that is a directory, or
 *   that exists without --force, is refused.
 * - The bytes go to a temporary file in the same directory, fsynced, then
 *   hard-linked to the output (no --force: the link fails if the output
 *   exists, so a file created meanwhile is never replaced) or renamed over it
 *   (--force: atomic replace).
 * - Without hard links the output is created with O_CREAT | O_EXCL and
 *   written directly; on failure it is removed only if it is still ours.
 * - On every failure path, and on SIGINT (see removePendingOutputs), no
 *   output and no temporary file is left behind.
 *
 * Every refusal is an OutputError (exit 6). Messages name paths as given.
 */

import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, lstatSync, openSync, readSync, rmSync, rmdirSync, unlinkSync, type Stats } from 'node:fs';
import { link, lstat, open, readdir, realpath, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { OutputError, isEmberError } from '../core/errors.js';
import { processScope, type Release } from './lifetime.js';
import { errnoCode, errnoText } from './errno.js';

export interface OutputOptions {
  /** Replace an existing output file (never an input, never a directory). */
  readonly force: boolean;
  /**
   * The paths the command reads: files, or directories (a suite). An output
   * that is the same file as an input file, or lies inside an input
   * directory, is refused: inputs are never written.
   */
  readonly inputs: readonly string[];
  /**
   * What to do about an existing output, for a command without --force
   * (default: `use --force to replace it`).
   */
  readonly existsAdvice?: string;
}

/** Seams for tests: failures and races that a real filesystem rarely shows on demand. */
export interface WriteHooks {
  /** Runs after the temporary file is written and fsynced, before it is published. */
  readonly afterTempWritten?: (tempPath: string) => void | Promise<void>;
  /** Replaces fs.link (to simulate a filesystem without hard links). */
  readonly link?: (existingPath: string, newPath: string) => Promise<void>;
  /** Runs in the O_EXCL fallback after the output is created, before its bytes are written. */
  readonly beforeDirectWrite?: (path: string) => void | Promise<void>;
}

export interface WriteOptions extends OutputOptions {
  readonly hooks?: WriteHooks;
  /** The new file's permission bits, given when it is created (never chmod'ed after): 0o600 for a secret key. Default 0o666 less the umask. */
  readonly mode?: number;
}

// link() errors that mean "this filesystem has no hard links here", not "the output exists".
const LINK_UNSUPPORTED = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'ENOSYS', 'EMLINK', 'EACCES']);

/**
 * Temporary files being written, outputs being written directly and
 * directories being built, held in one scope (lifetime.ts): removed by
 * removePendingOutputs (Ctrl+C) and, synchronously, at process exit.
 */
const pendingOutputs = processScope.child();

function quietly(run: () => void): void {
  try {
    run();
  } catch {
    // already gone, or no longer ours to remove
  }
}

/** A pending output: the same removal on dispose and at exit. */
function pending(remove: () => void): Release {
  return pendingOutputs.add({ dispose: () => quietly(remove), onExit: () => quietly(remove) });
}

/**
 * Registers a directory that a command is building, so that Ctrl+C removes
 * it (removePendingOutputs): a temporary tree with `recursive`, or an empty
 * placeholder (removed only while still empty). Returns the function that
 * stops tracking it, called once the directory is published or cleaned up.
 */
export function trackPendingDirectory(path: string, recursive: boolean): () => void {
  if (!recursive) return trackPendingRemoval(() => rmdirSync(path));
  return pending(() => rmSync(path, { recursive: true, force: true }));
}

/**
 * Registers a synchronous removal for Ctrl+C and process exit (errors are
 * ignored: already gone, or no longer ours); returns the function that
 * stops tracking it. A placeholder's removal checks that it is still its own.
 */
export function trackPendingRemoval(remove: () => void): () => void {
  return pending(remove);
}

async function statOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch {
    return undefined;
  }
}

async function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch {
    return undefined;
  }
}

function existsError(path: string, advice = 'use --force to replace it'): OutputError {
  return new OutputError(`output file exists (${advice}): ${path}`);
}

function isInside(child: string, dir: string): boolean {
  return child === dir || child.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** What a non-regular directory entry is, in words for a message. */
function entryKind(stats: Stats): string {
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isDirectory()) return 'a directory';
  return 'not a regular file';
}

/**
 * Whether a file with this dev+ino lies inside `dir` (a hard link to it
 * elsewhere is the same file). Only called for an output with more than one
 * link, so a walk is rare; input directories are suites and batches (small).
 */
async function hasFileInside(dir: string, target: Stats): Promise<boolean> {
  const pending = [dir];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    let entries;
    try {
      entries = await readdir(next, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = join(next, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile()) {
        const stats = await statOrUndefined(path);
        if (stats && stats.dev === target.dev && stats.ino === target.ino) return true;
      }
    }
  }
  return false;
}

/**
 * Refuses an output that is an input file (same realpath or same dev+ino),
 * lies inside an input directory, or is (a symlink or a hard link to) a
 * file inside one: inputs are never written, not even with --force.
 */
async function refuseInputs(path: string, inputs: readonly string[]): Promise<void> {
  const outStat = await statOrUndefined(path);
  const outReal = outStat ? await realpath(path) : undefined;
  const parentReal = await realpath(dirname(resolve(path)));
  for (const input of inputs) {
    const inStat = await statOrUndefined(input);
    // A missing input is its loader's error, reported before outputs are checked.
    if (!inStat) continue;
    const inReal = await realpath(input);
    if (inStat.isDirectory()) {
      if (isInside(parentReal, inReal)) {
        throw new OutputError(`output ${path} is inside the input directory ${input}; inputs are never written`);
      }
      const linked = outReal !== undefined && isInside(outReal, inReal);
      if (linked || (outStat !== undefined && outStat.isFile() && outStat.nlink > 1 && (await hasFileInside(inReal, outStat)))) {
        throw new OutputError(`output ${path} is a link to a file inside the input directory ${input}; inputs are never written: choose another output path`);
      }
      continue;
    }
    const sameFile = outStat !== undefined && outStat.dev === inStat.dev && outStat.ino === inStat.ino;
    if (sameFile || outReal === inReal) {
      throw new OutputError(`output ${path} is the input file ${input}; inputs are never written`);
    }
  }
}

/**
 * With --force only a regular file is replaced: a device, FIFO, socket or
 * symbolic link at the output path is refused by name (as root, a rename
 * would otherwise replace /dev/full with a file).
 */
async function refuseNonRegular(path: string): Promise<void> {
  const entry = await lstatOrUndefined(path);
  if (entry !== undefined && !entry.isFile()) {
    throw new OutputError(`output ${path} is ${entryKind(entry)}, not a regular file; only a regular file is ever replaced: choose another output path`);
  }
}

/**
 * Checks an output path before any work is done (before an agent is
 * imported or an episode runs). writeOutputFile checks again when it writes.
 */
export async function checkOutputPath(path: string, options: OutputOptions): Promise<void> {
  if (path === '') throw new OutputError('output path is empty');
  if (path.endsWith('/') || path.endsWith(sep)) throw new OutputError(`output path names a directory: ${path}`);
  const parent = dirname(resolve(path));
  const parentStat = await statOrUndefined(parent);
  if (!parentStat) throw new OutputError(`output directory does not exist: ${dirname(path)}`);
  if (!parentStat.isDirectory()) throw new OutputError(`output parent is not a directory: ${dirname(path)}`);
  const outStat = await statOrUndefined(path);
  if (outStat?.isDirectory()) throw new OutputError(`output is a directory: ${path}`);
  await refuseInputs(path, options.inputs);
  await refuseNonRegular(path);
  // lstat also sees a dangling symlink, which link() would refuse as well.
  if (!options.force && (await lstatOrUndefined(path))) throw existsError(path, options.existsAdvice);
}

function tempPathFor(path: string): string {
  // Random, so two writers of one output never share a temporary file; the
  // name never reaches an artifact.
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

async function removeQuietly(path: string): Promise<void> {
  await rm(path, { force: true }).catch(() => undefined);
}

/** Removes the output only if it is still the file this process created. */
async function removeIfOurs(path: string, ours: { readonly dev: number; readonly ino: number }): Promise<void> {
  const now = await lstatOrUndefined(path);
  if (now && now.dev === ours.dev && now.ino === ours.ino) await unlink(path).catch(() => undefined);
}

function asOutputError(error: unknown, path: string): Error {
  if (isEmberError(error)) return error;
  if (errnoCode(error) === 'ENOSPC') return new OutputError(`cannot write output ${path}: the disk is full (ENOSPC, no space left on device); free some space on that disk and try again`);
  return new OutputError(`cannot write output ${path}: ${errnoText(error)}`);
}

/**
 * Output text given in pieces (a result of several GB is never one string):
 * `pieces()` yields the text, and may be called more than once (the
 * O_EXCL fallback writes it again).
 */
export interface PieceSource {
  readonly pieces: () => Iterable<string>;
}

export type OutputData = Uint8Array | PieceSource;

/** Pieces are gathered into writes of about this many bytes. */
const WRITE_CHUNK_BYTES = 4 << 20;

async function writeData(handle: FileHandle, data: OutputData): Promise<void> {
  if (data instanceof Uint8Array) {
    await handle.writeFile(data);
    return;
  }
  let batch: string[] = [];
  let size = 0;
  for (const piece of data.pieces()) {
    batch.push(piece);
    size += piece.length;
    if (size >= WRITE_CHUNK_BYTES) {
      await handle.writeFile(batch.join(''), 'utf8');
      batch = [];
      size = 0;
    }
  }
  if (size > 0) await handle.writeFile(batch.join(''), 'utf8');
}

async function writeTemp(temp: string, data: OutputData, mode: number): Promise<void> {
  const handle = await open(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, mode);
  try {
    await writeData(handle, data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The O_CREAT | O_EXCL fallback for filesystems without hard links. */
async function writeExclusive(path: string, data: OutputData, hooks: WriteHooks | undefined, advice: string | undefined, mode: number): Promise<void> {
  let handle;
  try {
    handle = await open(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, mode);
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') throw existsError(path, advice);
    throw asOutputError(error, path);
  }
  const { dev, ino } = await handle.stat();
  const release = pending(() => {
    const now = lstatSync(path);
    if (now.dev === dev && now.ino === ino) unlinkSync(path);
  });
  try {
    await hooks?.beforeDirectWrite?.(path);
    await writeData(handle, data);
    await handle.sync();
    await handle.close();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await removeIfOurs(path, { dev, ino });
    throw asOutputError(error, path);
  } finally {
    release();
  }
}

async function syncDirectory(dir: string): Promise<void> {
  // Makes the new directory entry durable; not every platform can open a directory.
  try {
    const handle = await open(dir, constants.O_RDONLY);
    await handle.sync().catch(() => undefined);
    await handle.close();
  } catch {
    // best effort
  }
}

/**
 * Writes `text` (ASCII artifact text, or its pieces) to `path` under the output rules.
 * Throws OutputError (exit 6); leaves nothing behind on failure.
 */
export async function writeOutputFile(path: string, text: string | OutputData, options: WriteOptions): Promise<void> {
  await checkOutputPath(path, options);
  const data = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const hooks = options.hooks;
  const temp = tempPathFor(path);
  const release = pending(() => unlinkSync(temp));
  try {
    await writeTemp(temp, data, options.mode ?? 0o666);
    await hooks?.afterTempWritten?.(temp);
    if (options.force) {
      // Checked again right before the replace: an input never becomes the output.
      await refuseInputs(path, options.inputs);
      await refuseNonRegular(path);
      await rename(temp, path);
    } else {
      try {
        await (hooks?.link ?? link)(temp, path);
      } catch (error) {
        const code = errnoCode(error);
        if (code === 'EEXIST') throw existsError(path, options.existsAdvice);
        if (code === undefined || !LINK_UNSUPPORTED.has(code)) throw error;
        await removeQuietly(temp);
        await writeExclusive(path, data, hooks, options.existsAdvice, options.mode ?? 0o666);
      }
      await removeQuietly(temp);
    }
  } catch (error) {
    await removeQuietly(temp);
    throw asOutputError(error, path);
  } finally {
    release();
  }
  await syncDirectory(dirname(resolve(path)));
}

/**
 * Synchronously removes every temporary file being written and every output
 * being written directly that is still ours. Called from the SIGINT handler
 * right before the process exits with 130.
 */
export function removePendingOutputs(): void {
  pendingOutputs.runExitHooks();
}

/** The sha256 of a file's bytes, read in chunks (a file of any size). */
export function fileSha256(path: string): string {
  const hash = createHash('sha256');
  const chunk = Buffer.allocUnsafe(8 << 20);
  const fd = openSync(path, 'r');
  try {
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) hash.update(chunk.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}
