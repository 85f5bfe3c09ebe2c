/**
 * The evaluation checkpoint: `evaluation run` saves the whole result after
 * every episode, and it is the only command that replaces its own output
 * (cli-v1.0.md "evaluation run"; it has no --force).
 *
 * - The first write of a new output goes through writeOutputFile without
 *   --force: temp file, fsync, hard link. A file that appeared since the
 *   output was checked is never replaced (exit 6).
 * - Every later write (and every write of a resumed output) goes to a temp
 *   file in the same directory, is fsynced and renamed over the previous
 *   checkpoint, so a crash, kill -9 or Ctrl+C leaves the last complete one.
 *   The output must still be the file this writer wrote (same device and
 *   inode); a file replaced by someone else is not overwritten.
 * - Temp files are removed on every failure path and, synchronously, when
 *   the process exits (the CLI's SIGINT handler exits with 130), through a
 *   ResourceScope (lifetime.ts).
 *
 * FileCheckpointSink (file-sink.ts) is the runner's ResultSink over it.
 */

import { randomBytes } from 'node:crypto';
import { constants, unlinkSync } from 'node:fs';
import { lstat, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { OutputError, isEmberError } from '../../core/errors.js';
import { writeOutputFile } from '../files.js';
import { processScope, type Resource, type ResourceScope } from '../lifetime.js';
import { errnoText } from '../errno.js';

interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
}

/** A temp file being written: removed on dispose or, synchronously, at exit. */
function tempResource(temp: string): Resource {
  const remove = (): void => {
    try {
      unlinkSync(temp);
    } catch {
      // already renamed or removed
    }
  };
  return { dispose: remove, onExit: remove };
}

async function identityOf(path: string): Promise<FileIdentity | undefined> {
  try {
    const s = await lstat(path);
    return { dev: s.dev, ino: s.ino };
  } catch {
    return undefined;
  }
}

async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, constants.O_RDONLY);
    await handle.sync().catch(() => undefined);
    await handle.close();
  } catch {
    // best effort: not every platform can open a directory
  }
}

export class CheckpointWriter {
  private identity: FileIdentity | undefined;
  private writes = 0;

  /**
   * `existing` is the identity of the output file being resumed (read and
   * authenticated by the caller), or undefined for a new output.
   */
  constructor(
    readonly path: string,
    private readonly inputs: readonly string[],
    existing: FileIdentity | undefined,
    private readonly scope: ResourceScope = processScope,
  ) {
    this.identity = existing;
  }

  /** The identity of an existing output, for a resumed checkpoint. */
  static async identify(path: string): Promise<FileIdentity | undefined> {
    return identityOf(path);
  }

  /** How many checkpoints this writer has saved. */
  get count(): number {
    return this.writes;
  }

  async write(text: string): Promise<void> {
    if (this.identity === undefined) {
      await writeOutputFile(this.path, text, { force: false, inputs: this.inputs });
      this.identity = await identityOf(this.path);
    } else {
      await this.replace(text);
    }
    this.writes += 1;
  }

  private async replace(text: string): Promise<void> {
    const path = this.path;
    const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    const release = this.scope.add(tempResource(temp));
    try {
      const handle = await open(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o666);
      try {
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      const now = await identityOf(path);
      if (now === undefined || now.dev !== this.identity!.dev || now.ino !== this.identity!.ino) {
        throw new OutputError(`checkpoint ${path} was removed or replaced by another process; not overwriting it`);
      }
      await rename(temp, path);
      release();
      this.identity = await identityOf(path);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      if (isEmberError(error)) throw error;
      throw new OutputError(`cannot write checkpoint ${path}: ${errnoText(error)}`);
    } finally {
      release();
    }
    await syncDirectory(dirname(resolve(path)));
  }
}
