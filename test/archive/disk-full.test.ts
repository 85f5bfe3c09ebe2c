// A full disk during an app run (the services, in process): the run ends
// with the disk-full message naming the archive, its trial is interrupted
// (never left `running`: the views say interrupted at once, the archive as
// soon as a write goes through), Resume takes it once there is space, and
// the finished result is byte-identical to `evaluation run`'s. Twice: with
// the storage layer's fault hook, and on a real 2 MB tmpfs filled up (when
// this process may mount one; skipped with the reason otherwise).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildManifest, manifestText } from '../../src/core/eval/manifest.js';
import { dispatch } from '../../src/node/services/dispatch.js';
import { openArchiveFile } from '../../src/node/archive/db.js';
import { enospcAfter, injectStorageFault } from '../../src/node/archive/storage-faults.js';
import { defaultEntryPoints } from '../../src/node/entry-points.js';
import { loadSuiteDir } from '../../src/node/inputs.js';
import { runEvaluationToFile } from '../../src/node/workflows/evaluation.js';
import { openServices, PUBLIC_SUITE, tempDir, type Harness } from './helpers.js';

const tmp = tempDir('ember-disk-full-');
const mountPoint = join(tmp.dir, 'tmpfs');
let mounted = false;
afterAll(() => {
  injectStorageFault(undefined);
  if (mounted) spawnSync('umount', [mountPoint]);
  tmp.remove();
});

const MODEL = 'static-shortest-path-v1';
const AGENT = { kind: 'builtin' as const, id: MODEL };

/** The CLI's bytes for the manifest of seed 0: the reference every resumed trial must equal. */
let reference: Buffer | undefined;
async function cliResult(): Promise<Buffer> {
  if (reference !== undefined) return reference;
  const manifestPath = join(tmp.dir, 'manifest.json');
  writeFileSync(manifestPath, manifestText(buildManifest(loadSuiteDir(PUBLIC_SUITE), ['0'])));
  const out = join(tmp.dir, 'cli-result.json');
  await runEvaluationToFile({ suiteDir: PUBLIC_SUITE, manifestPath, modelId: MODEL, agent: AGENT, agentPaths: [], actTimeoutMs: 30_000, jobs: 1, out, resume: false, continueOnFailure: true, entryPoints: defaultEntryPoints() });
  return (reference = readFileSync(out));
}

async function startRun(h: Harness, beforeStart: () => void = () => undefined): Promise<number> {
  const { handlers } = h.services;
  const [suite] = await handlers['suites.list']({});
  const manifest = await handlers['manifests.create']({ suiteHash: suite!.suiteHash, seeds: ['0'] });
  beforeStart();
  const { trialId } = await handlers['runs.start']({ manifestHash: manifest.manifestHash, packDigest: null, agent: AGENT, modelId: MODEL, jobs: 1, actTimeoutMs: 30_000, continueOnFailure: true, trials: 1 });
  return trialId;
}

