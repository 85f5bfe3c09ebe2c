// Trial housekeeping in the store: a delete takes the trial and the
// artifacts only it used and keeps those another trial shares; numbers are
// never reused; running trials are refused; labels, notes and tags never
// touch an artifact; the run log stays bounded.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addSyntheticTrial, rawDatabase, seedSuite } from '../../../test/kits/archive-kit.js';
import { Archive } from './archive.js';
import { getArtifact } from './artifacts.js';
import { getTrialDbRow, listTrials } from './queries.js';
import { allTags, appendTrialLog, deleteTrial, LOG_ENTRIES_MAX, LOG_MESSAGE_MAX, reclaimSpace, setTrialAnnotations, trialAnnotations, trialLog } from './trial-housekeeping.js';
import { setTrialStatus } from './trials-store.js';

const dir = mkdtempSync(join(tmpdir(), 'ember-housekeeping-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SUITE = join(import.meta.dirname, '..', '..', '..', 'scenarios', 'public', 'v1');
let n = 0;

function withArchive(work: (a: Archive, s: ReturnType<typeof seedSuite>) => void): void {
  const a = Archive.open(join(dir, `a${++n}.sqlite`));
  try {
    work(a, seedSuite(a, SUITE, 2));
  } finally {
    a.close();
  }
}

const count = (a: Archive, sql: string, ...params: unknown[]): number => (rawDatabase(a).prepare(sql).get(...params) as { n: number }).n;
const digestsOf = (a: Archive, trialId: number): string[] =>
  (rawDatabase(a).prepare('SELECT record_digest AS d FROM episodes WHERE trial_id = ? UNION SELECT metrics_digest FROM episodes WHERE trial_id = ?').all(trialId, trialId) as { d: string }[]).map((r) => r.d);
const listAll = (a: Archive, filter: { tag?: string } = {}): number[] =>
  listTrials(a, { sort: 'created', direction: 'asc', filter, offset: 0, limit: 1000 }).rows.map((r) => r.trialId);

describe('deleting a trial', () => {
  it('removes the artifacts only it used and keeps those another trial shares, all readable', () => {
    withArchive((a, s) => {
      // Same seed: byte-identical episode records and metrics (shared artifacts); another seed: its own.
      const gone = addSyntheticTrial(a, s, { modelId: 'a', seed: 1 });
      const twin = addSyntheticTrial(a, s, { modelId: 'b', seed: 1 });
      const other = addSyntheticTrial(a, s, { modelId: 'c', seed: 2 });
      const shared = digestsOf(a, gone);
      expect(shared).toEqual(digestsOf(a, twin));
      const ownResult = getTrialDbRow(a, gone)!.result_digest!;
      const before = count(a, 'SELECT count(*) AS n FROM artifacts');
      const inputs = count(a, "SELECT count(*) AS n FROM artifacts WHERE kind IN ('suite-file', 'manifest')");
      // The twin's stored bytes, read back whole (its synthetic records are not real run records, so they are compared as bytes).
      const twinBytes = (): string => digestsOf(a, twin).map((d) => Buffer.from(getArtifact(a, d)).toString('base64')).join(',');
      const twinEntries = twinBytes();

      const outcome = a.write((w) => deleteTrial(w, gone, '2026-12-02T00:00:00Z'));
      expect(outcome).toMatchObject({ kind: 'deleted', trialId: gone, modelId: 'a', episodes: s.manifest.episodes.length, artifactsDeleted: 1, artifactsKept: shared.length });
      expect(count(a, 'SELECT count(*) AS n FROM artifacts')).toBe(before - 1);
      expect(count(a, 'SELECT count(*) AS n FROM artifacts WHERE digest = ?', ownResult)).toBe(0);
      expect(count(a, "SELECT count(*) AS n FROM artifacts WHERE kind IN ('suite-file', 'manifest')")).toBe(inputs);
      for (const table of ['episodes', 'trial_families', 'trial_tags', 'trial_log']) expect(count(a, `SELECT count(*) AS n FROM ${table} WHERE trial_id = ?`, gone)).toBe(0);
      expect(twinBytes()).toBe(twinEntries);
      expect(rawDatabase(a).pragma('foreign_key_check')).toEqual([]);

      // The twin now shares only what the other trial's episodes happen to share with it (small metrics coincide).
      const withOther = shared.filter((d) => digestsOf(a, other).includes(d)).length;
      const last = a.write((w) => deleteTrial(w, twin, '2026-12-02T00:00:01Z'));
      expect(last).toMatchObject({ kind: 'deleted', artifactsDeleted: shared.length - withOther + 1, artifactsKept: withOther });
      for (const d of digestsOf(a, other)) expect(getArtifact(a, d).length).toBeGreaterThan(0);
      expect(listAll(a)).toEqual([other]);
    });
  });

  it('refuses a running trial and a missing one, and never gives a deleted number to a new trial', () => {
    withArchive((a, s) => {
      const first = addSyntheticTrial(a, s, { modelId: 'a', seed: 1 });
      const last = addSyntheticTrial(a, s, { modelId: 'b', seed: 2 });
      a.write((w) => setTrialStatus(w, last, 'running'));
      expect(a.write((w) => deleteTrial(w, last, 'now'))).toEqual({ kind: 'running', trialId: last });
      expect(getTrialDbRow(a, last)).toBeDefined();
      a.write((w) => setTrialStatus(w, last, 'interrupted'));
      expect(a.write((w) => deleteTrial(w, last, 'now')).kind).toBe('deleted');
      expect(a.write((w) => deleteTrial(w, last, 'now'))).toEqual({ kind: 'missing', deletedBefore: true });
      expect(a.write((w) => deleteTrial(w, 999, 'now'))).toEqual({ kind: 'missing', deletedBefore: false });
      // The deleted trial had the highest number: the next trial gets a new one.
      expect(addSyntheticTrial(a, s, { modelId: 'c', seed: 3 })).toBe(last + 1);
      expect(listAll(a)).toEqual([first, last + 1]);
    });
  });

  it('gives the space back: the file shrinks by about what was deleted', () => {
    withArchive((a, s) => {
      const ids = [1, 2, 3, 4].map((seed) => addSyntheticTrial(a, s, { modelId: `m${seed}`, seed: seed * 17 }));
      rawDatabase(a).pragma('wal_checkpoint(TRUNCATE)');
      const full = reclaimSpace(a).after;
      for (const id of ids.slice(1)) a.write((w) => deleteTrial(w, id, 'now'));
      const { before, after } = reclaimSpace(a);
      expect(before).toBe(full);
      expect(after).toBeLessThan(full);
      expect(rawDatabase(a).pragma('freelist_count', { simple: true })).toBe(0);
      expect(rawDatabase(a).pragma('integrity_check', { simple: true })).toBe('ok');
    });
  });
});

describe('labels, notes and tags', () => {
  it('are kept beside the trial, filter the table, and change no artifact or score', () => {
    withArchive((a, s) => {
      const t1 = addSyntheticTrial(a, s, { modelId: 'a', seed: 1 });
      const t2 = addSyntheticTrial(a, s, { modelId: 'b', seed: 2 });
      const fingerprint = (): string => JSON.stringify(rawDatabase(a).prepare('SELECT digest, size FROM artifacts ORDER BY digest').all()) + JSON.stringify(rawDatabase(a).prepare('SELECT score, result_digest FROM trials ORDER BY trial_id').all());
      const before = fingerprint();
      expect(a.write((w) => setTrialAnnotations(w, t1, { label: 'baseline run', notes: 'line one\nline two ✓', tags: ['gpu', 'baseline', 'gpu'] }))).toBe(true);
      a.write((w) => setTrialAnnotations(w, t2, { label: '', notes: '', tags: ['gpu'] }));
      expect(trialAnnotations(a, t1)).toEqual({ label: 'baseline run', notes: 'line one\nline two ✓', tags: ['baseline', 'gpu'] });
      expect(listAll(a, { tag: 'gpu' })).toEqual([t1, t2]);
      expect(listAll(a, { tag: 'baseline' })).toEqual([t1]);
      expect(listAll(a, { tag: 'none' })).toEqual([]);
      expect(listTrials(a, { sort: 'created', direction: 'asc', filter: {}, offset: 0, limit: 10 }).rows[0]).toMatchObject({ label: 'baseline run', tags: ['baseline', 'gpu'] });
      expect(allTags(a)).toEqual([{ tag: 'baseline', trials: 1 }, { tag: 'gpu', trials: 2 }]);
      expect(fingerprint()).toBe(before);
      expect(a.write((w) => setTrialAnnotations(w, 999, { label: '', notes: '', tags: [] }))).toBe(false);
    });
  });

  it('refuses bad values with the field and what to do, changing nothing', () => {
    withArchive((a, s) => {
      const t = addSyntheticTrial(a, s, { modelId: 'a', seed: 1 });
      a.write((w) => setTrialAnnotations(w, t, { label: 'kept', notes: '', tags: ['kept'] }));
      const bad = [
        [{ label: 'x', notes: '', tags: ['two words'] }, /tags: "two words" is not a tag: use 1 to 40 letters/],
        [{ label: 'x', notes: '', tags: Array.from({ length: 21 }, (_, k) => `t${k}`) }, /tags: at most 20 tags/],
        [{ label: 'a\nb', notes: '', tags: [] }, /label: one line/],
        [{ label: 'x'.repeat(201), notes: '', tags: [] }, /label: at most 200 characters/],
        [{ label: '', notes: 'x'.repeat(20_001), tags: [] }, /notes: at most 20000 characters/],
      ] as const;
      for (const [annotations, message] of bad) expect(() => a.write((w) => setTrialAnnotations(w, t, annotations))).toThrow(message);
      expect(trialAnnotations(a, t)).toEqual({ label: 'kept', notes: '', tags: ['kept'] });
    });
  });
});

describe('the run log', () => {
  it('keeps the last entries, each bounded, keeping the end of a long message (the stderr tail)', () => {
    withArchive((a, s) => {
      const t = addSyntheticTrial(a, s, { modelId: 'a', seed: 1 });
      a.write((w) => {
        for (let k = 1; k <= LOG_ENTRIES_MAX + 5; k++) appendTrialLog(w, t, { at: '2026-12-02T00:00:00Z', level: 'info', message: `entry ${k}` });
        appendTrialLog(w, t, { at: '2026-12-02T00:00:01Z', level: 'failure', message: `episode 3 failed: ${'x'.repeat(10_000)}; stderr: Traceback END` });
      });
      const log = trialLog(a, t);
      expect(log).toHaveLength(LOG_ENTRIES_MAX);
      expect(log[0]!.message).toBe('entry 7');
      const last = log.at(-1)!;
      expect(last.level).toBe('failure');
      expect(last.message.length).toBeLessThanOrEqual(LOG_MESSAGE_MAX);
      expect(last.message).toMatch(/^episode 3 failed: x+ … \[\d+ characters cut\] … x+; stderr: Traceback END$/);
      a.write((w) => deleteTrial(w, t, 'now'));
      expect(trialLog(a, t)).toEqual([]);
    });
  });
});
