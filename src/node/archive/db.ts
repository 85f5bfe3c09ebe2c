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
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { OutputError, ValidationError } from '../../core/errors.js';
import { ARCHIVE_SCHEMA_VERSION, MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

/**
 * The compiled better-sqlite3 module to load instead of the one in
 * node_modules. The Electron main process sets it to the build made for
 * Electron's ABI (scripts/electron-native.js); Node processes leave it unset.
 */
let nativeBinding: string | undefined;

export function useSqliteNativeBinding(path: string | undefined): void {
  nativeBinding = path;
}

/** The binding set with useSqliteNativeBinding, if any: the archive worker's threads load the same one (off-thread.ts). */
export function sqliteNativeBinding(): string | undefined {
  return nativeBinding;
}

function binding(): { nativeBinding?: string } {
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

function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function inUse(path: string): OutputError {
  return new OutputError(`${path}: the archive is in use by another process (an open EMBER Workbench or an emberbench command); close it and try again`);
}

/** The writer lock: an exclusive lock on `<path>-lock`, held until `close()` or the process ends. */
function takeWriterLock(path: string, timeoutMs: number): Db {
  const lock = new Database(`${path}-lock`, { timeout: timeoutMs, ...binding() });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('CREATE TABLE IF NOT EXISTS owner (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL)');
    // The first write takes the EXCLUSIVE lock; locking_mode keeps it.
    lock.prepare('INSERT OR REPLACE INTO owner (id, pid) VALUES (1, ?)').run(process.pid);
    return lock;
  } catch (error) {
    lock.close();
    if (sqliteCode(error) === 'SQLITE_BUSY' || sqliteCode(error) === 'SQLITE_LOCKED') throw inUse(path);
    throw error;
  }
}

const statements = new WeakMap<Db, Map<string, Database.Statement>>();

/** A prepared statement, compiled once per connection (the ingest path runs the same few statements per episode). */
export function stmt(db: Db, sql: string): Database.Statement {
  let cache = statements.get(db);
  if (cache === undefined) {
    cache = new Map();
    statements.set(db, cache);
  }
  let statement = cache.get(sql);
  if (statement === undefined) {
    statement = db.prepare(sql);
    cache.set(sql, statement);
  }
  return statement;
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Applies every migration after the file's version, each in its own transaction with its version bump. */
export function migrate(db: Db, path: string, target = ARCHIVE_SCHEMA_VERSION): number {
  const current = schemaVersion(db);
  if (current > ARCHIVE_SCHEMA_VERSION) {
    throw new ValidationError(`${path}: archive schema version ${current} is newer than this build's ${ARCHIVE_SCHEMA_VERSION}; use a newer EMBER Workbench`);
  }
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

/**
 * Opens an archive. A writer creates the file (and its folder) when missing,
 * takes the writer lock and migrates; a reader needs an existing archive of
 * this build's schema version.
 */
export function openArchiveFile(path: string, options: OpenOptions): OpenedArchive {
  const timeoutMs = options.busyTimeoutMs ?? 5000;
  if (options.mode === 'read') {
    if (!existsSync(path)) throw new ValidationError(`${path}: no archive here (run or import something first)`);
    let db: Db;
    try {
      db = new Database(path, { readonly: true, fileMustExist: true, timeout: timeoutMs, ...binding() });
    } catch (error) {
      throw new ValidationError(`${path}: cannot open the archive (${error instanceof Error ? error.message : String(error)})`);
    }
    configure(db, timeoutMs);
    const version = readVersion(db, path);
    if (version !== ARCHIVE_SCHEMA_VERSION) {
      db.close();
      throw new ValidationError(`${path}: archive schema version ${version}, this build reads ${ARCHIVE_SCHEMA_VERSION} (open it once with the app or a writing command to migrate it)`);
    }
    return { db, path, close: () => db.close() };
  }

  mkdirSync(dirname(path), { recursive: true });
  const lock = takeWriterLock(path, Math.min(timeoutMs, 2000));
  let db: Db | undefined;
  try {
    db = new Database(path, { timeout: timeoutMs, ...binding() });
    configure(db, timeoutMs);
    readVersion(db, path);
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL: a committed transaction survives a process kill; only a power loss may lose the last ones.
    db.pragma('synchronous = NORMAL');
    migrate(db, path, options.targetVersion);
  } catch (error) {
    db?.close();
    lock.close();
    if (sqliteCode(error) === 'SQLITE_BUSY') throw inUse(path);
    if (sqliteCode(error) === 'SQLITE_NOTADB') throw new ValidationError(`${path}: not an archive (not an SQLite database)`);
    throw error;
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

function readVersion(db: Db, path: string): number {
  try {
    return schemaVersion(db);
  } catch (error) {
    db.close();
    if (sqliteCode(error) === 'SQLITE_NOTADB') throw new ValidationError(`${path}: not an archive (not an SQLite database)`);
    throw error;
  }
}
