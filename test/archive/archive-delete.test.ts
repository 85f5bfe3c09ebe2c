// `emberbench archive delete` as a process: two results of the same
// episodes (two model IDs) share their record and metrics artifacts;
// deleting one keeps the other whole (it exports byte-identical) and
// `archive check` passes; a trial marked running and a missing trial are
// refused with what to do; an archive the app holds is refused.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildManifest } from '../../src/core/eval/manifest.js';
import { openArchiveFile } from '../../src/node/archive/db.js';
import { defaultEntryPoints } from '../../src/node/entry-points.js';
import { runEvaluation } from '../../src/node/eval/runner.js';
import { MemorySink } from '../../src/node/eval/sink.js';
import { loadSuiteDir } from '../../src/node/inputs.js';
import { jsonError, runCli } from '../cli/run-cli.js';
import { openServices, PUBLIC_SUITE, tempDir } from './helpers.js';

const tmp = tempDir('ember-archive-delete-');
afterAll(() => tmp.remove());
const at = (name: string): string => join(tmp.dir, name);
const ARCHIVE = at('archive.sqlite');

function ok(args: readonly string[]): string {
  const r = runCli(args);
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

function raw<T>(work: (db: ReturnType<typeof openArchiveFile>['db']) => T): T {
  const opened = openArchiveFile(ARCHIVE, { mode: 'write' });
  try {
    return work(opened.db);
  } finally {
    opened.close();
  }
}

beforeAll(async () => {
  const suite = loadSuiteDir(PUBLIC_SUITE);
  const manifest = buildManifest(suite, ['0']);
  for (const modelId of ['kept', 'gone']) {
    const sink = new MemorySink();
    await runEvaluation({ suite, suiteDir: PUBLIC_SUITE, manifest, modelId, agent: { kind: 'builtin', id: 'nearest-exit-greedy-v1' }, agentPaths: [], actTimeoutMs: 30_000, sink, continueOnFailure: false, jobs: 1, entryPoints: defaultEntryPoints() });
    writeFileSync(at(`${modelId}.json`), sink.final.text);
  }
  ok(['archive', 'import', at('kept.json'), at('gone.json'), '--archive', ARCHIVE, '--json']);
}, 300_000);

describe('emberbench archive delete', () => {
  it('deletes one trial, keeps the artifacts the other shares, and archive check passes', () => {
    const shared = raw((db) => (db.prepare('SELECT count(*) AS n FROM episodes a JOIN episodes b ON a.record_digest = b.record_digest WHERE a.trial_id = 1 AND b.trial_id = 2').get() as { n: number }).n);
    expect(shared).toBeGreaterThan(0);
    const report = JSON.parse(ok(['archive', 'delete', '--archive', ARCHIVE, '--trial', '2', '--json'])) as Record<string, unknown>;
    expect(report).toMatchObject({ trial: 2, model_id: 'gone', artifacts_kept: expect.any(Number) as number });
    expect(report.artifacts_kept as number).toBeGreaterThanOrEqual(shared);
    // Only the result (its own bytes), the score report and the summary were its alone.
    expect(report.artifacts_deleted).toBe(3);
    expect(report.file_bytes_after as number).toBeLessThanOrEqual(report.file_bytes_before as number);

    const check = JSON.parse(ok(['archive', 'check', '--archive', ARCHIVE, '--json'])) as { ok: boolean; trials_checked: number };
    expect(check).toMatchObject({ ok: true, trials_checked: 1 });
    ok(['archive', 'export', '1', '--archive', ARCHIVE, '--out', at('out')]);
    expect(readFileSync(at('out/result.json'))).toEqual(readFileSync(at('kept.json')));
    expect(raw((db) => db.pragma('foreign_key_check'))).toEqual([]);

    const again = runCli(['archive', 'delete', '--archive', ARCHIVE, '--trial', '2', '--json']);
    expect(again.status).toBe(3);
    expect(jsonError(again.stderr).message).toMatch(/there is no trial 2 \(it was deleted\); run `emberbench archive list`/);
    // Its number is not given again.
    ok(['archive', 'import', at('gone.json'), '--archive', ARCHIVE, '--json']);
    expect(JSON.parse(ok(['archive', 'list', '--archive', ARCHIVE, '--json'])).trials.map((t: { trial: number }) => t.trial)).toEqual([1, 3]);
  });

  it('refuses a trial marked running, a bad number, and an archive the app holds', async () => {
    raw((db) => db.prepare(`UPDATE trials SET status = 'running' WHERE trial_id = 1`).run());
    const running = runCli(['archive', 'delete', '--archive', ARCHIVE, '--trial', '1', '--json']);
    expect(running.status).toBe(6);
    expect(jsonError(running.stderr).message).toMatch(/trial 1 is marked running .* open the app, which marks it interrupted/);
    raw((db) => db.prepare(`UPDATE trials SET status = 'complete' WHERE trial_id = 1`).run());
    const bad = runCli(['archive', 'delete', '--archive', ARCHIVE, '--trial', 'x1', '--json']);
    expect(bad.status).toBe(2);
    expect(jsonError(bad.stderr).message).toMatch(/must be a trial number/);

    const h = await openServices(ARCHIVE);
    try {
      const held = runCli(['archive', 'delete', '--archive', ARCHIVE, '--trial', '1', '--json']);
      expect(held.status).toBe(6);
      expect(jsonError(held.stderr).message).toMatch(/in use by another process/);
    } finally {
      await h.services.dispose();
    }
    expect(JSON.parse(ok(['archive', 'list', '--archive', ARCHIVE, '--json'])).trials).toHaveLength(2);
  });
});
