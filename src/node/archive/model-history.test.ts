// The Models view's queries over synthetic trials: the model list with its counts, and one model's history in time order.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Archive, connectionOf } from './archive.js';
import { addSyntheticTrial, seedSuite } from '../../../test/kits/archive-kit.js';
import { listModels, modelHistory } from './model-history.js';

const dir = mkdtempSync(join(tmpdir(), 'ember-model-history-'));
const suiteDir = join(import.meta.dirname, '..', '..', '..', 'scenarios', 'public', 'v1');
let archive: Archive;
const ids: number[] = [];

beforeAll(() => {
  archive = Archive.open(join(dir, 'a.sqlite'));
  const s = seedSuite(archive, suiteDir, 1);
  for (const [k, model] of ['alpha', 'beta', 'alpha', 'alpha', 'alpha'].entries()) ids.push(addSyntheticTrial(archive, s, { modelId: model, seed: k + 1 }));
  archive.write((db) => {
    const set = connectionOf(db).prepare('UPDATE trials SET created = ? WHERE trial_id = ?');
    // Trial 3 is the oldest; trials 4 and 5 share one instant (ordered by ID); trial 5 has no score (still running).
    set.run('2026-01-03T00:00:00.000Z', ids[0]);
    set.run('2026-01-01T00:00:00.000Z', ids[2]);
    set.run('2026-01-05T00:00:00.000Z', ids[3]);
    set.run('2026-01-05T00:00:00.000Z', ids[4]);
    connectionOf(db).prepare('UPDATE trials SET interval_low = ?, interval_high = ? WHERE trial_id = ?').run('10.5', '20.25', ids[0]);
    connectionOf(db).prepare('UPDATE trials SET score = NULL, score_key = NULL, score_rounded = NULL WHERE trial_id = ?').run(ids[4]);
  });
});
afterAll(() => {
  archive.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('model history', () => {
  it('lists every model with its trials and scored trials', () => {
    expect(listModels(archive).map(({ modelId, trials, scored }) => ({ modelId, trials, scored }))).toEqual([
      { modelId: 'alpha', trials: 4, scored: 3 },
      { modelId: 'beta', trials: 1, scored: 1 },
    ]);
  });

  it("gives one model's scored trials oldest first, each with its score and interval when it has one", () => {
    const points = modelHistory(archive, 'alpha');
    expect(points.map((p) => p.trialId)).toEqual([ids[2], ids[0], ids[3]]);
    expect(points[1]).toMatchObject({ intervalLow: '10.5', intervalHigh: '20.25', official: false, created: '2026-01-03T00:00:00.000Z' });
    expect(points[0]).toMatchObject({ intervalLow: null, intervalHigh: null });
    expect(points.every((p) => p.score !== '' && p.scoreRounded === Number(p.score).toFixed(1))).toBe(true);
    expect(points.every((p) => p.target.length > 0 && /^[0-9a-f]{64}$/.test(p.manifestHash))).toBe(true);
  });

  it('is empty for a model the archive does not have, and takes its ID as data', () => {
    expect(modelHistory(archive, 'nobody')).toEqual([]);
    expect(modelHistory(archive, "alpha' OR 1=1 --")).toEqual([]);
  });
});
