// trials.list and episodes.list over synthetic rows: sorts, filters, pages and totals.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Archive } from './archive.js';
import { addSyntheticTrial, seedSuite } from '../../../test/kits/archive-kit.js';
import { listEpisodes, listTrials } from './queries.js';
import { setTrialStatus } from './trials-store.js';

const dir = mkdtempSync(join(tmpdir(), 'ember-queries-'));
const suiteDir = join(import.meta.dirname, '..', '..', '..', 'scenarios', 'public', 'v1');
let archive: Archive;
let family: string;
let familyScenarios: number;

beforeAll(() => {
  archive = Archive.open(join(dir, 'a.sqlite'));
  const s = seedSuite(archive, suiteDir, 2);
  family = s.suite.entries[0]!.primaryFamily;
  familyScenarios = s.suite.entries.filter((e) => e.primaryFamily === family).length;
  for (const [k, model] of ['alpha', 'beta', 'alphabet'].entries()) addSyntheticTrial(archive, s, { modelId: model, seed: k + 1 });
  archive.write((db) => setTrialStatus(db, 2, 'interrupted'));
});
afterAll(() => {
  archive.close();
  rmSync(dir, { recursive: true, force: true });
});

const trials = (q: Partial<Parameters<typeof listTrials>[1]>) => listTrials(archive, { sort: 'created', direction: 'desc', filter: {}, offset: 0, limit: 100, ...q });
const episodes = (q: Partial<Parameters<typeof listEpisodes>[1]>) => listEpisodes(archive, { sort: 'index', direction: 'asc', filter: {}, offset: 0, limit: 100, ...q });

describe('trials.list', () => {
  it('sorts by score both ways, filters by model substring and status, pages with a total', () => {
    const desc = trials({ sort: 'score', direction: 'desc' }).rows.map((t) => Number(t.score));
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    const asc = trials({ sort: 'score', direction: 'asc' }).rows.map((t) => Number(t.score));
    expect(asc).toEqual([...desc].reverse());
    expect(trials({ filter: { model: 'alpha' } }).rows.map((t) => t.modelId).sort()).toEqual(['alpha', 'alphabet']);
    expect(trials({ filter: { status: 'interrupted' } }).rows.map((t) => t.trialId)).toEqual([2]);
    expect(trials({ filter: { family } }).total).toBe(3);
    expect(trials({ filter: { family: 'no-such-family' } }).total).toBe(0);
    const page = trials({ sort: 'model', direction: 'asc', offset: 1, limit: 1 });
    expect(page).toMatchObject({ total: 3, rows: [{ modelId: 'alphabet' }] });
  });
});

describe('episodes.list', () => {
  it('filters by trial and family, sorts by score, counts the total', () => {
    const all = episodes({});
    expect(all.total).toBe(3 * 20);
    const one = episodes({ trialId: 2, sort: 'score', direction: 'desc' });
    expect(one.total).toBe(20);
    const scores = one.rows.map((e) => Number(e.score));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(one.rows.every((e) => e.trialId === 2 && e.modelId === 'beta' && e.status === 'done')).toBe(true);
    const fam = episodes({ filter: { family }, sort: 'score', direction: 'asc', limit: 5 });
    expect(fam.total).toBe(3 * 2 * familyScenarios);
    expect(fam.rows).toHaveLength(5);
    expect(fam.rows.every((e) => e.family === family)).toBe(true);
    expect(episodes({ filter: { status: 'failed' } }).total).toBe(0);
  });
});
