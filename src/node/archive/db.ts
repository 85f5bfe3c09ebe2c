/**
 * Opening the archive file: WAL, foreign keys, a busy timeout, migrations,
 * and the one-writer rule.
 *
 * One writer: a writer first takes an exclusive SQLite lock on a small
 * sidecar file (`<archive>-lock`, locking_mode=EXCLUSIVE). The operating
 * system holds that lock until the connection closes or the process dies
 * (kill -9 included), so a second writer (another app window, `emberbench
 * archive import` while the app runs) gets a clear "in use" error instead
 * of two processes both marking trials interrupted. The archive itself stays
 * in normal WAL mode: readers (`archive list`) in any process read while
 * the writer writes, and every transaction is atomic, so a killed writer
 * leaves only whole transactions behind.
 */

import Database from 'better-sqlite3';
import { existsSync, linkSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ValidationError } from '../../core/errors.js';
import { errnoCode } from '../errno.js';
import {
  archiveFault,
  foreignDatabaseError,
  inUseError,
  newerSchemaError,
  olderSchemaError,
  readOnlyFolderError,
  withArchiveFaults,
} from './archive-errors.js';
import { inspectArchivePath } from './archive-file.js';
import { ARCHIVE_SCHEMA_VERSION, MIGRATIONS } from './migrations.js';
import { sqliteNativeBinding } from './sqlite-binding.js';

export type Db = Database.Database;

function binding(): { nativeBinding?: string } {
  const nativeBinding = sqliteNativeBinding();
  return nativeBinding === undefined ? {} : { nativeBinding };
}

export interface OpenOptions {
  /** 'write' takes the writer lock and migrates; 'read' opens read-only (the file must exist at the current version). */
  readonly mode: 'write' | 'read';
  /** How long to wait for a lock held by another connection, ms (default 5000). */
  readonly busyTimeoutMs?: number;
  /** Migrate only up to this version (the migration tests). */
  readonly targetVersion?: number;
}

export interface OpenedArchive {
  readonly db: Db;
  readonly path: string;
  close(): void;
}

/** The writer lock: an exclusive lock on `<path>-lock`, held until `close()` or the process ends. */
function takeWriterLock(path: string, timeoutMs: number): Db {
  let lock: Db | undefined;
  try {
    lock = new Database(`${path}-lock`, { timeout: timeoutMs, ...binding() });
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('CREATE TABLE IF NOT EXISTS owner (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL)');
    // The first write takes the EXCLUSIVE lock; locking_mode keeps it.
    lock.prepare('INSERT OR REPLACE INTO owner (id, pid) VALUES (1, ?)').run(process.pid);
    return lock;
  } catch (error) {
    lock?.close();
    const code = errnoCode(error);
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') throw inUseError(path);
    // The lock file is beside the archive: a folder that refuses it refuses the archive's log too.
    if (code === 'SQLITE_CANTOPEN' || code?.startsWith('SQLITE_READONLY') === true) throw readOnlyFolderError(path);
    throw archiveFault(path, error) ?? error;
  }
}

const statements = new WeakMap<Db, Map<string, Database.Statement<unknown[], unknown>>>();

/**
 * A prepared statement, compiled once per connection (the ingest path runs
 * the same few statements per episode), typed with the row it answers: the
 * one place a row's type is asserted, next to the SQL that makes it.
 */
