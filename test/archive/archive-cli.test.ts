// `emberbench archive import | list | export` as processes: results made by
// the CLI go in authenticated and come out byte-identical; corrupt,
// tampered and foreign files are refused with the reason and nothing is
// written; a second writer gets a clear "in use" error while readers read.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildManifest, manifestText } from '../../src/core/eval/manifest.js';
import { openArchiveFile } from '../../src/node/archive/db.js';
import { defaultEntryPoints } from '../../src/node/entry-points.js';
import { runEvaluation } from '../../src/node/eval/runner.js';
import { MemorySink } from '../../src/node/eval/sink.js';
import { loadSuiteDir } from '../../src/node/inputs.js';
import { jsonError, runCli, SUITE } from '../cli/run-cli.js';
import { openServices, PUBLIC_SUITE, tempDir } from './helpers.js';

const tmp = tempDir('ember-archive-cli-');
afterAll(() => tmp.remove());
const at = (name: string): string => join(tmp.dir, name);
const ARCHIVE = at('archive.sqlite');

function cli(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  return runCli(args);
}

function ok(args: readonly string[]): string {
  const r = cli(args);
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/** Read in this process (a reader beside any writer): the trials and artifacts stored. */
function trialCount(): number {
  const reader = openArchiveFile(ARCHIVE, { mode: 'read' });
  try {
    const n = (reader.db.prepare('SELECT count(*) AS n FROM trials').get() as { n: number }).n;
    // Whole trials only: every trial has a row per scheduled episode, all of them done (imports are complete here).
    const partial = reader.db
      .prepare(`SELECT count(*) AS n FROM trials t WHERE t.episodes_scheduled != (SELECT count(*) FROM episodes e WHERE e.trial_id = t.trial_id AND e.status = 'done')`)
      .get() as { n: number };
    expect(partial.n).toBe(0);
    return n;
  } finally {
    reader.close();
  }
}

let summaryText = '';

beforeAll(async () => {
  writeFileSync(at('manifest.json'), manifestText(buildManifest(loadSuiteDir(PUBLIC_SUITE), ['0'])));
  ok(['evaluation', 'run', '--suite', PUBLIC_SUITE, '--manifest', at('manifest.json'), '--model-id', 'nearest', '--agent', 'builtin:nearest-exit-greedy-v1', '--jobs', '2', '--out', at('result.json'), '--json']);
  summaryText = ok(['score', '--suite', PUBLIC_SUITE, '--result', at('result.json'), '--out', at('score.json')]);
  // A result of another suite (the CLI fixture suite), which the archive does not hold (made in this process: the runner is the CLI's).
  const foreign = loadSuiteDir(SUITE);
  const sink = new MemorySink();
  await runEvaluation({ suite: foreign, suiteDir: SUITE, manifest: buildManifest(foreign, ['1']), modelId: 'stay', agent: { kind: 'builtin', id: 'always-stay' }, agentPaths: [], actTimeoutMs: 30_000, sink, continueOnFailure: false, jobs: 1, entryPoints: defaultEntryPoints() });
  writeFileSync(at('foreign.json'), sink.final.text);
}, 120_000);

describe('emberbench archive', () => {
  it('imports a CLI result once, lists it, and exports files byte-identical to the CLI\'s', () => {
    const first = JSON.parse(ok(['archive', 'import', at('result.json'), '--archive', ARCHIVE, '--json'])) as { imported: { trial: number; duplicate: boolean }[] };
    expect(first.imported).toEqual([{ file: at('result.json'), trial: 1, duplicate: false }]);
    const again = JSON.parse(ok(['archive', 'import', at('result.json'), '--archive', ARCHIVE, '--json'])) as { imported: { trial: number; duplicate: boolean }[] };
    expect(again.imported[0]).toMatchObject({ trial: 1, duplicate: true });
    const list = JSON.parse(ok(['archive', 'list', '--archive', ARCHIVE, '--json'])) as { trials: { trial: number; status: string; official: boolean; score: string }[] };
    const cliScore = JSON.parse(readFileSync(at('score.json'), 'utf8')) as { score: string };
    expect(list.trials).toMatchObject([{ trial: 1, status: 'complete', official: false, score: cliScore.score }]);

    ok(['archive', 'export', '1', '--archive', ARCHIVE, '--out', at('out')]);
    expect(readFileSync(at('out/result.json'))).toEqual(readFileSync(at('result.json')));
    expect(readFileSync(at('out/score.json'))).toEqual(readFileSync(at('score.json')));
    expect(readFileSync(at('out/summary.txt'), 'utf8')).toBe(summaryText);
    const refused = cli(['archive', 'export', '1', '--archive', ARCHIVE, '--out', at('out'), '--json']);
    expect(refused.status).toBe(6);
    expect(jsonError(refused.stderr).message).toMatch(/^--out: .* is not empty/);
  });

  it('refuses corrupt, tampered and foreign results with the reason and writes nothing', () => {
    const before = trialCount();
    const text = readFileSync(at('result.json'), 'utf8');
    writeFileSync(at('corrupt.json'), text.slice(0, text.length / 2));
    // Tampered: one metric changed, the file still canonical JSON.
    const tampered = text.replace(/"evacuated":(\d+)/, (_m, n: string) => `"evacuated":${Number(n) + 1}`);
    expect(tampered).not.toBe(text);
    writeFileSync(at('tampered.json'), tampered);
    const cases: [string, RegExp][] = [
      ['corrupt.json', /corrupt\.json/],
      ['tampered.json', /tampered\.json: episodes\[\d+\]/],
      ['foreign.json', /not in the archive; add that suite's folder first/],
    ];
    for (const [file, reason] of cases) {
      const r = cli(['archive', 'import', at(file), '--archive', ARCHIVE, '--json']);
      expect(r.status, file).toBe(3);
      expect(jsonError(r.stderr).message, file).toMatch(reason);
    }
    // A good file next to a bad one: the whole import is refused.
    const mixed = cli(['archive', 'import', at('foreign.json'), at('corrupt.json'), '--suite', SUITE, '--archive', ARCHIVE, '--json']);
    expect(mixed.status).toBe(3);
    expect(trialCount()).toBe(before);
    // With its suite given, the foreign result imports.
    ok(['archive', 'import', at('foreign.json'), '--suite', SUITE, '--archive', ARCHIVE, '--json']);
    expect(trialCount()).toBe(before + 1);
  });

  it('a second writer is told the archive is in use; readers still read', async () => {
    const h = await openServices(ARCHIVE);
    try {
      const r = cli(['archive', 'import', at('result.json'), '--archive', ARCHIVE, '--json']);
      expect(r.status).toBe(6);
      expect(jsonError(r.stderr).message).toMatch(/in use by another process/);
      expect(trialCount()).toBeGreaterThan(0);
      const page = await h.services.handlers['trials.list']({ sort: 'score', direction: 'desc', filter: { model: 'near' }, offset: 0, limit: 10 });
      expect(page.rows.map((t) => t.modelId)).toEqual(['nearest']);
    } finally {
      await h.services.dispose();
    }
  });
});
