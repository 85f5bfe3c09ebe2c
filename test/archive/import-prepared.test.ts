// `archive import` prepares in slices before its write transaction (issue
// 26): the stored trial must be the one the app's synchronous preparation
// stores (the same files, byte for byte), for a result whose suite comes
// with the import and for an official one scored against a stored pack; and
// what the preparation assumed is found stale when the archive changed.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestText } from '../../src/core/eval/manifest.js';
import { commitImports, trialFiles } from '../../src/node/archive/archive-io.js';
import { Archive } from '../../src/node/archive/archive.js';
import { storePack } from '../../src/node/archive/inputs-store.js';
import { getTrialDbRow } from '../../src/node/archive/queries.js';
import { importIntoArchive } from '../../src/node/front-door/archive.js';
import { prepareImport, prepareImportCooperatively, stillPrepared } from '../../src/node/jobs/import-prepare.js';
import { buildPack, loadPack } from '../../src/node/pack.js';
import { buildTinyResult, TINY_SUITE } from '../eval/kit.js';
import { filesOf } from './helpers.js';

let dir: string;
let first: string;
let second: string;
let packDir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ember-import-prepared-'));
  const a = await buildTinyResult(['1', '7', '9'], 'nearest-exit-greedy-v1', 'model-a');
  const b = await buildTinyResult(['1', '7', '9'], 'nearest-exit-greedy-v1', 'model-b');
  first = join(dir, 'a.json');
  second = join(dir, 'b.json');
  writeFileSync(first, a.text);
  writeFileSync(second, b.text);
  const manifest = join(dir, 'manifest.json');
  writeFileSync(manifest, manifestText(a.manifest));
  packDir = join(dir, 'pack');
  await buildPack(TINY_SUITE, manifest, packDir);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function withArchive<T>(path: string, work: (archive: Archive) => T): T {
  const archive = Archive.open(path, { mode: 'write' });
  try {
    return work(archive);
  } finally {
    archive.close();
  }
}

describe('archive import prepared in slices', () => {
  it('stores what the synchronous preparation stores: a --suite result, then an official one against a stored pack', async () => {
    const sliced = join(dir, 'sliced.sqlite');
    const progress: string[] = [];
    const imported = await importIntoArchive(sliced, { files: [first], records: [], suites: [{ dir: TINY_SUITE, source: 'folder' }] }, (p) => progress.push(p.what));
    expect(imported.imported).toEqual([{ file: first, trialId: 1, duplicate: false }]);
    expect(progress.length).toBeGreaterThan(0);
    const pack = loadPack(packDir);
    withArchive(sliced, (archive) => archive.write((w) => storePack(w, pack, new Map(filesOf(packDir)))));
    const synchronous = join(dir, 'synchronous.sqlite');
    copyFileSync(sliced, synchronous);

    expect((await importIntoArchive(sliced, { files: [second], records: [], suites: [] })).imported).toEqual([{ file: second, trialId: 2, duplicate: false }]);
    // The app's path: prepared back to back in this thread, then written.
    withArchive(synchronous, (archive) => {
      const prepared = prepareImport(archive, second, readFileSync(second, 'utf8'));
      if ('duplicate' in prepared) throw new Error('not a duplicate');
      expect(commitImports(archive, [prepared])).toEqual([{ trialId: 2, duplicate: false }]);
    });
    const official = await Promise.all(
      [sliced, synchronous].map(async (path) => {
        const archive = Archive.open(path, { mode: 'read' });
        try {
          expect(getTrialDbRow(archive, 2)).toMatchObject({ pack_digest: pack.digest, official: 1 });
          return [...(await trialFiles(archive, 2))];
        } finally {
          archive.close();
        }
      }),
    );
    expect(official[0]!.map(([name]) => name)).toEqual(['result.json', 'score.json', 'summary.txt']);
    for (const [k, [name, bytes]] of official[0]!.entries()) {
      expect(official[1]![k]![0]).toBe(name);
      expect(bytes.equals(official[1]![k]![1]), name).toBe(true);
    }
  });

  it('finds a preparation stale when the archive changed before the write: a pack added, a duplicate gone', async () => {
    const path = join(dir, 'stale.sqlite');
    await importIntoArchive(path, { files: [first], records: [], suites: [{ dir: TINY_SUITE, source: 'folder' }] });
    const text = readFileSync(second, 'utf8');
    const firstText = readFileSync(first, 'utf8');
    const archive = Archive.open(path, { mode: 'write' });
    try {
      const unofficial = await prepareImportCooperatively(archive, second, text, undefined, []);
      const duplicate = await prepareImportCooperatively(archive, first, firstText, undefined, []);
      expect('duplicate' in duplicate && duplicate.duplicate).toBe(1);
      expect(stillPrepared(archive, unofficial)).toBe(true);
      expect(stillPrepared(archive, duplicate)).toBe(true);
      archive.write((w) => storePack(w, loadPack(packDir), new Map(filesOf(packDir))));
      // Now the manifest has one pack: the trial would be official, so it is prepared again in the transaction.
      expect(stillPrepared(archive, unofficial)).toBe(false);
      expect(stillPrepared(archive, { ...duplicate, duplicate: 7 } as typeof duplicate)).toBe(false);
    } finally {
      archive.close();
    }
  });
});
