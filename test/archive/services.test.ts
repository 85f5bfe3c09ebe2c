// The services behind the contract, over a real archive: a baseline run on
// the public suite through handlers['runs.start'] (worker threads, jobs 2),
// its stored score report against `emberbench score` on the exported
// result, and a resume after a simulated crash.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildManifest, manifestText } from '../../src/core/eval/manifest.js';
import { dispatch } from '../../src/node/services/dispatch.js';
import { loadSuiteDir } from '../../src/node/inputs.js';
import { buildPack } from '../../src/node/pack.js';
import { defaultEntryPoints } from '../../src/node/entry-points.js';
import { runEvaluationToFile } from '../../src/node/workflows/evaluation.js';
import { runCli, TSX } from '../cli/run-cli.js';
import { openServices, PUBLIC_SUITE, tempDir } from './helpers.js';

const tmp = tempDir('ember-services-');
afterAll(() => tmp.remove());

describe('workbench services', () => {
  it('runs a baseline on the public suite into the archive; the stored report is what `score` writes', async () => {
    const archivePath = join(tmp.dir, 'a', 'archive.sqlite');
    const h = await openServices(archivePath);
    try {
      const { handlers } = h.services;
      const [suite] = await handlers['suites.list']({});
      expect(suite!.source).toBe('public');
      const bad = await dispatch(handlers, 'manifests.create', { suiteHash: suite!.suiteHash, seeds: ['3..1'] });
      expect(bad).toMatchObject({ ok: false, error: { kind: 'usage', field: 'seeds' } });
      const manifest = await handlers['manifests.create']({ suiteHash: suite!.suiteHash, seeds: ['0'] });
      expect(manifest.seedCount).toBe(1);
      const badJobs = await dispatch(handlers, 'runs.start', { manifestHash: manifest.manifestHash, agent: { kind: 'builtin', id: 'nope' }, modelId: 'm', jobs: 2 });
      expect(badJobs).toMatchObject({ ok: false, error: { kind: 'usage', field: 'agent.id' } });

      const pack = await handlers['packs.build']({ manifestHash: manifest.manifestHash });
      expect(await handlers['packs.verify']({ packDigest: pack.packDigest })).toMatchObject({ valid: true });
      const { trialId } = await handlers['runs.start']({
        manifestHash: manifest.manifestHash,
        packDigest: pack.packDigest,
        agent: { kind: 'builtin', id: 'static-shortest-path-v1' },
        modelId: 'static-shortest-path-v1',
        jobs: 2,
        actTimeoutMs: 30_000,
        continueOnFailure: true,
        trials: 1,
      });
      const end = await h.ended(trialId);
      expect(end.error, end.error?.message).toBeUndefined();
      expect(end).toMatchObject({ state: 'complete', finished: manifest.episodeCount, scheduled: manifest.episodeCount });
      expect(end.runningScore).not.toBeNull();
      // Progress is throttled: at most one event per 250 ms (plus the final one).
      const progress = h.events.filter((e) => e.event === 'run.progress').length;
      expect(progress).toBeLessThanOrEqual(Math.ceil(end.elapsedMs / 250) + 2);
      const detail = await handlers['trials.get']({ trialId });
      expect(detail.trial).toMatchObject({ status: 'complete', official: true, packId: pack.packId });
      expect(detail.trial.score).not.toBeNull();
      const episodes = await handlers['episodes.list']({ trialId, sort: 'score', direction: 'desc', filter: {}, offset: 0, limit: 100 });
      expect(episodes.total).toBe(manifest.episodeCount);
      expect(episodes.rows.every((e) => e.status === 'done' && e.score !== null)).toBe(true);

      const out = join(tmp.dir, 'export');
      const exported = await handlers['archive.export']({ trialId, outDir: out });
      expect(exported.files.map((f) => f.file).sort()).toEqual(['result.json', 'score.json', 'summary.txt']);
      const refused = await dispatch(handlers, 'archive.export', { trialId, outDir: out });
      expect(refused).toMatchObject({ ok: false, error: { kind: 'output' } });

      // `emberbench score --pack` (a pack built by `pack build`'s code from the same manifest: the same bytes) on the
      // exported result writes the same report bytes and prints the same summary.
      const cliManifest = join(tmp.dir, 'manifest.json');
      const cliPack = join(tmp.dir, 'pack');
      writeFileSync(cliManifest, manifestText(buildManifest(loadSuiteDir(PUBLIC_SUITE), ['0'])));
      await buildPack(PUBLIC_SUITE, cliManifest, cliPack);
      const cliReport = join(tmp.dir, 'cli-score.json');
      const cli = runCli(['score', '--pack', cliPack, '--result', join(out, 'result.json'), '--out', cliReport]);
      expect(cli.status, cli.stderr).toBe(0);
      expect(readFileSync(join(out, 'score.json'))).toEqual(readFileSync(cliReport));
      expect(cli.stdout).toBe(readFileSync(join(out, 'summary.txt'), 'utf8'));
      expect(h.events.some((e) => e.event === 'archive.changed')).toBe(true);

      // The result bytes are those of `evaluation run` (its workflow, in this process) with the same agent and model ID.
      const cliResult = join(tmp.dir, 'cli-result.json');
      await runEvaluationToFile({
        suiteDir: PUBLIC_SUITE,
        manifestPath: cliManifest,
        modelId: 'static-shortest-path-v1',
        agent: { kind: 'builtin', id: 'static-shortest-path-v1' },
        agentPaths: [],
        actTimeoutMs: 30_000,
        jobs: 1,
        out: cliResult,
        resume: false,
        continueOnFailure: true,
        entryPoints: defaultEntryPoints(),
      });
      expect(readFileSync(join(out, 'result.json'))).toEqual(readFileSync(cliResult));

      // Import through the contract (authenticated in the archive worker): the same bytes are a duplicate, a tampered copy is refused.
      const text = readFileSync(join(out, 'result.json'), 'utf8');
      expect(await handlers['archive.import']({ fileName: 'result.json', text })).toEqual({ trialId, duplicate: true });
      const tampered = text.replace(/"evacuated":(\d+)/, (_m, n: string) => `"evacuated":${Number(n) + 1}`);
      const refusedImport = await dispatch(handlers, 'archive.import', { fileName: 'tampered.json', text: tampered });
      expect(refusedImport).toMatchObject({ ok: false, error: { kind: 'validation' } });
      expect((await handlers['trials.list']({ sort: 'created', direction: 'desc', filter: {}, offset: 0, limit: 10 })).total).toBe(1);
    } finally {
      await h.services.dispose();
    }
  });

  it('resumes a trial that a crash (SIGKILL) interrupted: the final files equal the uninterrupted run\'s', async () => {
    const archivePath = join(tmp.dir, 'b', 'archive.sqlite');
    const crash = spawnSync(process.execPath, ['--import', TSX, join(import.meta.dirname, 'fixtures', 'crash-run.ts'), archivePath, 'static-shortest-path-v1', '3'], { encoding: 'utf8' });
    expect(crash.signal, crash.stdout + crash.stderr).toBe('SIGKILL');
    const trialId = Number(/trial (\d+)/.exec(crash.stdout)![1]);

    const h = await openServices(archivePath);
    try {
      const { handlers } = h.services;
      const overview = await handlers.overview({});
      const interrupted = overview.interrupted.find((t) => t.trialId === trialId);
      expect(interrupted?.status).toBe('interrupted');
      expect(interrupted!.episodesCompleted).toBeGreaterThanOrEqual(3);
      expect(interrupted!.episodesCompleted).toBeLessThan(interrupted!.episodesScheduled);
      const notAgain = await dispatch(handlers, 'runs.resume', { trialId: trialId + 100 });
      expect(notAgain).toMatchObject({ ok: false, error: { kind: 'not_found', field: 'trialId' } });

      // A cancel interrupts it again (committed episodes stay); a resume finishes it.
      await handlers['runs.resume']({ trialId, jobs: 2 });
      expect(await dispatch(handlers, 'runs.resume', { trialId })).toMatchObject({ ok: false, error: { kind: 'conflict' } });
      await handlers['runs.cancel']({ trialId });
      expect((await h.ended(trialId)).state).toBe('cancelled');
      expect((await handlers['trials.get']({ trialId })).trial.status).toBe('interrupted');
      h.events.length = 0;
      await handlers['runs.resume']({ trialId, jobs: 2 });
      const resumedEnd = await h.ended(trialId);
      expect(resumedEnd.state).toBe('complete');
      // The running score after a resume is the mean over every episode of the trial, not only the resumed ones.
      const all = await handlers['episodes.list']({ trialId, sort: 'index', direction: 'asc', filter: {}, offset: 0, limit: 1000 });
      const scores = all.rows.map((e) => e.score).filter((v): v is string => v !== null).map((v) => (v.includes('/') ? Number(v.split('/')[0]) / Number(v.split('/')[1]) : Number(v)));
      expect(scores.length).toBe(all.total);
      expect(Math.abs(Number(resumedEnd.runningScore) - scores.reduce((x, y) => x + y, 0) / scores.length)).toBeLessThan(0.006);
      expect((await handlers['trials.get']({ trialId })).trial).toMatchObject({ status: 'complete', official: true });
      const out = join(tmp.dir, 'export-resumed');
      await handlers['archive.export']({ trialId, outDir: out });
      for (const file of ['result.json', 'score.json', 'summary.txt']) {
        expect(readFileSync(join(out, file)), file).toEqual(readFileSync(join(tmp.dir, 'export', file)));
      }

      // K = 2 trials of one configuration: two trials, one after the other. Their workers get the
      // stored suite as bytes: no suite folder is written beside the archive for them.
      const manifestHash = interrupted!.manifestHash;
      const suiteFolders = join(`${archivePath}.cache`, 'suites');
      rmSync(suiteFolders, { recursive: true, force: true });
      const first = await handlers['runs.start']({ manifestHash, packDigest: null, agent: { kind: 'builtin', id: 'always-stay' }, modelId: 'stay', jobs: 1, actTimeoutMs: 30_000, continueOnFailure: true, trials: 2 });
      expect((await h.ended(first.trialId)).state).toBe('complete');
      expect((await h.ended(first.trialId + 1)).state).toBe('complete');
      const stay = await handlers['trials.list']({ sort: 'created', direction: 'asc', filter: { model: 'stay' }, offset: 0, limit: 10 });
      expect(stay.rows.map((t) => [t.trialId, t.status])).toEqual([
        [first.trialId, 'complete'],
        [first.trialId + 1, 'complete'],
      ]);
      expect(existsSync(suiteFolders)).toBe(false);
    } finally {
      await h.services.dispose();
    }
  });
});
