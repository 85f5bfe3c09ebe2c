// The services behind the contract, over a real archive: a baseline run on
// the public suite through handlers['runs.start'] (worker threads, jobs 2),
// its stored score report against `emberbench score` on the exported
// result, and a resume after a simulated crash.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../src/node/app/dispatch.js';
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

      const { trialId } = await handlers['runs.start']({
        manifestHash: manifest.manifestHash,
        packDigest: null,
        agent: { kind: 'builtin', id: 'static-shortest-path-v1' },
        modelId: 'static-shortest-path-v1',
        jobs: 2,
        actTimeoutMs: 30_000,
        continueOnFailure: true,
      });
      const end = await h.ended(trialId);
      expect(end).toMatchObject({ state: 'complete', finished: manifest.episodeCount, scheduled: manifest.episodeCount });
      const detail = await handlers['trials.get']({ trialId });
      expect(detail.trial.status).toBe('complete');
      expect(detail.trial.score).not.toBeNull();
      const episodes = await handlers['episodes.list']({ trialId, sort: 'score', direction: 'desc', filter: {}, offset: 0, limit: 100 });
      expect(episodes.total).toBe(manifest.episodeCount);
      expect(episodes.rows.every((e) => e.status === 'done' && e.score !== null)).toBe(true);

      const out = join(tmp.dir, 'export');
      const exported = await handlers['archive.export']({ trialId, outDir: out });
      expect(exported.files.map((f) => f.file).sort()).toEqual(['result.json', 'score.json', 'summary.txt']);
      const refused = await dispatch(handlers, 'archive.export', { trialId, outDir: out });
      expect(refused).toMatchObject({ ok: false, error: { kind: 'output' } });

      // `emberbench score` on the exported result writes the same report bytes and prints the same summary.
      const cliReport = join(tmp.dir, 'cli-score.json');
      const cli = runCli(['score', '--suite', PUBLIC_SUITE, '--result', join(out, 'result.json'), '--out', cliReport]);
      expect(cli.status, cli.stderr).toBe(0);
      expect(readFileSync(join(out, 'score.json'))).toEqual(readFileSync(cliReport));
      expect(cli.stdout).toBe(readFileSync(join(out, 'summary.txt'), 'utf8'));
      expect(h.events.some((e) => e.event === 'archive.changed')).toBe(true);
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

      await handlers['runs.resume']({ trialId, jobs: 2 });
      expect((await h.ended(trialId)).state).toBe('complete');
      const out = join(tmp.dir, 'export-resumed');
      await handlers['archive.export']({ trialId, outDir: out });
      for (const file of ['result.json', 'score.json', 'summary.txt']) {
        expect(readFileSync(join(out, file)), file).toEqual(readFileSync(join(tmp.dir, 'export', file)));
      }
    } finally {
      await h.services.dispose();
    }
  });
});
