// The archive's pack jobs in the archive worker (a real worker thread from
// the source entry) and in this thread: the same answers, the app's stored
// pack byte-identical to `pack build`'s folder, an error that crosses the
// thread with its kind, and a damaged pack found out.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildManifest, manifestText } from '../../src/core/eval/manifest.js';
import { Archive } from '../../src/node/archive/archive.js';
import { useSqliteNativeBinding } from '../../src/node/archive/sqlite-binding.js';
import { runOffThread } from '../../src/node/jobs/off-thread.js';
import { defaultEntryPoints } from '../../src/node/entry-points.js';
import { buildPack, loadPack } from '../../src/node/pack.js';
import { loadSuiteDir, readSuiteFolder } from '../../src/node/inputs.js';
import { storedPackFiles } from '../../src/node/archive/inputs-store.js';
import { addSuiteFolder, buildStoredPack, createManifest } from '../../src/node/services/catalog.js';
import { filesOf, PUBLIC_SUITE, tempDir } from './helpers.js';

const tmp = tempDir('ember-archive-jobs-');
afterAll(() => tmp.remove());

const WORKER = defaultEntryPoints().archiveWorker;

/** Files by pack-relative path, sorted, as Buffers (a worker answers Uint8Arrays). */
function asBuffers(files: readonly (readonly [string, Uint8Array])[]): [string, Buffer][] {
  return files.map(([name, bytes]): [string, Buffer] => [name, Buffer.from(bytes)]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

describe('archive jobs off the thread', () => {
  it('builds a pack from a stored suite (the app, in the worker, as in this thread) with the bytes `pack build` writes, writing nothing beside the archive', async () => {
    const text = manifestText(buildManifest(loadSuiteDir(PUBLIC_SUITE), ['0', '1']));
    const manifestPath = join(tmp.dir, 'manifest.json');
    writeFileSync(manifestPath, text);
    const cliPack = join(tmp.dir, 'pack-cli');
    await buildPack(PUBLIC_SUITE, manifestPath, cliPack);
    const cliFiles = asBuffers(filesOf(cliPack));

    // The app's packs.build: the stored suite's bytes to the archive worker, the files back, stored byte for byte.
    const archive = Archive.open(join(tmp.dir, 'packs.sqlite'), { mode: 'write' });
    try {
      const suite = addSuiteFolder(archive, PUBLIC_SUITE, 'public');
      const manifest = createManifest(archive, suite.suiteHash, ['0', '1']);
      const stored = await buildStoredPack(archive, manifest.manifestHash, WORKER);
      expect(stored.packDigest).toBe(loadPack(cliPack).digest);
      expect(asBuffers([...storedPackFiles(archive, stored.packDigest)])).toEqual(cliFiles);
      expect(existsSync(archive.cacheDir)).toBe(false);
    } finally {
      archive.close();
    }
    // The job in this thread answers the same files.
    const input = { suiteFiles: [...readSuiteFolder(PUBLIC_SUITE).files], suiteSource: 'public', manifestText: text, manifestSource: 'manifest' };
    const here = await runOffThread(undefined, { kind: 'pack-build', input });
    expect(asBuffers(here.files)).toEqual(cliFiles);

    const pack = loadPack(cliPack);
    const files = filesOf(cliPack);
    const verified = await runOffThread(WORKER, { kind: 'pack-verify', input: { packDigest: pack.digest, files } });
    expect(verified).toEqual({ valid: true, message: `${pack.packId}: every file matches its digest; all 20 fire worlds and M* recomputed equal` });
    expect(await runOffThread(undefined, { kind: 'pack-verify', input: { packDigest: pack.digest, files } })).toEqual(verified);

    // A suite file with one more byte (a space: still the same scenario value, but not the pinned bytes): refused with the reason, not thrown.
    const target = 'suite/v1-pub-01-single-exit-sparse.json';
    const damaged = files.map(([name, bytes]): [string, Uint8Array] => [name, name === target ? Buffer.concat([Buffer.from(' '), bytes]) : bytes]);
    const refused = await runOffThread(WORKER, { kind: 'pack-verify', input: { packDigest: pack.digest, files: damaged } });
    expect(refused.valid).toBe(false);
    expect(refused.message).toMatch(/v1-pub-01-single-exit-sparse\.json/);
  });

  it('rejects with the job\'s own error, its kind kept across the thread', async () => {
    const input = { suiteFiles: [...readSuiteFolder(PUBLIC_SUITE).files], suiteSource: 'public', manifestText: '{}\n', manifestSource: 'not-a-manifest.json' };
    const inWorker = runOffThread(WORKER, { kind: 'pack-build', input });
    await expect(inWorker).rejects.toMatchObject({ kind: 'validation', message: expect.stringContaining('not-a-manifest.json') });
    await expect(runOffThread(undefined, { kind: 'pack-build', input })).rejects.toMatchObject({ kind: 'validation' });
  });

  it('opens the archive in the worker with the better-sqlite3 build of the caller (the Electron one in the app)', async () => {
    const archivePath = join(tmp.dir, 'binding.sqlite');
    Archive.open(archivePath).close();
    const job = { kind: 'import-prepare', input: { archivePath, fileName: 'not-a-result.json', text: '{}' } } as const;
    const missing = join(tmp.dir, 'no-such-build', 'better_sqlite3.node');
    useSqliteNativeBinding(missing);
    try {
      await expect(runOffThread(WORKER, job)).rejects.toThrow(/no-such-build/);
    } finally {
      useSqliteNativeBinding(undefined);
    }
    // With this thread's own build the archive opens, and the text is refused for what it is.
    await expect(runOffThread(WORKER, job)).rejects.toMatchObject({ kind: 'validation', message: expect.stringContaining('not-a-result.json') });
  });
});
