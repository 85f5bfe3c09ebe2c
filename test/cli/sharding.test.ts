// Sharded evaluation as processes: a frozen generated batch with several
// scenarios per family, `evaluation run --shard I/N` in N separate
// processes, `evaluation merge` byte-identical to the unsharded run, the
// refused merges (missing, overlapping, foreign shards, named), and the
// merged result scored end to end with an interval that sees scenario
// variance.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rational } from '../../src/core/stats/rational.js';
import { cliArgv, jsonError, ROOT, runCli } from './run-cli.js';

const CONFIG = {
  generator_config_version: '1.0',
  suite_id: 'shard-gen',
  suite_version: '1.0',
  visibility: 'public',
  seed_role: 'evaluation',
  families: [
    { family: 'single_exit_high_density', count: 3, rows: [8, 10], cols: [10, 12], people: [12, 20], spread_permille: [100, 150], max_steps: [40, 50] },
    { family: 'uneven_exit_choice', count: 3, rows: [10, 12], cols: [14, 16], people: [10, 16], spread_permille: [100, 150], max_steps: [50, 60] },
    { family: 'central_ignition', count: 3, rows: [9, 11], cols: [11, 13], people: [12, 20], spread_permille: [200, 300], max_steps: [40, 50] },
  ],
};
const SHARDS = 3;
const AGENT = 'builtin:congestion-aware-v1';

let scratch: string;
let batch: string;
let manifest: string;
let unsharded: string;
const shardPath = (i: number): string => join(scratch, `shard-${i}.json`);

function runArgs(out: string, ...extra: string[]): string[] {
  return ['evaluation', 'run', '--generated-suite', batch, '--manifest', manifest, '--model-id', 'cab', '--agent', AGENT, '--out', out, '--json', ...extra];
}

function mergeArgs(out: string, shards: readonly string[]): string[] {
  return ['evaluation', 'merge', ...shards, '--generated-suite', batch, '--manifest', manifest, '--out', out, '--json'];
}

function runAsync(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArgv(args), { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-cli-sharding-'));
  const config = join(scratch, 'config.json');
  writeFileSync(config, JSON.stringify(CONFIG));
  batch = join(scratch, 'batch');
  manifest = join(scratch, 'manifest.json');
  unsharded = join(scratch, 'unsharded.json');
  expect(runCli(['generated', 'create', '--config', config, '--batch-seed', '5', '--out', batch, '--json']).status).toBe(0);
  expect(runCli(['evaluation', 'manifest', '--generated-suite', batch, '--seed', '0', '--seed', '1', '--out', manifest, '--json']).status).toBe(0);
  // The unsharded run and the N shards, each its own process, side by side.
  const runs = await Promise.all([runAsync(runArgs(unsharded)), ...Array.from({ length: SHARDS }, (_, k) => runAsync(runArgs(shardPath(k + 1), '--shard', `${k + 1}/${SHARDS}`)))]);
  for (const run of runs) expect(run).toEqual({ code: 0, stderr: '' });
}, 180_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('evaluation run --shard', () => {
  it('writes an incomplete result of the whole manifest holding only its slice (index mod N = I - 1)', () => {
    for (let k = 1; k <= SHARDS; k++) {
      const result = JSON.parse(readFileSync(shardPath(k), 'utf8')) as { episodes: { index: number }[]; manifest: { episodes: unknown[] } };
      expect(result.manifest.episodes).toHaveLength(18);
      expect(result.episodes.map((e) => e.index)).toEqual(Array.from({ length: 6 }, (_, j) => j * SHARDS + k - 1));
    }
    const verify = runCli(['evaluation', 'verify', '--generated-suite', batch, '--result', shardPath(2), '--manifest', manifest, '--json']);
    expect(JSON.parse(verify.stdout)).toMatchObject({ verified: true, complete: false, completed_episodes: 6, scheduled_episodes: 18 });
  });

  it.each(['0/3', '4/3', '1of3'])('refuses --shard %s as a usage error (exit 2)', (shard) => {
    const out = join(scratch, 'never.json');
    const result = runCli(runArgs(out, '--shard', shard));
    expect(result.status).toBe(2);
    expect(jsonError(result.stderr).message).toContain('--shard: must be I/N');
    expect(existsSync(out)).toBe(false);
  });
});

describe('evaluation merge', () => {
  it('gives the bytes of the unsharded run, in any shard order', () => {
    const out = join(scratch, 'merged.json');
    const result = runCli(mergeArgs(out, [shardPath(3), shardPath(1), shardPath(2)]));
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject({ complete: true, completed_episodes: 18, shard_count: 3, model_id: 'cab' });
    expect(readFileSync(out)).toEqual(readFileSync(unsharded));
  });

  it('refuses a missing shard, naming it (exit 3), and writes nothing', () => {
    const out = join(scratch, 'missing.json');
    const result = runCli(mergeArgs(out, [shardPath(1), shardPath(3)]));
    expect(result.status).toBe(3);
    expect(jsonError(result.stderr).message).toContain('missing shard: scheduled episodes 1, 4, 7, 10, 13, 16 are in none of the 2 shard results (not given: shard 2/3)');
    expect(existsSync(out)).toBe(false);
  });

  it('refuses overlapping shards, naming both (exit 3)', () => {
    const result = runCli(mergeArgs(join(scratch, 'overlap.json'), [shardPath(1), shardPath(2), shardPath(3), unsharded]));
    expect(result.status).toBe(3);
    expect(jsonError(result.stderr).message).toBe(`${unsharded}: overlapping shard: episode 0 is also in ${shardPath(1)}`);
  });

  it('refuses a foreign shard of another model, naming it (exit 3)', async () => {
    const foreign = join(scratch, 'foreign.json');
    const run = await runAsync(['evaluation', 'run', '--generated-suite', batch, '--manifest', manifest, '--model-id', 'other', '--agent', AGENT, '--shard', '2/3', '--out', foreign, '--json']);
    expect(run.code).toBe(0);
    const result = runCli(mergeArgs(join(scratch, 'foreign-merged.json'), [shardPath(1), foreign, shardPath(3)]));
    expect(result.status).toBe(3);
    expect(jsonError(result.stderr).message).toContain(`${foreign}: foreign shard: a result of model "other", not "cab"`);
  }, 60_000);
});

describe('a generated batch scored end to end', () => {
  it('gives a deterministic baseline a bootstrap interval that is not zero-width', () => {
    const report = join(scratch, 'score.json');
    const scored = runCli(['score', '--generated-suite', batch, '--result', join(scratch, 'merged.json'), '--out', report, '--json']);
    expect(scored.stderr).toBe('');
    const value = JSON.parse(readFileSync(report, 'utf8')) as { score: string; interval: { lower: string; upper: string }; families: unknown[] };
    const [lower, score, upper] = [value.interval.lower, value.score, value.interval.upper].map((x) => Number(Rational.parse(x).toFixed(6)));
    // Several scenarios per family: the scenario stage of the bootstrap has variance to resample.
    expect(upper! - lower!).toBeGreaterThan(0.5);
    expect(lower!).toBeLessThanOrEqual(score!);
    expect(score!).toBeLessThanOrEqual(upper!);
    expect(value.families).toHaveLength(3);
  });
});