function storedStatus(path: string, trialId: number): { status: string; done: number } {
  const reader = openArchiveFile(path, { mode: 'read' });
  try {
    const row = reader.db.prepare(`SELECT status, (SELECT count(*) FROM episodes WHERE trial_id = ? AND status = 'done') AS done FROM trials WHERE trial_id = ?`).get(trialId, trialId) as { status: string; done: number };
    expect(reader.db.pragma('integrity_check', { simple: true })).toBe('ok');
    return row;
  } finally {
    reader.close();
  }
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** After the fault: the run's end names disk full; the trial is interrupted, not running; Resume finishes it byte-identical to the CLI. */
async function checkDiskFullRun(h: Harness, archivePath: string, trialId: number, freeSpace: () => void, resumeWhileFull: boolean): Promise<void> {
  const { handlers } = h.services;
  const end = await h.ended(trialId);
  expect(end.state).toBe('failed');
  expect(end.error).toEqual({
    kind: 'output',
    message: `${archivePath}: the disk is full (no space left on device); free some space on that disk and try again. Everything committed before is kept: an interrupted evaluation can be resumed once there is space`,
  });
  expect((await handlers['trials.get']({ trialId })).trial.status).toBe('interrupted');
  expect(await dispatch(handlers, 'runs.cancel', { trialId })).toMatchObject({ ok: false, error: { kind: 'not_found' } });
  const before = storedStatus(archivePath, trialId).done;
  // Still full (the hook fails every write; on a real disk the rolled-back episode may have left room for a small one): Resume says so.
  if (resumeWhileFull) expect(await dispatch(handlers, 'runs.resume', { trialId })).toMatchObject({ ok: false, error: { kind: 'output', message: end.error!.message } });
  freeSpace();
  // Once a write goes through, the archive says interrupted too.
  await until(() => storedStatus(archivePath, trialId).status === 'interrupted', 'the trial marked interrupted');
  expect(storedStatus(archivePath, trialId).done).toBe(before);
  await handlers['runs.resume']({ trialId });
  const resumed = await h.ended(trialId).then(async (first) => (first.state === 'failed' ? waitNext(h, trialId, h.events.length) : first));
  expect(resumed.state, resumed.error?.message).toBe('complete');
  const out = join(tmp.dir, `export-${trialId}-${Math.random().toString(36).slice(2)}`);
  await handlers['archive.export']({ trialId, outDir: out });
  expect(readFileSync(join(out, 'result.json')).equals(await cliResult())).toBe(true);
}

/** The next terminal event of the trial after the first `after` events (a resumed run's end, not the faulted one's). */
async function waitNext(h: Harness, trialId: number, after: number): Promise<Awaited<ReturnType<Harness['ended']>>> {
  await until(() => h.events.slice(after).some((e) => e.event === 'run.progress' && (e.payload as { trialId: number; state: string }).trialId === trialId && ['complete', 'incomplete', 'failed', 'cancelled'].includes((e.payload as { state: string }).state)), 'the resumed run to end');
  return h.events.slice(after).filter((e) => e.event === 'run.progress' && (e.payload as { trialId: number }).trialId === trialId).at(-1)!.payload as Awaited<ReturnType<Harness['ended']>>;
}

describe('a full disk during an app run', () => {
  it('the storage fault hook: after a few episodes every write fails as on a full disk', async () => {
    await cliResult();
    const archivePath = join(tmp.dir, 'hook', 'archive.sqlite');
    const h = await openServices(archivePath);
    try {
      // The trial row, its isolation, its `running` mark, then two episodes; the third episode meets the full disk.
      const fault = enospcAfter(5);
      const trialId = await startRun(h, () => injectStorageFault(fault));
      await checkDiskFullRun(h, archivePath, trialId, () => fault.release(), true);
      expect(fault.failed).toBeGreaterThan(0);
    } finally {
      injectStorageFault(undefined);
      await h.services.dispose();
    }
  }, 300_000);

  const canMount = ((): string | undefined => {
    if (process.platform !== 'linux') return 'tmpfs needs Linux';
    mkdirSync(mountPoint, { recursive: true });
    const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint], { encoding: 'utf8' });
    if (r.status !== 0) return `mount -t tmpfs is not permitted here (${(r.stderr || r.error?.message || '').trim()})`;
    mounted = true;
    return undefined;
  })();
  if (canMount !== undefined) console.warn(`skipped: the real full disk (tmpfs) case: ${canMount}`);

  it.skipIf(canMount !== undefined)('a real full disk: the archive on a 2 MB tmpfs, filled while the run goes', async () => {
    await cliResult();
    const archivePath = join(mountPoint, 'archive.sqlite');
    const filler = join(mountPoint, 'filler');
    const h = await openServices(archivePath);
    try {
      // Leave about 160 KB: the trial row fits, a few compressed episodes do not.
      const fill = (): void => {
        const free = Number(spawnSync('df', ['-B1', '--output=avail', mountPoint], { encoding: 'utf8' }).stdout.trim().split('\n')[1]);
        writeFileSync(filler, Buffer.alloc(Math.max(0, free - 160 * 1024)));
      };
      const trialId = await startRun(h, fill);
      await checkDiskFullRun(h, archivePath, trialId, () => rmSync(filler, { force: true }), false);
    } finally {
      await h.services.dispose();
    }
  }, 300_000);
});
