// `statistics aggregate` and `statistics compare` (cli-v1.0.md): the artifact
// is the library's, the report fields, --resamples, the suite options, the
// input and output rules and the exit codes. Most cases run main() in this
// process; one runs the real process.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileDigest } from '../../src/core/hash.js';
import { canonicalJson, type JsonValue } from '../../src/core/json/canonical.js';
import { authenticateResult } from '../../src/core/eval/authenticate.js';
import { aggregateStatistics, statisticsSubject, statisticsText } from '../../src/core/stats/aggregate.js';
import { pairedStatistics } from '../../src/core/stats/paired.js';
import { tinyResultText } from '../kits/stats-results.js';
import type { Suite } from '../../src/core/world/suite.js';
import { statisticsSubjectOfFile } from '../../src/node/eval/result-subject.js';
import { loadSuiteDir } from '../../src/node/inputs.js';
import { ROOT, jsonError, runCli } from './run-cli.js';
import { runMain } from './in-process.js';

const TINY_SUITE = join(ROOT, 'test', 'fixtures', 'suites', 'tiny');

let scratch: string;
let suite: Suite;
let greedyPath: string;
let randomPath: string;
let otherManifestPath: string;
let counter = 0;

function freshDir(): string {
  const dir = join(scratch, `case-${counter++}`);
  mkdirSync(dir);
  return dir;
}

const cli = runMain;

const aggregateArgs = (result: string, out: string, ...extra: string[]) => ['statistics', 'aggregate', '--suite', TINY_SUITE, '--result', result, '--out', out, '--json', ...extra];
const compareArgs = (a: string, b: string, out: string, ...extra: string[]) => ['statistics', 'compare', '--suite', TINY_SUITE, '--a', a, '--b', b, '--out', out, '--json', ...extra];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-cli-statistics-'));
  suite = loadSuiteDir(TINY_SUITE);
  const inputs = freshDir();
  greedyPath = join(inputs, 'greedy.json');
  randomPath = join(inputs, 'random.json');
  otherManifestPath = join(inputs, 'other.json');
  writeFileSync(greedyPath, await tinyResultText(suite, { modelId: 'greedy', agent: 'nearest-exit-greedy-v1', seeds: ['1', '2', '3'], failed: [4] }));
  writeFileSync(randomPath, await tinyResultText(suite, { modelId: 'random', agent: 'random-legal-v1', seeds: ['1', '2', '3'] }));
  writeFileSync(otherManifestPath, await tinyResultText(suite, { modelId: 'greedy', agent: 'nearest-exit-greedy-v1', seeds: ['1', '2'] }));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function subjectOf(path: string) {
  return statisticsSubject(authenticateResult(readFileSync(path, 'utf8'), path, suite));
}

