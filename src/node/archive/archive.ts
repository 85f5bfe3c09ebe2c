/**
 * The archive: one SQLite file (db.ts) holding artifacts by digest
 * (artifacts.ts), the inputs (inputs-store.ts, catalog-queries.ts), trials
 * and episodes (trials-store.ts, queries.ts) and trial signatures
 * (trial-signatures.ts), housekeeping (trial-housekeeping.ts: delete,
 * labels, notes, tags, run log). An `Archive` is one connection; a writer's every
 * change is one transaction.
 *
 * The store: those modules (and db.ts, migrations.ts) are the only code
 * that holds the database handle or writes SQL. Everything else passes an
 * `Archive` to their typed functions; the handle is not part of its public
 * type (connectionOf is for the store modules and the tests' kit only), and
 * the lint (eslint.config.js, ARCHIVE_STORE) fails SQL anywhere else.
 */

import type Database from 'better-sqlite3';
import { join, dirname, basename } from 'node:path';
import { withArchiveFaults } from './archive-errors.js';
import { openArchiveFile, stmt, type Db, type OpenOptions } from './db.js';
import { checkStorageFault } from './storage-faults.js';
import { processScope } from '../lifetime.js';

const connections = new WeakMap<Archive, Db>();

export class Archive {
  private constructor(
    readonly path: string,
    private readonly closeFile: () => void,
  ) {}

  /** Opens (creating and migrating when writing) the archive at `path`; 'read' opens an existing one read-only. */
  static open(path: string, options: OpenOptions = { mode: 'write' }): Archive {
    const opened = openArchiveFile(path, options);
    // A process that exits with the archive open (Ctrl+C is process.exit) closes it as close() would:
    // SQLite then removes the log files (-wal, -shm) and the writer lock's journal instead of leaving them.
    const release = processScope.add({ dispose: () => opened.close(), onExit: () => opened.close() });
    const archive = new Archive(opened.path, () => {
      release();
      opened.close();
    });
    connections.set(archive, opened.db);
    return archive;
  }

  /**
   * Runs `work` in one IMMEDIATE transaction: all of it commits, or none of
   * it. A full disk, a damaged file or a read-only one fails it with its own
   * error (archive-errors.ts), naming this archive. `work` gets this
   * archive, for the store's functions.
   */
  write<T>(work: (archive: Archive) => T): T {
    return withArchiveFaults(this.path, () =>
      connectionOf(this)
        .transaction(() => {
          const result = work(this);
          checkStorageFault(this.path);
          return result;
        })
        .immediate(),
    );
  }

  /** Runs `work` (reads); a damaged file fails it with its own error, naming this archive. */
  read<T>(work: (archive: Archive) => T): T {
    return withArchiveFaults(this.path, () => work(this));
  }

  /** The folder beside the archive file for what is kept outside the database (a language-model run's transcripts). */
  get cacheDir(): string {
    return join(dirname(this.path), `${basename(this.path)}.cache`);
  }

  close(): void {
    this.closeFile();
  }
}

/** The database handle of an archive: for the store modules (and the tests' kit) only; the lint refuses it elsewhere. */
export function connectionOf(archive: Archive): Db {
  const db = connections.get(archive);
  if (db === undefined) throw new Error('archive: no connection (an Archive is made by Archive.open)');
  return db;
}

/** A cached prepared statement of an archive's connection, typed with its row (db.ts stmt). */
export function statement<Row = unknown>(archive: Archive, sql: string): Database.Statement<unknown[], Row> {
  return stmt<Row>(connectionOf(archive), sql);
}
