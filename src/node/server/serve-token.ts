/**
 * The access token of `emberbench serve`, kept between launches so that the
 * app's address (port, and `/s/<id>/` derived from the token) and the links
 * copied from it still work after a restart.
 *
 * It lives in the per-user data folder (beside the signing key), never beside
 * the archive: an archive's folder may be shared, synced or committed, and a
 * chosen archive may sit where others can read. The file is created 0600 in
 * a 0700 folder, written whole (temporary file, then rename), and refused,
 * not repaired, when it is readable by others or malformed: `--rotate-token`
 * writes a fresh one.
 */

import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { OutputError, UsageError } from '../../core/errors.js';
import { errnoCode } from '../errno.js';

export const SERVE_TOKEN_FILE = 'serve-token';

/** 24 random bytes as base64url: 32 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

export function serveTokenPath(dataDir: string): string {
  return join(dataDir, SERVE_TOKEN_FILE);
}

function freshToken(): string {
  return randomBytes(24).toString('base64url');
}

/** A new token written whole and private (0600) to a temporary file beside `file`. */
function writeTemporaryToken(file: string): { token: string; temporary: string } {
  const token = freshToken();
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, `${token}\n`);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(fd);
  // The mode given to open is masked by the umask; 0600 is what it must be whatever the umask.
  chmodSync(temporary, 0o600);
  return { token, temporary };
}

/** Writes a new token whole (0600) and answers it; an old one is replaced only once the new one is on disk. */
export function rotateServeToken(dataDir: string): string {
  return withFileFaults(dataDir, () => rotate(dataDir));
}

function rotate(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = serveTokenPath(dataDir);
  const { token, temporary } = writeTemporaryToken(file);
  renameSync(temporary, file);
  return token;
}

/** The first token: linked into place only where none is, so two first launches at once end with one token, the first one's. */
function createServeToken(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = serveTokenPath(dataDir);
  const { token, temporary } = writeTemporaryToken(file);
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
    return loadOrCreate(dataDir);
  } finally {
    rmSync(temporary, { force: true });
  }
  return token;
}

/**
 * The stored token, or a new one stored now when there is none. A file that
 * others may read, that is not a plain file, or that does not hold a token
 * is refused with what to do: such a token may be known to someone else.
 */
export function loadOrCreateServeToken(dataDir: string): string {
  return withFileFaults(dataDir, () => loadOrCreate(dataDir));
}

function loadOrCreate(dataDir: string): string {
  const file = serveTokenPath(dataDir);
  let stat;
  try {
    stat = lstatSync(file);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return createServeToken(dataDir);
    throw error;
  }
  if (!stat.isFile()) throw new UsageError(`the serve token ${file} is not a plain file (a link or a folder): remove it and start \`emberbench serve\` again, which makes a new private one`);
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
    throw new UsageError(`the serve token ${file} can be read by other users (mode ${(stat.mode & 0o777).toString(8)}): run \`emberbench serve --rotate-token\` to replace it with a private one`);
  }
  const token = readFileSync(file, 'utf8').trim();
  if (!TOKEN_PATTERN.test(token)) throw new UsageError(`the serve token ${file} does not hold a token (32 characters of A-Z a-z 0-9 _ -): run \`emberbench serve --rotate-token\` to write a new one`);
  return token;
}

/**
 * A token file this user cannot read or write (another user's data folder,
 * a read-only disk) is told as such, naming the folder and the way out, not
 * as an internal failure.
 */
function withFileFaults(dataDir: string, work: () => string): string {
  try {
    return work();
  } catch (error) {
    const code = errnoCode(error);
    if (code === undefined) throw error;
    throw new OutputError(
      `the serve token in ${dataDir} cannot be read or written (${code}): run \`emberbench serve\` as the user who owns that folder, or set XDG_CONFIG_HOME (or HOME) to a folder you can write`,
    );
  }
}
