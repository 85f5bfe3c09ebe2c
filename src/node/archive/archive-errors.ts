/**
 * What a user is told when the archive file cannot be used: one message per
 * cause (what it is, what to do), never "a bug". SQLite and the file system
 * report these as codes (SQLITE_CORRUPT, SQLITE_FULL, ENOSPC, ...); this is
 * the one place they become benchmark errors, for opening (db.ts), for
 * every write transaction (Archive.write) and for the reads of the CLI's
 * archive commands and the app's services (archiveFault).
 *
 * Exit codes (cli-v1.0.md): a file that is not a readable archive is a bad
 * input (validation, 3); a file or folder that cannot be written, a folder
 * given as the archive a command writes, and a full disk are output errors
 * (6).
 */

import { dirname } from 'node:path';
import { errnoCode as errorCode } from '../errno.js';
import { OutputError, ValidationError, isEmberError, type EmberError } from '../../core/errors.js';

/** The sentence every refusal to open ends with: the user's file is as it was. */
export const UNCHANGED = 'the file was not changed';

export function inUseError(path: string): OutputError {
  return new OutputError(`${path}: the archive is in use by another process (an open EMBER Workbench or an emberbench command); close it and try again`);
}

export function diskFullError(path: string): OutputError {
  return new OutputError(
    `${path}: the disk is full (no space left on device); free some space on that disk and try again. ` +
      'Everything committed before is kept: an interrupted evaluation can be resumed once there is space',
  );
}

export function damagedError(path: string, detail: string): ValidationError {
  return new ValidationError(
    `${path}: the archive is damaged (${detail}); ${UNCHANGED}. Restore it from a backup, or save what is readable into a new file with \`sqlite3 ${JSON.stringify(path)} .recover\``,
  );
}

export function truncatedError(path: string, size: number, expected: number): ValidationError {
  return new ValidationError(
    `${path}: the archive is truncated (${size} bytes of the ${expected} its header gives): the end of the file is missing, as after an interrupted copy or download; ${UNCHANGED}. Copy it again from where it came from, or restore it from a backup`,
  );
}

export function notSqliteError(path: string): ValidationError {
  return new ValidationError(`${path}: not an archive (not an SQLite database); ${UNCHANGED}. Give --archive an EMBER Workbench archive, or a path that does not exist yet to start a new one`);
}

export function emptyFileError(path: string): ValidationError {
  return new ValidationError(
    `${path}: the file is empty (0 bytes), not an archive; ${UNCHANGED}. Give --archive an existing archive, or a path that does not exist yet to start a new one there (delete this empty file first if it is not needed)`,
  );
}

export function foreignDatabaseError(path: string, tables: number): ValidationError {
  return new ValidationError(
    `${path}: an SQLite database, but not an EMBER Workbench archive (${tables === 0 ? 'it is empty' : `it has ${tables} tables of its own`}); ${UNCHANGED}. Give --archive an archive, or a path that does not exist yet to start a new one`,
  );
}

export function newerSchemaError(path: string, version: number, reads: number): ValidationError {
  return new ValidationError(
    `${path}: the archive was written by a newer EMBER Workbench (schema version ${version}; this program reads versions up to ${reads}); ${UNCHANGED}. Upgrade EMBER Workbench (and emberbench) to open it`,
  );
}

export function olderSchemaError(path: string, version: number, reads: number): ValidationError {
  return new ValidationError(
    `${path}: the archive has schema version ${version}, this program reads version ${reads}; ${UNCHANGED}. Open it once with the app, \`emberbench serve\` or \`emberbench archive import\` (they migrate it), then read it`,
  );
}

/** A folder given as the archive: 3 when it is read, 6 when it would be written (cli-v1.0.md: the output is a directory). */
export function folderError(path: string, mode: 'read' | 'write'): EmberError {
  const message = `${path}: is a folder, not an archive file; give --archive the archive file itself (for example ${JSON.stringify(`${path}/archive.sqlite`)}; a path that does not exist yet starts a new archive)`;
  return mode === 'read' ? new ValidationError(message) : new OutputError(message);
}

export function readOnlyFileError(path: string): OutputError {
  return new OutputError(
    `${path}: the archive file is read-only, and writing needs to change it; ${UNCHANGED}. Make it writable (chmod u+w), or copy it to a file you can write; \`archive list\` and \`archive export\` can still read it`,
  );
}

export function readOnlyFolderError(path: string): OutputError {
  return new OutputError(
    `${path}: the folder ${dirname(path)} is read-only, and the archive needs to write beside its file (its write-ahead log ${JSON.stringify(`${path}-wal`)}, its index ${JSON.stringify(`${path}-shm`)} and its lock); ${UNCHANGED}. Make the folder writable, or copy the archive to a folder you can write`,
  );
}

function isDiskFull(error: unknown): boolean {
  const code = errorCode(error);
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') return true;
  // SQLite reports some failed writes as I/O errors; the message then carries the system's words.
  return code?.startsWith('SQLITE_IOERR') === true && /no space left|disk is full|quota/i.test(String((error as Error).message));
}

/**
 * The benchmark error for a failure of the archive at `path`, or undefined
 * when the failure is not one of the archive file's (a bug, or already a
 * benchmark error).
 */
export function archiveFault(path: string, error: unknown): EmberError | undefined {
  if (isEmberError(error)) return undefined;
  if (isDiskFull(error)) return diskFullError(path);
  const code = errorCode(error);
  if (code === undefined) return undefined;
  if (code.startsWith('SQLITE_CORRUPT')) return damagedError(path, `SQLite reports "${(error as Error).message}"`);
  if (code === 'SQLITE_NOTADB') return damagedError(path, 'SQLite cannot read its header');
  if (code === 'SQLITE_READONLY_DIRECTORY') return readOnlyFolderError(path);
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS') return readOnlyFileError(path);
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return inUseError(path);
  return undefined;
}

/** Runs `work`; an archive failure becomes its benchmark error, anything else is rethrown as it is. */
export function withArchiveFaults<T>(path: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw archiveFault(path, error) ?? error;
  }
}

/** withArchiveFaults for asynchronous work. */
export async function withArchiveFaultsAsync<T>(path: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw archiveFault(path, error) ?? error;
  }
}
