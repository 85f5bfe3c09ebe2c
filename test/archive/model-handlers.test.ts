// The Models view's services on imported trials: one model's history, and
// several models compared at once, ranked and marked exactly as the
// leaderboard ranks and marks them (core's buildLeaderboard on the same
// reports), with each one's family scores.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLeaderboard } from '../../src/core/scoring/leaderboard.js';
import { parseScoreReportText, reportView } from '../../src/core/scoring/report-reader.js';
import { scoreReportText } from '../../src/core/scoring/report.js';
import { buildTinyResult, TINY_SUITE, type BuiltResult } from '../eval/kit.js';
import { openServices, tempDir, type Harness } from './helpers.js';

const tmp = tempDir('ember-models-');
const SEEDS = ['1', '7'];
const MODELS = ['congestion-aware-v1', 'nearest-exit-greedy-v1', 'always-stay'] as const;
let h: Harness;
const trials: number[] = [];
let unscoredManifestTrial: number;

beforeAll(async () => {
  h = await openServices(join(tmp.dir, 'models.sqlite'));
  const { handlers } = h.services;
  const suite = await handlers['suites.add']({ dir: TINY_SUITE });
  const manifest = await handlers['manifests.create']({ suiteHash: suite.suiteHash, seeds: SEEDS });
  await handlers['packs.build']({ manifestHash: manifest.manifestHash });
  const built: BuiltResult[] = [];
  for (const agent of MODELS) built.push(await buildTinyResult(SEEDS, agent, agent));
  // A second trial of the first model (another agent's bytes under its ID), for its history.
  built.push(await buildTinyResult(SEEDS, 'random-legal-v1', MODELS[0]));
  for (const [k, b] of built.entries()) trials.push((await handlers['archive.import']({ fileName: `r${k}.json`, text: b.text })).trialId);
  // The same model on another manifest: not comparable with the others.
  const other = await buildTinyResult(['2'], 'always-stay', 'other-manifest');
  unscoredManifestTrial = (await handlers['archive.import']({ fileName: 'other.json', text: other.text })).trialId;
}, 300_000);

afterAll(async () => {
  await h.services.dispose();
  tmp.remove();
});

describe('models services', () => {
  it("lists the models and gives a model's scored trials in time order, with the trial's score and interval", async () => {
    const { handlers } = h.services;
    const models = await handlers['models.list']({});
    expect(models.find((m) => m.modelId === MODELS[0])).toMatchObject({ trials: 2, scored: 2 });
    const history = await handlers['models.history']({ modelId: MODELS[0] });
    expect(history.points.map((p) => p.trialId)).toEqual([trials[0], trials[3]]);
    for (const point of history.points) {
      const { trial } = await handlers['trials.get']({ trialId: point.trialId });
      expect([point.score, point.scoreRounded, point.intervalLow, point.intervalHigh, point.official]).toEqual([trial.score, trial.scoreRounded, trial.intervalLow, trial.intervalHigh, trial.official]);
      expect(point.intervalLow).not.toBeNull();
    }
  });

  it('ranks several models with the leaderboard order and marks, and gives their family scores', async () => {
    const { handlers } = h.services;
    const chosen = [trials[1]!, trials[2]!, trials[3]!];
    const compared = await handlers['models.compare']({ trialIds: chosen, resamples: 300 });
    const reports = await Promise.all(
      chosen.map(async (id) => {
        const detail = await handlers['trials.get']({ trialId: id });
        return detail.report!;
      }),
    );
    const views = reports.map((r, k) => reportView(parseScoreReportText(scoreReportText(r), `report ${k}`)));
    const expected = buildLeaderboard(views, 300, chosen.map((id) => `trial ${id}`));
    expect(compared.group.board?.order).toEqual(expected.order);
    expect(compared.group.board?.adjacent).toEqual(expected.adjacent);
    expect(compared.group.rows.map((r) => r.vsNext)).toEqual([...expected.adjacent.map((a) => a.outcome), null]);
    expect(compared.families.map((f) => f.modelId)).toEqual(expected.order);
    for (const f of compared.families) {
      const report = reports[chosen.indexOf(f.trialId)]!;
      expect(f.families).toEqual(report.families.map((x) => ({ family: x.family, score: x.score })));
    }
  });

  it('refuses two trials of one model, an unknown trial and trials of another manifest, naming the trial', async () => {
    const { handlers } = h.services;
    await expect(handlers['models.compare']({ trialIds: [trials[0]!, trials[3]!], resamples: 100 })).rejects.toMatchObject({ kind: 'usage', message: expect.stringContaining('choose one trial per model') });
    await expect(handlers['models.compare']({ trialIds: [trials[0]!, 9999], resamples: 100 })).rejects.toMatchObject({ kind: 'not_found', message: expect.stringContaining('no trial 9999') });
    await expect(handlers['models.compare']({ trialIds: [trials[0]!, unscoredManifestTrial], resamples: 100 })).rejects.toMatchObject({ kind: 'usage', message: expect.stringContaining('only trials of one manifest and target compare') });
  });
});
