// The review services on imported trials: a report of several trials, the
// bundle, its verification and the HTML report run in the archive worker (a
// real worker thread) and answer what the library computes in-process; a
// replay reads its one episode, so it still works when the trial's whole
// result artifact is damaged, while an export of that result fails closed.
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestText } from '../../src/core/eval/manifest.js';
import { compareReports } from '../../src/core/scoring/compare.js';
import { parseScoreReportText, reportView } from '../../src/core/scoring/report-reader.js';
import { scoreReportText } from '../../src/core/scoring/report.js';
import { recordText } from '../../src/core/sim/record.js';
import { dispatch } from '../../src/node/services/dispatch.js';
import { reviewHandlers } from '../../src/node/services/review-handlers.js';
import { Archive } from '../../src/node/archive/archive.js';
import { openArchiveFile } from '../../src/node/archive/db.js';
import { runOffThread } from '../../src/node/jobs/off-thread.js';
import { verifyBundle } from '../../src/node/bundle/bundle.js';
import { defaultEntryPoints } from '../../src/node/entry-points.js';
import { buildPack, loadPack } from '../../src/node/pack.js';
import { scoreResults } from '../../src/node/workflows/score.js';
import { buildTinyResult, TINY_SUITE, type BuiltResult } from '../eval/kit.js';
import { filesOf, openServices, tempDir, type Harness } from './helpers.js';

const tmp = tempDir('ember-review-');
const WORKER = defaultEntryPoints().archiveWorker;
const SEEDS = ['1', '7'];
let congestion: BuiltResult;
let greedyA: BuiltResult;
let greedyB: BuiltResult;
let h: Harness;
const trials: number[] = [];
let packDir: string;

beforeAll(async () => {
  congestion = await buildTinyResult(SEEDS, 'congestion-aware-v1', 'congestion-aware-v1');
  // Two trials of one model ("greedy"), different bytes: two baselines under one model ID.
  greedyA = await buildTinyResult(SEEDS, 'nearest-exit-greedy-v1', 'greedy');
  greedyB = await buildTinyResult(SEEDS, 'always-stay', 'greedy');
  h = await openServices(join(tmp.dir, 'review.sqlite'));
  const { handlers } = h.services;
  const suite = await handlers['suites.add']({ dir: TINY_SUITE });
  const manifest = await handlers['manifests.create']({ suiteHash: suite.suiteHash, seeds: SEEDS });
  const pack = await handlers['packs.build']({ manifestHash: manifest.manifestHash });
  // The same pack as a folder, for the library side.
  packDir = join(tmp.dir, 'pack');
  const manifestPath = join(tmp.dir, 'manifest.json');
  writeFileSync(manifestPath, manifestText(congestion.manifest));
  expect((await buildPack(TINY_SUITE, manifestPath, packDir)).digest).toBe(pack.packDigest);
  for (const [name, built] of [['congestion.json', congestion], ['greedy-a.json', greedyA], ['greedy-b.json', greedyB]] as const) {
    const imported = await handlers['archive.import']({ fileName: name, text: built.text });
    expect(imported.duplicate).toBe(false);
    trials.push(imported.trialId);
  }
  expect((await handlers['trials.get']({ trialId: trials[0]! })).trial.packId).toBe(pack.packId);
}, 300_000);

afterAll(async () => {
  await h.services.dispose();
  tmp.remove();
});

/** The library's report of results on the tiny suite's pack, in this thread. */
function libraryReport(results: readonly BuiltResult[]) {
  const pack = loadPack(packDir);
  const text = scoreReportText(scoreResults({ suite: pack.suite, pack, results: results.map((r, k) => ({ text: r.text, source: `result ${k}` })) }));
  return reportView(parseScoreReportText(text, 'library report'));
}

