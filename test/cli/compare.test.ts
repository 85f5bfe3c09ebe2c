// `score compare` and `leaderboard` as a process, on real score reports
// (real replayed episodes of builtin baselines on the tiny suite, scored in
// process), and the pack path of an official score.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateResult } from '../../src/core/eval/authenticate.js';
import { manifestText } from '../../src/core/eval/manifest.js';
import { canonicalJson, type JsonValue } from '../../src/core/json/canonical.js';
import { checkResultAgainstPack } from '../../src/core/pack/pack.js';
import { buildOperationalRecord, operationalRecordText } from '../../src/core/scoring/operational.js';
import { buildScoreReport, scoreReportText, type ScoreTarget } from '../../src/core/scoring/report.js';
import { Rational } from '../../src/core/stats/rational.js';
import type { Suite } from '../../src/core/world/suite.js';
import { buildPack } from '../../src/node/pack.js';
import { buildTinyResult, type BuiltResult } from '../eval/kit.js';
import { jsonError, runCli } from './run-cli.js';

const SEEDS = ['1', '7', '9'];
const RESAMPLES = '300';

let scratch: string;
let counter = 0;
const reports: Record<string, string> = {};
const scores: Record<string, string | null> = {};

function freshDir(): string {
  const dir = join(scratch, `case-${counter++}`);
  mkdirSync(dir);
  return dir;
}

function writeReport(name: string, built: BuiltResult, suite: Suite, target: ScoreTarget = { kind: 'suite' }): string {
  const trial = authenticateResult(built.text, name, suite);
  const report = buildScoreReport({ suite, trials: [trial], target, resamples: 200 });
  const path = join(scratch, `${name}.score.json`);
  writeFileSync(path, scoreReportText(report));
  scores[name] = report.score;
  return path;
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-cli-compare-'));
  const congestion = await buildTinyResult(SEEDS, 'congestion-aware-v1', 'congestion-aware-v1');
  const greedy = await buildTinyResult(SEEDS, 'nearest-exit-greedy-v1', 'nearest-exit-greedy-v1');
  const stay = await buildTinyResult(SEEDS, 'always-stay', 'always-stay');
  const stayTwin = await buildTinyResult(SEEDS, 'always-stay', 'always-stay-twin');
  const otherManifest = await buildTinyResult(['1', '7', '8'], 'always-stay', 'always-stay-other');
  const suite = congestion.suite;
  reports['congestion'] = writeReport('congestion', congestion, suite);
  reports['greedy'] = writeReport('greedy', greedy, suite);
  reports['stay'] = writeReport('stay', stay, suite);
  reports['stayTwin'] = writeReport('stayTwin', stayTwin, suite);
  reports['otherManifest'] = writeReport('otherManifest', otherManifest, suite);

  // An official report: scored against an environment pack of the same manifest.
  const manifestPath = join(scratch, 'manifest.json');
  writeFileSync(manifestPath, manifestText(congestion.manifest));
  const pack = await buildPack(join(import.meta.dirname, '..', 'fixtures', 'suites', 'tiny'), manifestPath, join(scratch, 'pack'));
  const trial = authenticateResult(greedy.text, 'greedy', pack.suite);
  checkResultAgainstPack(pack, trial, 'greedy');
  const official = buildScoreReport({ suite: pack.suite, trials: [trial], target: { kind: 'pack', pack_id: pack.packId, pack_digest: pack.digest, manifest_hash: pack.manifestHash }, resamples: 200 });
  expect(official.official).toBe(true);
  reports['official'] = join(scratch, 'official.score.json');
  writeFileSync(reports['official'], scoreReportText(official));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function compare(a: string, b: string, out: string, ...extra: string[]) {
  return runCli(['score', 'compare', '--a', reports[a]!, '--b', reports[b]!, '--out', out, '--resamples', RESAMPLES, ...extra]);
}

describe('score compare', () => {
  it('writes the comparison artifact; delta = score A - score B exactly', () => {
    const out = join(freshDir(), 'cmp.json');
    const result = compare('congestion', 'stay', out, '--json');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const line = JSON.parse(result.stdout) as Record<string, unknown>;
    const text = readFileSync(out, 'utf8');
    expect(line['comparison_digest']).toBe(createHash('sha256').update(text.slice(0, -1)).digest('hex'));
    const artifact = JSON.parse(text) as { delta: string; outcome: string; applicable_episodes: number; report_a: { model_id: string } };
    expect(text).toBe(canonicalJson(artifact as unknown as JsonValue) + '\n');
    expect(Rational.parse(artifact.delta).eq(Rational.parse(scores['congestion']!).sub(Rational.parse(scores['stay']!)))).toBe(true);
    expect(artifact.report_a.model_id).toBe('congestion-aware-v1');
    expect(line).toMatchObject({ command: 'score compare', outcome: artifact.outcome, delta: artifact.delta, resamples: 300 });
    expect(['a_better', 'inconclusive']).toContain(artifact.outcome);
  });

  it('prints summary lines in human mode', () => {
    const result = compare('congestion', 'greedy', join(freshDir(), 'cmp.json'));
    expect(result.status).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^Paired comparison A - B under EMBER scoring version 1\.0 \(UNOFFICIAL\)$/);
    expect(lines[1]).toMatch(/^A congestion-aware-v1 \d+\.\d; B nearest-exit-greedy-v1 \d+\.\d$/);
    expect(result.stdout).toMatch(/\nOutcome (a_better|b_better|inconclusive|exact_tie) \(practical difference 1\.0 point; applicable episodes \d+\)\n/);
  });

  it('exact_tie for two models with identical episode scores', () => {
    const out = join(freshDir(), 'cmp.json');
    const result = compare('stay', 'stayTwin', out, '--json');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ outcome: 'exact_tie', delta: '0/1' });
  });

  it('rejects reports on different manifests, and an official against an unofficial score (exit 3), writing nothing', () => {
    for (const [a, b, message] of [
      ['stay', 'otherManifest', /different evaluation manifests/],
      ['official', 'congestion', /is official and .* is not/],
    ] as const) {
      const dir = freshDir();
      const result = compare(a, b, join(dir, 'cmp.json'), '--json');
      expect(result.status).toBe(3);
      expect(jsonError(result.stderr).message).toMatch(message);
      expect(readdirSync(dir)).toEqual([]);
    }
  });

  it('rejects a tampered report (exit 3) and an existing output (exit 6)', () => {
    const dir = freshDir();
    const tampered = join(dir, 'tampered.json');
    const value = JSON.parse(readFileSync(reports['greedy']!, 'utf8')) as { score: string };
    value.score = '100/1';
    writeFileSync(tampered, canonicalJson(value as unknown as JsonValue) + '\n');
    const result = runCli(['score', 'compare', '--a', reports['congestion']!, '--b', tampered, '--out', join(dir, 'cmp.json'), '--json']);
    expect(result.status).toBe(3);
    const exists = join(dir, 'exists.json');
    writeFileSync(exists, 'keep');
    expect(compare('congestion', 'greedy', exists, '--json').status).toBe(6);
    expect(readFileSync(exists, 'utf8')).toBe('keep');
    expect(runCli(['score', 'compare', '--a', reports['congestion']!, '--b', reports['greedy']!, '--out', join(dir, 'x.json'), '--resamples', '0']).status).toBe(2);
  });
});