export function stmt<Row = unknown>(db: Db, sql: string): Database.Statement<unknown[], Row> {
  let cache = statements.get(db);
  if (cache === undefined) {
    cache = new Map();
    statements.set(db, cache);
  }
  let statement = cache.get(sql);
  if (statement === undefined) {
    statement = db.prepare<unknown[], unknown>(sql);
    cache.set(sql, statement);
  }
  return statement as Database.Statement<unknown[], Row>;
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Applies every migration after the file's version, each in its own transaction with its version bump. */
export function migrate(db: Db, path: string, target = ARCHIVE_SCHEMA_VERSION): number {
  const current = schemaVersion(db);
  if (current > ARCHIVE_SCHEMA_VERSION) throw newerSchemaError(path, current, ARCHIVE_SCHEMA_VERSION);
  for (const m of MIGRATIONS) {
    if (m.version <= current || m.version > target) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
  return schemaVersion(db);
}

function configure(db: Db, timeoutMs: number): void {
  db.pragma(`busy_timeout = ${timeoutMs}`);
  db.pragma('foreign_keys = ON');
}

function connect(path: string, options: Database.Options): Db {
  try {
    return new Database(path, { ...options, ...binding() });
  } catch (error) {
    throw archiveFault(path, error) ?? error;
  }
}

/**
 * Reads what makes the file an archive, before anything is written to it:
 * its schema version (not newer than this build's, and not 0: archives are
 * made whole before they appear at their path, so version 0 is another
 * program's database), its schema, and the first page of every table,
 * so a damaged file is refused at open rather than halfway through a
 * command. Returns the version.
 */
function checkArchiveFile(db: Db, path: string): number {
  return withArchiveFaults(path, () => {
    const version = schemaVersion(db);
    if (version > ARCHIVE_SCHEMA_VERSION) throw newerSchemaError(path, version, ARCHIVE_SCHEMA_VERSION);
    const tables = db.prepare<[], { name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all().map((t) => t.name);
    if (version === 0) throw foreignDatabaseError(path, tables.length);
    for (const table of tables) db.prepare(`SELECT * FROM "${table.replace(/"/g, '""')}" LIMIT 1`).get();
    return version;
  });
}

/**
 * A new archive, made whole under a temporary name and linked into place:
 * a crash while it is made leaves no file at `path` (only a temporary one,
 * removed by the next writer), so an archive file is never empty or half
 * migrated. Called holding the writer lock.
 */
function createArchive(path: string, targetVersion: number | undefined): void {
  const temporary = `${path}.new-${process.pid}`;
  const folder = dirname(path);
  const stale = `${basename(path)}.new-`;
  for (const name of readdirSync(folder)) if (name.startsWith(stale)) rmSync(join(folder, name), { force: true });
  try {
    const db = connect(temporary, {});
    try {
      withArchiveFaults(path, () => {
        db.pragma('journal_mode = WAL');
        migrate(db, path, targetVersion);
      });
    } finally {
      db.close();
    }
    linkSync(temporary, path);
  } catch (error) {
    // Made meanwhile by a writer that took no lock (an older build): that file is opened as it is.
    if (errnoCode(error) !== 'EEXIST') throw archiveFault(path, error) ?? error;
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${temporary}${suffix}`, { force: true });
  }
}

/**
 * Opens an archive. A writer creates the file (and its folder) when nothing
 * is at `path`, takes the writer lock and migrates; a reader needs an
 * existing archive of this build's schema version. Anything else at `path`
 * (a folder, an empty, truncated, damaged or foreign file, a newer schema,
 * a read-only file or folder for a writer) is refused with its own error
 * (archive-errors.ts) and left as it was.
 */
export function openArchiveFile(path: string, options: OpenOptions): OpenedArchive {
  const timeoutMs = options.busyTimeoutMs ?? 5000;
  if (options.mode === 'read') {
    if (inspectArchivePath(path, 'read') === 'missing') throw new ValidationError(`${path}: no archive here (run or import something first)`);
    const db = connect(path, { readonly: true, fileMustExist: true, timeout: timeoutMs });
    try {
      configure(db, timeoutMs);
      const version = checkArchiveFile(db, path);
      if (version !== ARCHIVE_SCHEMA_VERSION) throw olderSchemaError(path, version, ARCHIVE_SCHEMA_VERSION);
    } catch (error) {
      db.close();
      throw archiveFault(path, error) ?? error;
    }
    return { db, path, close: () => db.close() };
  }

  const missing = inspectArchivePath(path, 'write') === 'missing';
  if (missing) withArchiveFaults(path, () => mkdirSync(dirname(path), { recursive: true }));
  const lock = takeWriterLock(path, Math.min(timeoutMs, 2000));
  let db: Db | undefined;
  try {
    if (missing && !existsSync(path)) createArchive(path, options.targetVersion);
    db = connect(path, { timeout: timeoutMs });
    configure(db, timeoutMs);
    checkArchiveFile(db, path);
    withArchiveFaults(path, () => {
      db!.pragma('journal_mode = WAL');
      // NORMAL in WAL: a committed transaction survives a process kill; only a power loss may lose the last ones.
      db!.pragma('synchronous = NORMAL');
      migrate(db!, path, options.targetVersion);
    });
  } catch (error) {
    db?.close();
    lock.close();
    throw archiveFault(path, error) ?? error;
  }
  const opened = db;
  let closed = false;
  return {
    db: opened,
    path,
    close: () => {
      if (closed) return;
      closed = true;
      opened.close();
      lock.close();
    },
  };
}