describe('statistics aggregate', () => {
  it('writes the library artifact and reports its digest, the model ID, the manifest hash and resamples', async () => {
    const out = join(freshDir(), 'stats.json');
    const run = await cli(aggregateArgs(greedyPath, out));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toBe(statisticsText(aggregateStatistics(subjectOf(greedyPath))));
    const report = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(report).toEqual({
      command: 'statistics aggregate',
      statistics_version: '1.0',
      digest: fileDigest(text),
      model_id: 'greedy',
      manifest_hash: subjectOf(greedyPath).manifestHash,
      resamples: 2000,
    });
    expect(run.stdout.split('\n')).toHaveLength(2);
  });

  it('passes --resamples to the library and is byte-identical when run again', async () => {
    const dir = freshDir();
    const one = await cli(aggregateArgs(greedyPath, join(dir, 'one.json'), '--resamples', '37'));
    const two = await cli(aggregateArgs(greedyPath, join(dir, 'two.json'), '--resamples', '37'));
    expect([one.code, two.code]).toEqual([0, 0]);
    expect(two.stdout).toBe(one.stdout);
    const text = readFileSync(join(dir, 'one.json'), 'utf8');
    expect(readFileSync(join(dir, 'two.json'), 'utf8')).toBe(text);
    expect(text).toBe(statisticsText(aggregateStatistics(subjectOf(greedyPath), 37)));
    expect((JSON.parse(one.stdout) as { resamples: number }).resamples).toBe(37);
  });

  it('refuses a bad --resamples as a usage error (exit 2) before reading anything', async () => {
    const cases: [string, string][] = [
      ['0', '0 is out of range'],
      ['-5', '-5 is negative'],
      ['01', '01 has a leading zero (write it with no leading zeros)'],
      ['1.5', "'1.5' is not a decimal integer"],
      ['abc', "'abc' is not a decimal integer"],
      ['1000001', '1000001 is out of range'],
      ['', 'the value is empty'],
    ];
    for (const [bad, problem] of cases) {
      const dir = freshDir();
      const run = await cli(aggregateArgs(join(dir, 'no-such-result.json'), join(dir, 'stats.json'), `--resamples=${bad}`));
      expect(run.code, bad).toBe(2);
      expect(jsonError(run.stderr).message).toBe(`--resamples: ${problem}: must be an integer in [1, 1000000]`);
      expect(readdirSync(dir)).toEqual([]);
    }
  });

  it('takes exactly one of --suite and --generated-suite (exit 2); a plain suite is not a frozen batch (exit 3)', async () => {
    const out = join(freshDir(), 'stats.json');
    const generated = await cli(['statistics', 'aggregate', '--generated-suite', TINY_SUITE, '--result', greedyPath, '--out', out, '--json']);
    expect(generated.code).toBe(3);
    expect(jsonError(generated.stderr).message).toMatch(/a generated suite holds exactly generation\.json and suite\//);
    const both = await cli([...aggregateArgs(greedyPath, out), '--generated-suite', TINY_SUITE]);
    expect(both.code).toBe(2);
    const neither = await cli(['statistics', 'aggregate', '--result', greedyPath, '--out', out, '--json']);
    expect(neither.code).toBe(2);
  });

  it('never writes an input: an output equal to the result is refused even with --force (exit 6)', async () => {
    const before = readFileSync(greedyPath, 'utf8');
    const run = await cli(aggregateArgs(greedyPath, greedyPath, '--force'));
    expect(run.code).toBe(6);
    expect(jsonError(run.stderr).kind).toBe('output');
    expect(readFileSync(greedyPath, 'utf8')).toBe(before);
  });

  it('does not replace an existing output without --force (exit 6), and does with it', async () => {
    const dir = freshDir();
    const out = join(dir, 'stats.json');
    writeFileSync(out, 'old\n');
    expect((await cli(aggregateArgs(greedyPath, out))).code).toBe(6);
    expect(readFileSync(out, 'utf8')).toBe('old\n');
    expect((await cli(aggregateArgs(greedyPath, out, '--force', '--resamples', '10'))).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(statisticsText(aggregateStatistics(subjectOf(greedyPath), 10)));
    expect(readdirSync(dir)).toEqual(['stats.json']);
  });

  it('rejects a tampered result (exit 3) and writes nothing', async () => {
    const dir = freshDir();
    const tampered = join(dir, 'tampered.json');
    writeFileSync(tampered, readFileSync(greedyPath, 'utf8').replace('"model_id":"greedy"', '"model_id":"greedy "'));
    const run = await cli(aggregateArgs(tampered, join(dir, 'stats.json')));
    expect(run.code).toBe(3);
    expect(readdirSync(dir)).toEqual(['tampered.json']);
  });
});

describe('statistics compare', () => {
  it('writes the paired artifact (A - B) and reports both model IDs', async () => {
    const out = join(freshDir(), 'paired.json');
    const run = await cli(compareArgs(greedyPath, randomPath, out, '--resamples', '64'));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toBe(statisticsText(pairedStatistics(subjectOf(greedyPath), subjectOf(randomPath), 64)));
    expect(JSON.parse(run.stdout)).toEqual({
      command: 'statistics compare',
      statistics_version: '1.0',
      digest: fileDigest(text),
      model_a: 'greedy',
      model_b: 'random',
      manifest_hash: subjectOf(greedyPath).manifestHash,
      resamples: 64,
    });
    const artifact = JSON.parse(text) as { episodes: unknown };
    expect(artifact.episodes).toEqual({ scheduled: 9, committed_a: 8, committed_b: 9, paired: 8, unpaired: 1 });
  });

  it('rejects results of different manifests (exit 3)', async () => {
    const dir = freshDir();
    const run = await cli(compareArgs(greedyPath, otherManifestPath, join(dir, 'paired.json')));
    expect(run.code).toBe(3);
    expect(jsonError(run.stderr).message).toMatch(/results of different manifests are rejected/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses an output equal to either input even with --force (exit 6)', async () => {
    for (const [a, b, out] of [
      [greedyPath, randomPath, randomPath],
      [greedyPath, randomPath, greedyPath],
    ] as const) {
      const before = readFileSync(out, 'utf8');
      const run = await cli(compareArgs(a, b, out, '--force', '--resamples', '5'));
      expect(run.code).toBe(6);
      expect(readFileSync(out, 'utf8')).toBe(before);
    }
  });

  it('refuses a bad --resamples (exit 2)', async () => {
    const run = await cli(compareArgs(greedyPath, randomPath, join(freshDir(), 'p.json'), '--resamples', '2000000'));
    expect(run.code).toBe(2);
  });
});

describe('a result read by streaming (one larger than a string can hold)', () => {
  it('gives the same subject, hence the same aggregate and paired statistics, as the result read whole', () => {
    const streamed = statisticsSubjectOfFile(greedyPath, suite, 0);
    // The whole path's committed episodes carry their records too; the statistics read only the index and metrics.
    const whole = subjectOf(greedyPath);
    expect(streamed).toEqual({ ...whole, committed: whole.committed.map(({ index, metrics }) => ({ index, metrics })) });
    expect(streamed.failed).toBe(1);
    expect(statisticsText(aggregateStatistics(streamed, 200))).toBe(statisticsText(aggregateStatistics(subjectOf(greedyPath), 200)));
    const paired = pairedStatistics(streamed, statisticsSubjectOfFile(randomPath, suite, 0), 200);
    expect(statisticsText(paired)).toBe(statisticsText(pairedStatistics(subjectOf(greedyPath), subjectOf(randomPath), 200)));
  });

  it('refuses a tampered result with the error of the whole-text path', () => {
    const value = JSON.parse(readFileSync(greedyPath, 'utf8')) as { episodes: { metrics: { evacuated: number } }[] };
    value.episodes[1]!.metrics.evacuated += 1;
    const tampered = join(freshDir(), 'tampered.json');
    writeFileSync(tampered, canonicalJson(value as unknown as JsonValue) + '\n');
    const errorOf = (streamAbove: number): unknown => {
      try {
        statisticsSubjectOfFile(tampered, suite, streamAbove);
        return null;
      } catch (error) {
        return error;
      }
    };
    const whole = errorOf(Number.MAX_SAFE_INTEGER);
    expect(whole).toMatchObject({ kind: 'validation' });
    expect(errorOf(0)).toEqual(whole);
  });
});

describe('as a process', () => {
  it('gives the same artifact and stdout as in-process, in human mode too', async () => {
    const dir = freshDir();
    const inProcess = await cli(compareArgs(greedyPath, randomPath, join(dir, 'a.json'), '--resamples', '20'));
    const spawned = runCli(compareArgs(greedyPath, randomPath, join(dir, 'b.json'), '--resamples', '20'));
    expect(spawned.stderr).toBe('');
    expect(spawned.status).toBe(0);
    expect(spawned.stdout).toBe(inProcess.stdout);
    expect(readFileSync(join(dir, 'b.json'), 'utf8')).toBe(readFileSync(join(dir, 'a.json'), 'utf8'));
    const human = runCli(['statistics', 'compare', '--suite', TINY_SUITE, '--a', greedyPath, '--b', otherManifestPath, '--out', join(dir, 'c.json')]);
    expect(human.status).toBe(3);
    expect(human.stderr).toMatch(/^emberbench: error: .*results of different manifests are rejected/);
  });
});