describe('review services', () => {
  it('compares a trial with a report of two trials, computed in the archive worker as the library computes it', async () => {
    const compared = await h.services.handlers['compare.trials']({ a: [trials[0]!], b: [trials[1]!, trials[2]!], resamples: 200 });
    const expected = compareReports(libraryReport([congestion]), libraryReport([greedyA, greedyB]), 200, 'congestion-aware-v1', 'greedy');
    expect(compared.artifact).toEqual(expected.artifact);

    // The job itself, in a worker and in this thread: the library's report text; a pack that is not the stored one is refused.
    const pack = loadPack(packDir);
    const results = [greedyA, greedyB].map((r, k) => ({ text: r.text, source: `result ${k}` }));
    const job = { results, suiteHash: pack.suite.hash, suiteFiles: [], pack: { digest: pack.digest, files: filesOf(packDir) } };
    const reportText = scoreReportText(scoreResults({ suite: pack.suite, pack, results }));
    expect(await runOffThread(WORKER, { kind: 'trials-report', input: job })).toBe(reportText);
    expect(await runOffThread(undefined, { kind: 'trials-report', input: job })).toBe(reportText);
    const otherDigest = { ...job, pack: { ...job.pack, digest: '0'.repeat(64) } };
    await expect(runOffThread(WORKER, { kind: 'trials-report', input: otherDigest })).rejects.toMatchObject({ kind: 'validation' });
  }, 300_000);

  it('writes a bundle, verifies it, finds a changed byte, and renders the HTML report, all in the worker', async () => {
    const { handlers } = h.services;
    const dir = join(tmp.dir, 'bundle');
    const summary = await handlers['export.bundle']({ a: [trials[0]!], b: [trials[1]!, trials[2]!], outDir: dir });
    expect(summary.models).toEqual([
      { modelId: 'congestion-aware-v1', trials: 1, score: expect.any(String) },
      { modelId: 'greedy', trials: 2, score: expect.any(String) },
    ]);
    expect(verifyBundle(dir).index).toEqual(JSON.parse(readFileSync(join(dir, 'bundle.json'), 'utf8')));
    expect(await handlers['export.verifyBundle']({ dir })).toEqual(summary);

    const damaged = join(tmp.dir, 'bundle-damaged');
    cpSync(dir, damaged, { recursive: true });
    const score = join(damaged, 'model-1', 'score.json');
    writeFileSync(score, readFileSync(score, 'utf8').replace('"scoring_version"', ' "scoring_version"'));
    const refused = await dispatch(handlers, 'export.verifyBundle', { dir: damaged });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'validation', message: expect.stringContaining('score.json') } });

    const outFile = join(tmp.dir, 'report.html');
    const html = await handlers['export.htmlReport']({ bundleDir: dir, outFile });
    const bytes = readFileSync(outFile);
    expect(html).toEqual({ file: outFile, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
    const again = await dispatch(handlers, 'export.htmlReport', { bundleDir: dir, outFile });
    expect(again).toMatchObject({ ok: false, error: { kind: 'output', message: expect.stringContaining('is never replaced') } });
  }, 300_000);

  it('replays an episode from its own record, even when the trial\'s whole result is damaged', async () => {
    const trialId = trials[0]!;
    const replayed = await h.services.handlers['episodes.replay']({ trialId, index: 1 });
    expect(replayed.recordText).toBe(recordText(congestion.result.episodes[1]!.record));
    expect(replayed.failure).toBeNull();
    const missing = await dispatch(h.services.handlers, 'episodes.replay', { trialId, index: 99 });
    expect(missing).toMatchObject({ ok: false, error: { kind: 'not_found' } });

    // Damage the stored result artifact (not the episode's record) behind the services' back.
    const archivePath = join(tmp.dir, 'review.sqlite');
    await h.services.dispose();
    const { db, close } = openArchiveFile(archivePath, { mode: 'write' });
    const { result_digest: digest } = db.prepare('SELECT result_digest FROM trials WHERE trial_id = ?').get(trialId) as { result_digest: string };
    db.prepare("UPDATE artifacts SET encoding = 'raw', size = 4, bytes = ? WHERE digest = ?").run(Buffer.from('junk'), digest);
    close();
    // Where a whole text is needed, a result over the one-text limit is refused with the way through (here a limit of 1 KB).
    const archive = Archive.open(archivePath);
    try {
      const small = reviewHandlers(archive, undefined, 1024);
      await expect(small['compare.trials']({ a: [trials[1]!, trials[2]!], b: [trials[0]!], resamples: 200 })).rejects.toMatchObject({
        kind: 'usage',
        message: expect.stringMatching(/^a: trial \d+'s result is .* more than the app reads as one text .* export the trial and use `emberbench score`/),
      });
      await expect(small['export.bundle']({ a: [trials[1]!], b: [], outDir: join(tmp.dir, 'refused-bundle') })).rejects.toMatchObject({ kind: 'usage' });
    } finally {
      archive.close();
    }
    h = await openServices(archivePath);

    const again = await h.services.handlers['episodes.replay']({ trialId, index: 1 });
    expect(again.recordText).toBe(replayed.recordText);
    const exported = await dispatch(h.services.handlers, 'archive.export', { trialId, outDir: join(tmp.dir, 'export') });
    expect(exported).toMatchObject({ ok: false, error: { kind: 'validation', message: expect.stringContaining('does not match its digest') } });
  }, 300_000);
});
