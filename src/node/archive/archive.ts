/**
 * The archive: one SQLite file (db.ts) holding artifacts by digest
 * (artifacts.ts), the inputs (inputs-store.ts) and trials (trials-store.ts).
 * An `Archive` is the one writer connection of its process; every change is
 * one transaction.
 */

import { join, dirname, basename } from 'node:path';
import { withArchiveFaults } from './archive-errors.js';
import { openArchiveFile, type Db, type OpenOptions } from './db.js';
import { checkStorageFault } from './storage-faults.js';

export class Archive {
  private constructor(
    readonly db: Db,
    readonly path: string,
    private readonly closeFile: () => void,
  ) {}

  /** Opens (creating and migrating when writing) the archive at `path`. */
  static open(path: string, options: OpenOptions = { mode: 'write' }): Archive {
    const opened = openArchiveFile(path, options);
    return new Archive(opened.db, opened.path, opened.close);
  }

  /**
   * Runs `work` in one IMMEDIATE transaction: all of it commits, or none of
   * it. A full disk, a damaged file or a read-only one fails it with its own
   * error (archive-errors.ts), naming this archive.
   */
  write<T>(work: (db: Db) => T): T {
    return withArchiveFaults(this.path, () =>
      this.db
        .transaction(() => {
          const result = work(this.db);
          checkStorageFault(this.path);
          return result;
        })
        .immediate(),
    );
  }

  /** Runs `work` (reads); a damaged file fails it with its own error, naming this archive. */
  read<T>(work: (db: Db) => T): T {
    return withArchiveFaults(this.path, () => work(this.db));
  }

  /** Folders materialized from the archive (suites and packs for runners and verifiers), beside the archive file. */
  get cacheDir(): string {
    return join(dirname(this.path), `${basename(this.path)}.cache`);
  }

  close(): void {
    this.closeFile();
  }
}
