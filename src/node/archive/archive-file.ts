/**
 * What is at the archive path, looked at before SQLite opens it: SQLite
 * would take a 0-byte file for a new database (and write one into it), and
 * reports a folder, a truncated file or a damaged header only as "unable to
 * open" or "malformed" once something reads it. Here each gets its own
 * error (archive-errors.ts) and nothing is written.
 *
 * The SQLite file format (https://www.sqlite.org/fileformat.html): a
 * 100-byte header starting "SQLite format 3\0", the page size at offset 16,
 * the file change counter at 24, the database size in pages at 28, valid
 * when the "version-valid-for" number at 92 equals the change counter.
 * While a write-ahead log (`<path>-wal`) holds frames the file alone may
 * lag behind (a checkpoint writes page 1 first), so its size is judged only
 * when there is no such log.
 */

import { accessSync, closeSync, constants, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ValidationError } from '../../core/errors.js';
import { errnoCode } from '../errno.js';
import {
  damagedError,
  emptyFileError,
  folderError,
  notSqliteError,
  readOnlyFileError,
  readOnlyFolderError,
  truncatedError,
  UNCHANGED,
} from './archive-errors.js';

const MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const HEADER_BYTES = 100;

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function readHeader(path: string, size: number): Buffer {
  const header = Buffer.alloc(Math.min(size, HEADER_BYTES));
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new ValidationError(`${path}: the archive cannot be read (${errnoCode(error) ?? String(error)}); ${UNCHANGED}. Check its permissions`);
  }
  try {
    readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  return header;
}

function isWritable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** The header's size checks: the page size, and the file's length against the page count. */
function checkHeader(path: string, header: Buffer, size: number, hasLog: boolean): void {
  const raw = header.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) throw damagedError(path, `its header gives an impossible page size, ${raw}`);
  if (hasLog) return;
  const pages = header.readUInt32BE(28);
  const headerCountValid = header.readUInt32BE(92) === header.readUInt32BE(24) && pages > 0;
  if (headerCountValid && size < pages * pageSize) throw truncatedError(path, size, pages * pageSize);
  if (size % pageSize !== 0) throw truncatedError(path, size, Math.ceil(size / pageSize) * pageSize);
}

/**
 * Checks what is at `path` before it is opened: 'missing' (a writer may
 * create a new archive there, a reader may not), or 'file' (something SQLite
 * may open). Throws the error of a folder, an empty, truncated, foreign or
 * damaged-header file, and, when writing, a read-only file or folder.
 */
export function inspectArchivePath(path: string, mode: 'read' | 'write'): 'missing' | 'file' {
  let stat;
  try {
    stat = statSync(path);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') {
      if (mode === 'write' && !isWritable(dirname(path)) && statOrUndefined(dirname(path))?.isDirectory() === true) throw readOnlyFolderError(path);
      return 'missing';
    }
    if (code === 'ENOTDIR') throw new ValidationError(`${path}: a part of this path is a file, not a folder; give --archive a path inside a folder`);
    throw new ValidationError(`${path}: the archive cannot be reached (${code ?? String(error)}); check the path and its permissions`);
  }
  if (stat.isDirectory()) throw folderError(path, mode);
  if (!stat.isFile()) throw new ValidationError(`${path}: not a regular file, so not an archive; give --archive an archive file`);
  const logBytes = sizeOf(`${path}-wal`);
  if (stat.size === 0 && logBytes === 0) throw emptyFileError(path);
  if (stat.size > 0) {
    const header = readHeader(path, stat.size);
    const prefix = Math.min(header.length, MAGIC.length);
    if (!header.subarray(0, prefix).equals(MAGIC.subarray(0, prefix))) throw notSqliteError(path);
    if (header.length < HEADER_BYTES) throw truncatedError(path, stat.size, HEADER_BYTES);
    checkHeader(path, header, stat.size, logBytes > 0);
  }
  if (mode === 'write') {
    if (!isWritable(dirname(path))) throw readOnlyFolderError(path);
    if (!isWritable(path)) throw readOnlyFileError(path);
  }
  return 'file';
}

function statOrUndefined(path: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
