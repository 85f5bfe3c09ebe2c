// `emberbench score` and `emberbench scoring table`: real result files of
// real replayed fixture episodes on a suite directory written to disk,
// scored through the command (in process, and once as a process).
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baselineFactory } from '../../src/core/baselines/registry.js';
import { manifestText } from '../../src/core/eval/manifest.js';
import type { EvaluationResult } from '../../src/core/eval/result.js';
import { fileDigest } from '../../src/core/hash.js';
import { canonicalJson, type JsonValue } from '../../src/core/json/canonical.js';
import { buildOperationalRecord, operationalRecordText } from '../../src/core/scoring/operational.js';
import { parseScoreReportText } from '../../src/core/scoring/report-reader.js';
import { scoringTable } from '../../src/core/scoring/scoring-table.js';
import { summaryText } from '../../src/core/scoring/summary.js';
import { Rational } from '../../src/core/stats/rational.js';
import {
  ATTRIBUTION,
  DOOR,
  ROUTE_CUT,
  SEALED,
  fixtureScenarioText,
  fixtureSuite,
  holdingAgent,
  manifestOf,
  fixtureScenario,
  runTrial,
  type FixtureSpec,
  type Mutable,
} from '../kits/score-kit.js';
import { buildSuiteManifest } from '../../src/core/world/suite.js';
import { captureIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { buildPack } from '../../src/node/pack.js';
import { scoreResultFiles, type ScoreFilesOptions } from '../../src/node/workflows/score.js';
import { jsonError, runCli } from './run-cli.js';

const SPECS: FixtureSpec[] = [ATTRIBUTION, DOOR, SEALED, ROUTE_CUT];
const fireAware = baselineFactory('fire-aware-shortest-path-v1')!;

let scratch: string;
let suiteDir: string;
let trial0: string;
let trial1: string;
let otherModel: string;
let counter = 0;

function out(name = 'score.json'): string {
  const dir = join(scratch, `case-${counter++}`);
  mkdirSync(dir);
  return join(dir, name);
}

async function cli(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = captureIO();
  const code = await main(args, io);
  return { code, stdout: io.out(), stderr: io.err() };
}

function write(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

/** A result file with `edit` applied to its parsed value, written canonically again. */
function editedResult(source: string, name: string, edit: (result: Mutable<EvaluationResult>) => void): string {
  const value = JSON.parse(readFileSync(source, 'utf8')) as Mutable<EvaluationResult>;
  edit(value);
  return write(name, canonicalJson(value as unknown as JsonValue) + '\n');
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-cli-score-'));
  suiteDir = join(scratch, 'suite');
  mkdirSync(suiteDir);
  for (const spec of SPECS) writeFileSync(join(suiteDir, `${spec.id}.json`), fixtureScenarioText(spec));
  writeFileSync(
    join(suiteDir, 'manifest.json'),
    buildSuiteManifest({ suiteId: 'score-cli', suiteVersion: '1.0', visibility: 'public', seedRole: 'development', scenarios: SPECS.map((s) => ({ scenario: fixtureScenario(s) })) }),
  );
  const suite = fixtureSuite(SPECS, 'score-cli');
  const manifest = manifestOf(suite, ['0', '1']);
  write('manifest.json', manifestText(manifest));
  trial0 = write('trial0.json', (await runTrial(suite, manifest, 'model-x', fireAware)).text);
  trial1 = write(
    'trial1.json',
    (await runTrial(suite, manifest, 'model-x', holdingAgent(fireAware, ['p0000']), { skip: new Set([2, 3]), failures: [{ index: 2, kind: 'timeout', message: 'deadline' }] })).text,
  );
  otherModel = write('other.json', (await runTrial(suite, manifest, 'model-y', fireAware)).text);
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('score', () => {
  it('writes the report and prints the section 10 summary, rendered from the written report', async () => {
    const path = out();
    const run = await cli(['score', '--suite', suiteDir, '--result', trial0, '--result', trial1, '--resamples', '300', '--out', path]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const text = readFileSync(path, 'utf8');
    const { report } = parseScoreReportText(text, path);
    expect(run.stdout).toBe(summaryText(report));
    expect(run.stdout).toMatch(/^EMBER Score [0-9]+\.[0-9] \/ 100 benchmark-performance points under EMBER scoring version 1\.0\n/);
    expect(run.stdout).toContain('\nModel model-x; trials 2; UNOFFICIAL\n');
    expect(report.episodes.find((e) => e.index === 3)!.trials[1]!.failure).toEqual({ kind: 'missing', message: 'no committed result and no declared failure' });
    expect(report.zero_score).toMatchObject({ missing: 1, timeout: 1 });
  });

  it('--json prints one canonical line with the exact score, its rounding and the report digest', async () => {
    const path = out();
    const run = await cli(['score', '--json', '--suite', suiteDir, '--result', trial0, '--out', path]);
    expect(run.code).toBe(0);
    const line = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(run.stdout).toBe(canonicalJson(line as JsonValue) + '\n');
    const text = readFileSync(path, 'utf8');
    const { report } = parseScoreReportText(text, path);
    expect(line).toEqual({
      command: 'score',
      manifest_hash: report.manifest_hash,
      model_id: 'model-x',
      official: false,
      report_digest: fileDigest(text),
      resamples: 2000,
      score: report.score,
      score_rounded: Rational.parse(report.score!).toFixed(1),
      scoring_version: '1.0',
      trials: 1,
    });
  });

  it('is byte-identical when run again, and refuses to overwrite without --force (exit 6)', async () => {
    const path = out();
    const args = ['score', '--suite', suiteDir, '--result', trial0, '--resamples', '100', '--out', path, '--json'];
    const first = await cli(args);
    const bytes = readFileSync(path);
    const again = await cli(args);
    expect(again.code).toBe(6);
    const forced = await cli([...args, '--force']);
    expect(forced.stdout).toBe(first.stdout);
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expect((await cli(['score', '--suite', suiteDir, '--result', trial0, '--out', trial0, '--force'])).code).toBe(6);
  });

  it('merges --failures files per trial, and rejects conflicts (exit 3) and unpaired files (exit 2)', async () => {
    const good = write('failures-ok.json', JSON.stringify({ failures: [{ index: 3, kind: 'model_error', message: 'raised' }] }));
    const none = write('failures-none.json', '{"failures": []}');
    const path = out();
    const run = await cli(['score', '--suite', suiteDir, '--result', trial0, '--failures', none, '--result', trial1, '--failures', good, '--out', path, '--json']);
    expect(run.stderr).toBe('');
    const { report } = parseScoreReportText(readFileSync(path, 'utf8'), path);
    expect(report.zero_score).toMatchObject({ missing: 0, timeout: 1, model_error: 1 });
    const conflict = write('failures-conflict.json', JSON.stringify({ failures: [{ index: 2, kind: 'model_error', message: 'raised' }] }));
    const bad = await cli(['score', '--suite', suiteDir, '--result', trial1, '--failures', conflict, '--out', out(), '--json']);
    expect([bad.code, jsonError(bad.stderr).message]).toEqual([3, expect.stringContaining("conflicts with the result's own declaration")]);
    const committed = write('failures-committed.json', JSON.stringify({ failures: [{ index: 0, kind: 'timeout', message: '' }] }));
    expect((await cli(['score', '--suite', suiteDir, '--result', trial1, '--failures', committed, '--out', out()])).code).toBe(3);
    const missingKind = write('failures-missing.json', JSON.stringify({ failures: [{ index: 3, kind: 'missing', message: '' }] }));
    expect((await cli(['score', '--suite', suiteDir, '--result', trial1, '--failures', missingKind, '--out', out()])).code).toBe(3);
    const unpaired = await cli(['score', '--suite', suiteDir, '--result', trial0, '--result', trial1, '--failures', good, '--out', out()]);
    expect(unpaired.code).toBe(2);
  });

  it('rejects inputs with the documented exit codes', async () => {
    // Another model in the same report: a scoring input error.
    expect((await cli(['score', '--suite', suiteDir, '--result', trial0, '--result', otherModel, '--out', out()])).code).toBe(3);
    // Tampered metrics: exit 3. A changed action: the replay does not reproduce the record, exit 5.
    const tampered = editedResult(trial0, 'tampered.json', (r) => (r.episodes[0]!.metrics.evacuated += 1));
    expect((await cli(['score', '--suite', suiteDir, '--result', tampered, '--out', out()])).code).toBe(3);
    const mismatch = editedResult(trial0, 'mismatch.json', (r) => {
      const step = r.episodes[0]!.record.trajectory[0]!;
      step.actions = step.actions.replace(/[NESW]/, '.');
    });
    expect((await cli(['score', '--suite', suiteDir, '--result', mismatch, '--out', out()])).code).toBe(5);
    // Command-line errors: exit 2.
    expect((await cli(['score', '--suite', suiteDir, '--out', out()])).code).toBe(2);
    expect((await cli(['score', '--suite', suiteDir, '--result', trial0, '--resamples', '0', '--out', out()])).code).toBe(2);
    expect((await cli(['score', '--suite', suiteDir, '--pack', suiteDir, '--result', trial0, '--out', out()])).code).toBe(2);
    // Nothing is left behind by a failed command.
    expect(readdirSync(join(scratch, `case-${counter - 1}`))).toEqual([]);
  });

  it('is official against an environment pack of the results manifest; a pack of another manifest is exit 5', async () => {
    const packDir = join(scratch, 'pack');
    const pack = await buildPack(suiteDir, join(scratch, 'manifest.json'), packDir);
    const path = out();
    const run = await cli(['score', '--pack', packDir, '--result', trial0, '--out', path, '--resamples', '100']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`\nModel model-x; trials 1; official; environment pack ${pack.packId} sha256:${pack.digest}\n`);
    const { report } = parseScoreReportText(readFileSync(path, 'utf8'), path);
    expect([report.official, report.target]).toEqual([true, { kind: 'pack', pack_id: pack.packId, pack_digest: pack.digest }]);
    const suite = fixtureSuite(SPECS, 'score-cli');
    const other = write('other-manifest.json', (await runTrial(suite, manifestOf(suite, ['5']), 'model-x', fireAware)).text);
    expect((await cli(['score', '--pack', packDir, '--result', other, '--out', out()])).code).toBe(5);
  });

  it('--operational: a record of another model than the results is exit 3 (the results\' model read from their end)', async () => {
    const base = { providerId: 'local', inferenceConfigDigest: 'c'.repeat(64), trials: 1, episodes: 8, latencySeconds: '1.5', inputTokens: 0, outputTokens: 0, cost: null, retries: 0, timeouts: 0, isolation: 'none' as const };
    const mine = write('model-x.operational.json', operationalRecordText(buildOperationalRecord({ ...base, modelId: 'model-x' })));
    const theirs = write('model-z.operational.json', operationalRecordText(buildOperationalRecord({ ...base, modelId: 'model-z' })));
    const ok = await cli(['score', '--suite', suiteDir, '--result', trial0, '--operational', mine, '--resamples', '50', '--out', out(), '--json']);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    const refused = await cli(['score', '--suite', suiteDir, '--result', trial0, '--operational', theirs, '--out', out(), '--json']);
    expect([refused.code, jsonError(refused.stderr).message]).toEqual([3, expect.stringContaining('the operational record is for model "model-z", the results for "model-x"')]);
  });

  it('runs as a process and prints the summary', () => {
    const path = out();
    const run = runCli(['score', '--suite', suiteDir, '--result', trial0, '--resamples', '50', '--out', path]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n')).toHaveLength(13);
    expect(run.stdout.endsWith('The EMBER Score is not a percentage of people evacuated.\n')).toBe(true);
  });
});

describe('score of a result read by streaming (one larger than a string can hold)', () => {
  /** The report bytes, or the error, of scoring with every result streamed (streamAbove 0) and with every result read whole. */
  async function bothWays(opts: Omit<ScoreFilesOptions, 'out' | 'force' | 'streamAbove'>): Promise<{ streamed: string; whole: string }> {
    const outcome = async (streamAbove: number | undefined): Promise<string> => {
      const path = out();
      try {
        await scoreResultFiles({ ...opts, out: path, force: false, ...(streamAbove === undefined ? {} : { streamAbove }) });
        return readFileSync(path, 'utf8');
      } catch (error) {
        return `${(error as { kind?: string }).kind}: ${(error as Error).message}`;
      }
    };
    return { streamed: await outcome(0), whole: await outcome(undefined) };
  }

  it('writes the same report, byte for byte, as reading each result whole: trials, failures files, missing episodes', async () => {
    const good = write('stream-failures.json', JSON.stringify({ failures: [{ index: 3, kind: 'model_error', message: 'raised' }] }));
    const none = write('stream-none.json', '{"failures": []}');
    const { streamed, whole } = await bothWays({ target: { kind: 'suite', dir: suiteDir }, resultPaths: [trial0, trial1], failurePaths: [none, good], resamples: 300 });
    expect(whole).toMatch(/^\{"components"/);
    expect(streamed).toBe(whole);
  });

  it('against an environment pack: the same official report, and the same exit 5 for a result of another manifest', async () => {
    const packDir = join(scratch, 'stream-pack');
    await buildPack(suiteDir, join(scratch, 'manifest.json'), packDir);
    const official = await bothWays({ target: { kind: 'pack', dir: packDir }, resultPaths: [trial0], failurePaths: [], resamples: 100 });
    expect(official.whole).toContain('"official":true');
    expect(official.streamed).toBe(official.whole);
    const suite = fixtureSuite(SPECS, 'score-cli');
    const other = write('stream-other-manifest.json', (await runTrial(suite, manifestOf(suite, ['5']), 'model-x', fireAware)).text);
    const refused = await bothWays({ target: { kind: 'pack', dir: packDir }, resultPaths: [other], failurePaths: [] });
    expect(refused.whole).toMatch(/^mismatch: .*is not the manifest/);
    expect(refused.streamed).toBe(refused.whole);
  });

  it('refuses a tampered or unreplayable result with the same error as the whole-text path', async () => {
    const tampered = editedResult(trial0, 'stream-tampered.json', (r) => (r.episodes[1]!.metrics.evacuated += 1));
    const mismatch = editedResult(trial0, 'stream-mismatch.json', (r) => {
      const step = r.episodes[2]!.record.trajectory[0]!;
      step.actions = step.actions.replace(/[NESW]/, '.');
    });
    for (const [path, kind] of [[tampered, 'validation'], [mismatch, 'mismatch'], [otherModel, 'validation']] as const) {
      const { streamed, whole } = await bothWays({ target: { kind: 'suite', dir: suiteDir }, resultPaths: path === otherModel ? [trial0, otherModel] : [path], failurePaths: [] });
      expect(whole.startsWith(`${kind}: `)).toBe(true);
      expect(streamed).toBe(whole);
    }
  });
});

describe('scoring table', () => {
  it('prints the single-failure profile of section 5, human and --json', async () => {
    const rows = scoringTable();
    const human = await cli(['scoring', 'table']);
    expect(human.code).toBe(0);
    expect(human.stdout).toBe(rows.map((r) => `${r.case}: ${r.score}`).join('\n') + '\n');
    expect(human.stdout).toContain(': 56.5\n');
    const json = await cli(['scoring', 'table', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ command: 'scoring table', rows: rows.map((r) => ({ case: r.case, score: r.score })) });
  });
});
