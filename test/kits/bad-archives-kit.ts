/**
 * Bad archive files for the tests of opening them (db.ts, archive-file.ts,
 * archive-errors.ts): one sound archive of synthetic trials, and copies of
 * it truncated, with flipped bytes in a table page or in the header, of a
 * newer schema; a folder, an empty file, a text file, a foreign SQLite
 * database. Not part of the build (tsconfig.build.json excludes
 * *-testkit.ts).
 */

import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Archive } from '../../src/node/archive/archive.js';
import { addSyntheticTrial, seedSuite } from './archive-kit.js';
import { ARCHIVE_SCHEMA_VERSION } from '../../src/node/archive/migrations.js';

export type BadArchive = 'truncated' | 'flipped-page' | 'flipped-header' | 'folder' | 'empty' | 'not-sqlite' | 'newer-schema' | 'foreign-sqlite';

export const BAD_ARCHIVES: readonly BadArchive[] = ['truncated', 'flipped-page', 'flipped-header', 'folder', 'empty', 'not-sqlite', 'newer-schema', 'foreign-sqlite'];

/** A sound archive with two trials of `seeds` seeds of the suite, every change checkpointed into the file (no log beside it). */
export function makeSoundArchive(path: string, suiteDir: string, seeds = 2): void {
  const archive = Archive.open(path, { mode: 'write' });
  try {
    const s = seedSuite(archive, suiteDir, seeds);
    addSyntheticTrial(archive, s, { modelId: 'model-a', seed: 1 });
    addSyntheticTrial(archive, s, { modelId: 'model-b', seed: 2 });
  } finally {
    archive.close();
  }
}

/** XORs `count` bytes of `path` from `offset`. */
function flip(path: string, offset: number, count: number): void {
  const bytes = readFileSync(path);
  for (let k = offset; k < offset + count; k++) bytes[k] = bytes[k]! ^ 0xa5;
  writeFileSync(path, bytes);
}

/** Makes the bad file `kind` at `path` from the sound archive `sound`. */
export function makeBadArchive(kind: BadArchive, sound: string, path: string): void {
  switch (kind) {
    case 'truncated':
      copyFileSync(sound, path);
      truncateSync(path, Math.floor(statSync(sound).size / 2));
      return;
    case 'flipped-page': {
      copyFileSync(sound, path);
      // The b-tree header of the trials table's root page: every read of the table meets it.
      const db = new Database(path, { readonly: true });
      const root = (db.prepare(`SELECT rootpage FROM sqlite_master WHERE name = 'trials'`).get() as { rootpage: number }).rootpage;
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      db.close();
      flip(path, (root - 1) * pageSize, 12);
      return;
    }
    case 'flipped-header':
      copyFileSync(sound, path);
      flip(path, 16, 2);
      return;
    case 'folder':
      mkdirSync(path);
      return;
    case 'empty':
      writeFileSync(path, '');
      return;
    case 'not-sqlite':
      writeFileSync(path, 'trial\tstatus\tscore\n1\tcomplete\t55.2\n'.repeat(200));
      return;
    case 'newer-schema': {
      copyFileSync(sound, path);
      const db = new Database(path);
      db.pragma(`user_version = ${ARCHIVE_SCHEMA_VERSION + 3}`);
      db.close();
      return;
    }
    case 'foreign-sqlite': {
      const db = new Database(path);
      db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); CREATE TABLE tags (name TEXT)');
      db.prepare('INSERT INTO notes (text) VALUES (?)').run('not an archive');
      db.close();
      return;
    }
  }
}

/** The exact message of opening `kind` at `path` (read or write). */
export function badArchiveMessage(kind: BadArchive, path: string, sizes: { readonly sound: number; readonly pageSize: number }): string {
  const unchanged = 'the file was not changed';
  switch (kind) {
    case 'truncated':
      return `${path}: the archive is truncated (${Math.floor(sizes.sound / 2)} bytes of the ${sizes.sound} its header gives): the end of the file is missing, as after an interrupted copy or download; ${unchanged}. Copy it again from where it came from, or restore it from a backup`;
    case 'flipped-page':
      return `${path}: the archive is damaged (SQLite reports "database disk image is malformed"); ${unchanged}. Restore it from a backup, or save what is readable into a new file with \`sqlite3 ${JSON.stringify(path)} .recover\``;
    case 'flipped-header':
      return `${path}: the archive is damaged (its header gives an impossible page size, ${sizes.pageSize ^ 0xa5a5}); ${unchanged}. Restore it from a backup, or save what is readable into a new file with \`sqlite3 ${JSON.stringify(path)} .recover\``;
    case 'folder':
      return `${path}: is a folder, not an archive file; give --archive the archive file itself (for example ${JSON.stringify(`${path}/archive.sqlite`)}; a path that does not exist yet starts a new archive)`;
    case 'empty':
      return `${path}: the file is empty (0 bytes), not an archive; ${unchanged}. Give --archive an existing archive, or a path that does not exist yet to start a new one there (delete this empty file first if it is not needed)`;
    case 'not-sqlite':
      return `${path}: not an archive (not an SQLite database); ${unchanged}. Give --archive an EMBER Workbench archive, or a path that does not exist yet to start a new one`;
    case 'newer-schema':
      return `${path}: the archive was written by a newer EMBER Workbench (schema version ${ARCHIVE_SCHEMA_VERSION + 3}; this program reads versions up to ${ARCHIVE_SCHEMA_VERSION}); ${unchanged}. Upgrade EMBER Workbench (and emberbench) to open it`;
    case 'foreign-sqlite':
      return `${path}: an SQLite database, but not an EMBER Workbench archive (it has 2 tables of its own); ${unchanged}. Give --archive an archive, or a path that does not exist yet to start a new one`;
  }
}

/** Where each bad file is made under `dir`. */
export function badArchivePath(dir: string, kind: BadArchive): string {
  return join(dir, `${kind}.sqlite`);
}
