// Opening a bad archive: each cause has its own exact message and kind
// (never "a bug"), for a reader and a writer, and the file is left byte for
// byte as it was (mtime too); only a path where nothing is becomes a new
// archive. A full disk during a write is named as such and rolls back.
// Read-only files and folders need a user other than root: the process
// test (test/archive/bad-archive-cli.test.ts) runs them as `nobody`.
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isEmberError } from '../../core/errors.js';
import { Archive } from './archive.js';
import { putText } from './artifacts.js';
import { BAD_ARCHIVES, badArchiveMessage, badArchivePath, makeBadArchive, makeSoundArchive, type BadArchive } from '../../../test/kits/bad-archives-kit.js';
import { archiveFault } from './archive-errors.js';
import { openArchiveFile } from './db.js';
import { ARCHIVE_SCHEMA_VERSION } from './migrations.js';
import { diskFullFault, enospcAfter, injectStorageFault } from './storage-faults.js';
import { rawDatabase } from '../../../test/kits/archive-kit.js';

const PUBLIC_SUITE = join(import.meta.dirname, '..', '..', '..', 'scenarios', 'public', 'v1');
const dir = mkdtempSync(join(tmpdir(), 'ember-open-'));
const sound = join(dir, 'sound.sqlite');
let sizes: { sound: number; pageSize: number };
beforeAll(() => {
  makeSoundArchive(sound, PUBLIC_SUITE);
  sizes = { sound: statSync(sound).size, pageSize: readFileSync(sound).readUInt16BE(16) };
  for (const kind of BAD_ARCHIVES) makeBadArchive(kind, sound, badArchivePath(dir, kind));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => injectStorageFault(undefined));

/** The file's bytes and mtime (a folder: its listing and mtime). */
function snapshot(path: string): { bytes: string; mtimeMs: number } {
  const stat = statSync(path);
  return { bytes: stat.isDirectory() ? readdirSync(path).join('\n') : readFileSync(path).toString('base64'), mtimeMs: stat.mtimeMs };
}

function openError(path: string, mode: 'read' | 'write'): { kind: string; message: string } {
  try {
    openArchiveFile(path, { mode, busyTimeoutMs: 200 }).close();
  } catch (error) {
    if (!isEmberError(error)) throw error;
    return { kind: error.kind, message: error.message };
  }
  throw new Error(`${path} opened (${mode})`);
}

const KIND_WHEN_WRITING: Record<BadArchive, string> = {
  truncated: 'validation',
  'flipped-page': 'validation',
  'flipped-header': 'validation',
  folder: 'output',
  empty: 'validation',
  'not-sqlite': 'validation',
  'newer-schema': 'validation',
  'foreign-sqlite': 'validation',
};

describe('opening a bad archive', () => {
  for (const kind of BAD_ARCHIVES) {
    it(`${kind}: its own message, reading and writing, and the file is not changed`, () => {
      const path = badArchivePath(dir, kind);
      const before = snapshot(path);
      expect(openError(path, 'read')).toEqual({ kind: 'validation', message: badArchiveMessage(kind, path, sizes) });
      expect(openError(path, 'write')).toEqual({ kind: KIND_WHEN_WRITING[kind], message: badArchiveMessage(kind, path, sizes) });
      expect(snapshot(path)).toEqual(before);
    });
  }

  it('the sound archive opens for reading and writing; its copy of an older schema is told how to migrate', () => {
    openArchiveFile(sound, { mode: 'read' }).close();
    openArchiveFile(sound, { mode: 'write' }).close();
    const older = join(dir, 'older.sqlite');
    copyFileSync(sound, older);
    const raw = new Database(older);
    raw.pragma('user_version = 3');
    raw.close();
    expect(openError(older, 'read')).toEqual({
      kind: 'validation',
      message: `${older}: the archive has schema version 3, this program reads version ${ARCHIVE_SCHEMA_VERSION}; the file was not changed. Open it once with the app, \`emberbench serve\` or \`emberbench archive import\` (they migrate it), then read it`,
    });
  });

  it('only a path where nothing is becomes a new archive, made whole (no temporary file left)', () => {
    const fresh = join(dir, 'new', 'sub', 'a.sqlite');
    const a = openArchiveFile(fresh, { mode: 'write' });
    a.close();
    expect(readdirSync(join(dir, 'new', 'sub')).filter((n) => n.includes('.new-'))).toEqual([]);
    openArchiveFile(fresh, { mode: 'read' }).close();
    // A temporary file a crash left while making an archive is removed by the next writer.
    const other = join(dir, 'new', 'b.sqlite');
    writeFileSync(`${other}.new-999999`, 'half made');
    openArchiveFile(other, { mode: 'write' }).close();
    expect(existsSync(`${other}.new-999999`)).toBe(false);
    expect(openError(join(dir, 'new', 'missing.sqlite'), 'read').message).toBe(`${join(dir, 'new', 'missing.sqlite')}: no archive here (run or import something first)`);
  });
});

describe('a full disk', () => {
  it('a write transaction that meets it is rolled back and named disk full, with the path; the next one after space is free commits', () => {
    const path = join(dir, 'full.sqlite');
    const archive = Archive.open(path, { mode: 'write' });
    try {
      const fault = enospcAfter(1);
      injectStorageFault(fault);
      archive.write((db) => putText(db, 'summary', 'first\n'));
      let thrown: unknown;
      try {
        archive.write((db) => putText(db, 'summary', 'second\n'));
      } catch (error) {
        thrown = error;
      }
      expect(isEmberError(thrown) && thrown.kind).toBe('output');
      expect((thrown as Error).message).toBe(
        `${path}: the disk is full (no space left on device); free some space on that disk and try again. Everything committed before is kept: an interrupted evaluation can be resumed once there is space`,
      );
      expect(rawDatabase(archive).prepare(`SELECT count(*) AS n FROM artifacts WHERE kind = 'summary'`).get()).toEqual({ n: 1 });
      fault.release();
      archive.write((db) => putText(db, 'summary', 'second\n'));
      expect(rawDatabase(archive).prepare(`SELECT count(*) AS n FROM artifacts WHERE kind = 'summary'`).get()).toEqual({ n: 2 });
    } finally {
      archive.close();
    }
  });

  it('SQLite and file-system words for it are all disk full; other failures stay what they are', () => {
    for (const error of [diskFullFault(), Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }), Object.assign(new Error('disk I/O error: no space left on device'), { code: 'SQLITE_IOERR_WRITE' })]) {
      expect(archiveFault('/a', error)?.message).toMatch(/^\/a: the disk is full \(no space left on device\)/);
    }
    expect(archiveFault('/a', new TypeError('x'))).toBeUndefined();
    expect(archiveFault('/a', Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_READ' }))).toBeUndefined();
  });
});