describe('leaderboard', () => {
  it('orders the reports, prints the table, and writes the artifact with --out', () => {
    const out = join(freshDir(), 'board.json');
    const result = runCli(['leaderboard', '--report', reports['stay']!, '--report', reports['congestion']!, '--report', reports['greedy']!, '--resamples', RESAMPLES, '--out', out, '--json']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const line = JSON.parse(result.stdout) as { order: string[]; adjacent: unknown[]; leaderboard_digest: string };
    const text = readFileSync(out, 'utf8');
    expect(line.leaderboard_digest).toBe(createHash('sha256').update(text.slice(0, -1)).digest('hex'));
    const byScore = ['congestion', 'greedy', 'stay'].sort((x, y) => Rational.parse(scores[y]!).cmp(Rational.parse(scores[x]!)));
    const ids: Record<string, string> = { congestion: 'congestion-aware-v1', greedy: 'nearest-exit-greedy-v1', stay: 'always-stay' };
    // Distinct displayed scores: the order is by score (ties would fall to Safety and beyond).
    expect(new Set(byScore.map((k) => Rational.parse(scores[k]!).toFixed(1))).size).toBe(3);
    expect(line.order).toEqual(byScore.map((k) => ids[k]));
    expect(line.adjacent).toHaveLength(2);

    const human = runCli(['leaderboard', '--report', reports['stay']!, '--report', reports['congestion']!, '--report', reports['greedy']!, '--resamples', RESAMPLES]);
    expect(human.status).toBe(0);
    const lines = human.stdout.split('\n');
    expect(lines[0]).toBe('EMBER leaderboard under EMBER scoring version 1.0 (UNOFFICIAL)');
    expect(lines[1]).toMatch(/^rank {2}model +score {2}safety/);
    expect(lines[2]).toMatch(new RegExp(`^ +1 {2}${line.order[0]} `));
  });

  it('needs two reports (exit 2) and one model per report (exit 3)', () => {
    expect(runCli(['leaderboard', '--report', reports['stay']!, '--json']).status).toBe(2);
    const result = runCli(['leaderboard', '--report', reports['stay']!, '--report', reports['stay']!, '--json']);
    expect(result.status).toBe(3);
    expect(jsonError(result.stderr).message).toMatch(/both model always-stay/);
  });
});

describe('operational validate --report (EMBER-Efficiency)', () => {
  function recordFile(modelId: string): string {
    const path = join(freshDir(), 'op.json');
    const record = buildOperationalRecord({
      modelId,
      providerId: 'local',
      inferenceConfigDigest: 'b'.repeat(64),
      trials: 1,
      episodes: 9,
      latencySeconds: '2.5',
      inputTokens: 0,
      outputTokens: 0,
      cost: { amount: Rational.parse('9/2'), unit: 'USD' },
      retries: 0,
      timeouts: 0,
    });
    writeFileSync(path, operationalRecordText(record));
    return path;
  }

  it('adds points per unit of cost per episode, leaving the report untouched', () => {
    const before = readFileSync(reports['congestion']!, 'utf8');
    const result = runCli(['operational', 'validate', '--record', recordFile('congestion-aware-v1'), '--report', reports['congestion']!, '--json']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const line = JSON.parse(result.stdout) as { efficiency: { cost_per_episode: string; points_per_unit: string; ember_score: string } };
    expect(line.efficiency.cost_per_episode).toBe('1/2');
    expect(line.efficiency.ember_score).toBe(scores['congestion']);
    expect(Rational.parse(line.efficiency.points_per_unit).eq(Rational.parse(scores['congestion']!).mul(Rational.of(2n)))).toBe(true);
    expect(readFileSync(reports['congestion']!, 'utf8')).toBe(before);
  });

  it('refuses a record of another model (exit 3)', () => {
    const result = runCli(['operational', 'validate', '--record', recordFile('someone-else'), '--report', reports['congestion']!, '--json']);
    expect(result.status).toBe(3);
    expect(jsonError(result.stderr).message).toMatch(/operational record is for model "someone-else"/);
  });
});
