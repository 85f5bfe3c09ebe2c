// The archive's pack jobs in the archive worker (a real worker thread from
// the source entry) and in this thread: the same answers, an error that
// crosses the thread with its kind, and a damaged pack found out.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildManifest, manifestText } from '../../src/core/eval/manifest.js';
import { Archive } from '../../src/node/archive/archive.js';
import { useSqliteNativeBinding } from '../../src/node/archive/sqlite-binding.js';
import { runOffThread } from '../../src/node/jobs/off-thread.js';
import { defaultEntryPoints } from '../../src/node/entry-points.js';
import { loadPack } from '../../src/node/pack.js';
import { loadSuiteDir } from '../../src/node/inputs.js';
import { filesOf, PUBLIC_SUITE, tempDir } from './helpers.js';

const tmp = tempDir('ember-archive-jobs-');
afterAll(() => tmp.remove());

const WORKER = defaultEntryPoints().archiveWorker;

describe('archive jobs off the thread', () => {
  it('builds a pack in the worker as in this thread, verifies it, and finds a changed byte', async () => {
    const manifestPath = join(tmp.dir, 'manifest.json');
    writeFileSync(manifestPath, manifestText(buildManifest(loadSuiteDir(PUBLIC_SUITE), ['0', '1'])));
    const inWorker = join(tmp.dir, 'pack-worker');
    const here = join(tmp.dir, 'pack-here');
    expect(await runOffThread(WORKER, { kind: 'pack-build', input: { suiteDir: PUBLIC_SUITE, manifestPath, out: inWorker } })).toBeNull();
    await runOffThread(undefined, { kind: 'pack-build', input: { suiteDir: PUBLIC_SUITE, manifestPath, out: here } });
    const pack = loadPack(inWorker);
    expect(pack.digest).toBe(loadPack(here).digest);

    const files = filesOf(inWorker);
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
    const manifestPath = join(tmp.dir, 'manifest.json');
    const existing = join(tmp.dir, 'pack-worker');
    const inWorker = runOffThread(WORKER, { kind: 'pack-build', input: { suiteDir: PUBLIC_SUITE, manifestPath, out: existing } });
    await expect(inWorker).rejects.toMatchObject({ kind: 'output' });
    await expect(runOffThread(undefined, { kind: 'pack-build', input: { suiteDir: PUBLIC_SUITE, manifestPath, out: existing } })).rejects.toMatchObject({ kind: 'output' });
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
