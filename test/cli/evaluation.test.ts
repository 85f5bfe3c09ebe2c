// `evaluation manifest | run | verify` as a process: reports, exit codes,
// that seeds are never printed, that verification never writes, and how
// misbehaving agents end a run (exit 4 with a valid checkpoint, or declared
// failures with --continue-on-failure).
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateResult } from '../../src/core/eval/authenticate.js';
import { EVAL_AGENTS, TINY_SUITE, TRAP_INDICES, buildTinyResult, editResultText, tinySuite, type BuiltResult, type Editable } from '../eval/kit.js';
import { jsonError, runCli, type CliResult } from './run-cli.js';
import { TEST_PYTHON } from '../kits/agent-kit.js';

const RESULT_KEYS = [
  'command',
  'complete',
  'completed_episodes',
  'failed_episodes',
  'manifest_hash',
  'model_id',
  'result_digest',
  'result_version',
  'scheduled_episodes',
  'schema_version',
  'seed_role',
  'suite_hash',
  'suite_id',
  'suite_version',
  'visibility',
];

let scratch: string;
let counter = 0;
let built: BuiltResult;
let manifestPath: string;
let fullPath: string;

function freshDir(): string {
  const dir = join(scratch, `case-${counter++}`);
  mkdirSync(dir);
  return dir;
}

function report(result: CliResult): Record<string, unknown> {
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

function runArgs(out: string, ...extra: string[]): string[] {
  return ['evaluation', 'run', '--suite', TINY_SUITE, '--manifest', manifestPath, '--model-id', 'kit-model', '--out', out, ...extra];
}

function verifyArgs(result: string, ...extra: string[]): string[] {
  return ['evaluation', 'verify', '--suite', TINY_SUITE, '--result', result, ...extra];
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-cli-evaluation-'));
  built = await buildTinyResult(['1', '7'], 'nearest-exit-greedy-v1', 'kit-model');
  const dir = freshDir();
  manifestPath = join(dir, 'manifest.json');
  report(runCli(['evaluation', 'manifest', '--suite', TINY_SUITE, '--seed', '1', '--seed', '7', '--out', manifestPath, '--json']));
  fullPath = join(dir, 'full.json');
  report(runCli([...runArgs(fullPath, '--agent', 'builtin:nearest-exit-greedy-v1'), '--json']));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('evaluation manifest', () => {
  const SEEDS = ['918273645546372819', '5', '1234567890123'];

  it('keeps the seed order, reports the manifest fields and never prints a seed', () => {
    const dir = freshDir();
    const out = join(dir, 'm.json');
    const args = ['evaluation', 'manifest', '--suite', TINY_SUITE, ...SEEDS.flatMap((s) => ['--seed', s]), '--out', out];
    const json = report(runCli([...args, '--json']));
    expect(Object.keys(json).sort()).toEqual(
      ['command', 'episode_count', 'manifest_hash', 'manifest_version', 'schema_version', 'seed_count', 'seed_role', 'suite_hash', 'suite_id', 'suite_version', 'visibility'].sort(),
    );
    expect(json).toMatchObject({ command: 'evaluation manifest', episode_count: 9, seed_count: 3, manifest_version: '1.0', suite_id: 'tiny-eval' });
    const manifest = JSON.parse(readFileSync(out, 'utf8')) as { seeds: string[]; episodes: { seed: string }[] };
    expect(manifest.seeds).toEqual(SEEDS);
    expect(manifest.episodes.slice(0, 3).map((e) => e.seed)).toEqual(SEEDS);
    const human = runCli([...args, '--force']);
    expect(human.status).toBe(0);
    expect(human.stdout).toContain(`manifest_hash: ${json.manifest_hash as string}\n`);
    for (const seed of [SEEDS[0]!, SEEDS[2]!]) {
      expect(JSON.stringify(json)).not.toContain(seed);
      expect(human.stdout + human.stderr).not.toContain(seed);
    }
  });

  it('takes seed ranges A..B (inclusive), mixed with single seeds, in the order given', () => {
    const dir = freshDir();
    const ranged = join(dir, 'ranged.json');
    const listed = join(dir, 'listed.json');
    const a = runCli(['evaluation', 'manifest', '--suite', TINY_SUITE, '--seed', '7', '--seed', '0..3', '--seed', '10..11', '--out', ranged, '--json']);
    const b = runCli(['evaluation', 'manifest', '--suite', TINY_SUITE, ...['7', '0', '1', '2', '3', '10', '11'].flatMap((s) => ['--seed', s]), '--out', listed, '--json']);
    expect([a.status, b.status]).toEqual([0, 0]);
    expect(readFileSync(ranged, 'utf8')).toBe(readFileSync(listed, 'utf8'));
    expect(JSON.parse(a.stdout)).toMatchObject({ seed_count: 7 });
  });

  it.each([
    ['a reversed range', ['5..2'], '--seed: the range in position 1 ends before it starts (A..B needs A <= B)'],
    ['a half-open range', ['1', '3..'], '--seed: the range in position 2 must be A..B with A and B each a decimal string in [0, 2^64 - 1]'],
    ['overlapping ranges', ['0..4', '3..9'], '--seed: the range given in position 2 repeats a seed given earlier (seeds must be distinct)'],
    ['a too large range', ['0..100000'], '--seed: the range in position 1 gives 100001 seeds; a range may give at most 100000'],
  ])('rejects %s as a usage error (exit 2) with a precise message', (_name, seeds, message) => {
    const dir = freshDir();
    const result = runCli(['evaluation', 'manifest', '--suite', TINY_SUITE, ...seeds.flatMap((s) => ['--seed', s]), '--out', join(dir, 'm.json'), '--json']);
    expect(result.status).toBe(2);
    expect(jsonError(result.stderr).message).toContain(message);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['a duplicate seed', [SEEDS[0]!, '5', SEEDS[0]!], 'duplicates an earlier one'],
    ['a seed above 2^64 - 1', ['18446744073709551616'], 'must be a decimal'],
    ['a seed with a leading zero', ['0918273645546372819'], 'must be a decimal'],
  ])('rejects %s as a usage error (exit 2) without printing it or writing', (_name, seeds, message) => {
    const dir = freshDir();
    const result = runCli(['evaluation', 'manifest', '--suite', TINY_SUITE, ...seeds.flatMap((s) => ['--seed', s]), '--out', join(dir, 'm.json'), '--json']);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(jsonError(result.stderr).message).toContain(message);
    expect(result.stderr).not.toContain('918273645546372819');
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['both suite options', ['--suite', TINY_SUITE, '--generated-suite', TINY_SUITE], 'exactly one of --suite DIR or --generated-suite DIR'],
    ['no suite option', [], 'missing required option: --suite DIR'],
  ])('takes exactly one suite option: %s is a usage error', (_name, suiteArgs, message) => {
    const dir = freshDir();
    const result = runCli(['evaluation', 'manifest', ...suiteArgs, '--seed', '1', '--out', join(dir, 'm.json'), '--json']);
    expect(result.status).toBe(2);
    expect(jsonError(result.stderr).message).toContain(message);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('loads --generated-suite with the generated-suite loader: a plain suite directory is not a frozen batch (exit 3)', () => {
    const dir = freshDir();
    const result = runCli(['evaluation', 'manifest', '--generated-suite', TINY_SUITE, '--seed', '1', '--out', join(dir, 'm.json'), '--json']);
    expect(result.status).toBe(3);
    expect(jsonError(result.stderr).message).toContain('unexpected entry (a generated suite holds exactly generation.json and suite/)');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('never replaces an existing file without --force (exit 6)', () => {
    const dir = freshDir();
    const out = join(dir, 'm.json');
    writeFileSync(out, 'mine\n');
    const result = runCli(['evaluation', 'manifest', '--suite', TINY_SUITE, '--seed', '1', '--out', out, '--json']);
    expect(result.status).toBe(6);
    expect(readFileSync(out, 'utf8')).toBe('mine\n');
  });
});

describe('evaluation run', () => {
  it('writes the result and reports exactly the result fields', () => {
    expect(readFileSync(fullPath, 'utf8')).toBe(built.text);
    const again = report(runCli([...runArgs(join(freshDir(), 'r.json'), '--agent', 'builtin:nearest-exit-greedy-v1'), '--json']));
    expect(Object.keys(again).sort()).toEqual(RESULT_KEYS);
    expect(again).toEqual({
      command: 'evaluation run',
      complete: true,
      completed_episodes: 6,
      failed_episodes: 0,
      manifest_hash: authenticateResult(built.text, 'x', built.suite).manifestHash,
      model_id: 'kit-model',
      result_digest: authenticateResult(built.text, 'x', built.suite).digest,
      result_version: '1.0',
      scheduled_episodes: 6,
      schema_version: '1.0',
      seed_role: 'development',
      suite_hash: built.suite.hash,
      suite_id: 'tiny-eval',
      suite_version: '1.0',
      visibility: 'public',
    });
  });

  it('prints one progress line per episode on stderr in human mode', () => {
    const result = runCli(runArgs(join(freshDir(), 'r.json'), '--agent', 'builtin:nearest-exit-greedy-v1'));
    expect(result.status).toBe(0);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatch(/^episode 1\/6 done \(tiny-corridor, (all_resolved|horizon), \d+ steps\); elapsed \d+\.\d s, ETA \d+\.\d s$/);
    expect(result.stdout).toContain('complete: true\n');
  });

  it('gives byte-identical results with --jobs 1 and --jobs 2 (module agent)', () => {
    const one = join(freshDir(), 'r.json');
    const two = join(freshDir(), 'r.json');
    const agent = ['--agent', 'eval_agents:makeGreedy', '--agent-path', EVAL_AGENTS, '--json'];
    const a = report(runCli([...runArgs(one, ...agent), '--jobs', '1']));
    const b = report(runCli([...runArgs(two, ...agent), '--jobs', '2']));
    expect(readFileSync(two, 'utf8')).toBe(readFileSync(one, 'utf8'));
    expect(b).toEqual(a);
  });

  it('never overwrites an existing result without --resume (exit 6), pointing to --resume or another --out', () => {
    const dir = freshDir();
    const out = join(dir, 'r.json');
    writeFileSync(out, built.text);
    const result = runCli([...runArgs(out, '--agent', 'builtin:always-stay'), '--json']);
    expect(result.status).toBe(6);
    expect(jsonError(result.stderr).message).toBe(`output file exists (use --resume to continue it, or choose another --out): ${out}`);
    expect(readFileSync(out, 'utf8')).toBe(built.text);
    expect(readdirSync(dir)).toEqual(['r.json']);
  });

  it('refuses to resume another model\'s result (exit 6) and a tampered one (exit 3)', () => {
    const dir = freshDir();
    const out = join(dir, 'r.json');
    writeFileSync(out, built.text);
    const other = runCli(['evaluation', 'run', '--suite', TINY_SUITE, '--manifest', manifestPath, '--model-id', 'another-model', '--agent', 'builtin:always-stay', '--out', out, '--resume', '--json']);
    expect(other.status).toBe(6);
    expect(jsonError(other.stderr).message).toContain('cannot resume: it is a result of model "kit-model", not "another-model"');
    const tampered = editResultText(built.text, (v) => v.episodes.splice(4, 2));
    writeFileSync(out, tampered.replace('"steps":', '"steps": '));
    const bad = runCli([...runArgs(out, '--agent', 'builtin:always-stay'), '--resume', '--json']);
    expect(bad.status).toBe(3);
    expect(readdirSync(dir)).toEqual(['r.json']);
  });

  it.each([
    ['a bad model ID', ['--model-id', ' padded'], '--model-id: must not start or end with whitespace'],
    ['--jobs 0', ['--jobs', '0'], '--jobs: must be an integer from 1 to'],
    ['--jobs abc', ['--jobs', 'abc'], '--jobs: must be an integer from 1 to'],
    ['two agents', ['--agent-command', 'python3 x.py'], 'exactly one of --agent SPEC or --agent-command'],
    ['--generated-suite', ['--generated-suite', TINY_SUITE], 'give exactly one of --suite DIR or --generated-suite DIR'],
  ])('rejects %s as a usage error (exit 2)', (_name, extra, message) => {
    const dir = freshDir();
    const base = ['evaluation', 'run', '--suite', TINY_SUITE, '--manifest', manifestPath, '--agent', 'builtin:always-stay', '--out', join(dir, 'r.json'), '--json'];
    const args = extra[0] === '--model-id' ? [...base, ...extra] : [...base, '--model-id', 'm', ...extra];
    const result = runCli(args);
    expect(result.status).toBe(2);
    expect(jsonError(result.stderr).message).toContain(message);
    expect(readdirSync(dir)).toEqual([]);
  });

  const MISBEHAVING: [string, string[], string][] = [
    ['throws', ['--agent', 'eval_agents:makeThrowsOnTrap', '--agent-path', EVAL_AGENTS], 'model_error'],
    ['hangs', ['--agent', 'eval_agents:makeHangsOnTrap', '--agent-path', EVAL_AGENTS, '--act-timeout-ms', '300'], 'timeout'],
    ['prints garbage', ['--agent-command', `${TEST_PYTHON} ${join(EVAL_AGENTS, 'garbage_on_trap.py')}`], 'invalid_output'],
    ['returns an illegal move', ['--agent', 'eval_agents:makeIllegalOnTrap', '--agent-path', EVAL_AGENTS], 'invalid_output'],
  ];

  it.each(MISBEHAVING)('an agent that %s stops the run (exit 4) with a valid checkpoint; --continue-on-failure declares it', (_name, agent, kind) => {
    const dir = freshDir();
    const out = join(dir, 'r.json');
    const stopped = runCli([...runArgs(out, ...agent), '--json']);
    expect(stopped.status).toBe(4);
    expect(stopped.stdout).toBe('');
    expect(jsonError(stopped.stderr)).toMatchObject({ exit_code: 4, kind: 'agent' });
    expect(jsonError(stopped.stderr).message).toMatch(new RegExp(`^episode ${TRAP_INDICES[0]} \\(tiny-trap\\): `));
    expect(readdirSync(dir)).toEqual(['r.json']);
    const checkpoint = authenticateResult(readFileSync(out, 'utf8'), out, tinySuite());
    expect(checkpoint.episodes.map((e) => e.index)).toEqual([0, 1]);

    const resumed = report(runCli([...runArgs(out, ...agent), '--resume', '--continue-on-failure', '--json']));
    expect(resumed).toMatchObject({ completed_episodes: 4, failed_episodes: 2, complete: false });
    const final = authenticateResult(readFileSync(out, 'utf8'), out, tinySuite());
    expect(final.episodes.map((e) => e.index)).toEqual([0, 1, 4, 5]);
    expect(final.failures.map((f) => [f.index, f.kind])).toEqual(TRAP_INDICES.map((i) => [i, kind]));
    // The committed episodes are the ones the first run saved.
    expect(final.result.episodes.slice(0, 2)).toEqual(checkpoint.result.episodes);
  });
});

describe('evaluation verify', () => {
  it('verifies a complete result against its manifest and reports the result fields', () => {
    const json = report(runCli([...verifyArgs(fullPath, '--manifest', manifestPath, '--require-complete'), '--json']));
    expect(Object.keys(json).sort()).toEqual([...RESULT_KEYS, 'verified'].sort());
    expect(json).toMatchObject({ command: 'evaluation verify', verified: true, complete: true, completed_episodes: 6, model_id: 'kit-model' });
  });

  function moveToStay(v: Editable): void {
    for (const episode of v.episodes) {
      for (const step of episode.record.trajectory) {
        const at = (step.actions as string).search(/[NESW]/);
        if (at >= 0) {
          step.actions = step.actions.slice(0, at) + '.' + step.actions.slice(at + 1);
          return;
        }
      }
    }
  }

  const TAMPERED: [string, (text: string) => string, number][] = [
    ['a changed action char', (t) => editResultText(t, moveToStay), 5],
    ['a changed metric', (t) => editResultText(t, (v) => (v.episodes[2].metrics.moves_attempted += 1)), 3],
    ['a changed manifest field', (t) => editResultText(t, (v) => (v.manifest.suite.visibility = 'private')), 3],
    ['a changed manifest_hash', (t) => editResultText(t, (v) => (v.manifest_hash = '0'.repeat(64))), 3],
    ['an extra episode index out of range', (t) => editResultText(t, (v) => v.episodes.push({ ...v.episodes[5], index: 6 })), 3],
    ['a duplicate episode', (t) => editResultText(t, (v) => v.episodes.splice(1, 0, v.episodes[1])), 3],
    ['a declaration for a committed episode', (t) => editResultText(t, (v) => (v.failures = [{ index: 0, kind: 'model_error', message: 'no' }])), 3],
    ['a non-canonical file', (t) => JSON.stringify(JSON.parse(t), null, 2) + '\n', 3],
  ];

  it.each(TAMPERED)('rejects %s with its exit code and writes nothing', (_name, tamper, code) => {
    const dir = freshDir();
    const path = join(dir, 'r.json');
    const text = tamper(built.text);
    writeFileSync(path, text);
    const result = runCli([...verifyArgs(path), '--json']);
    expect(result.status).toBe(code);
    expect(result.stdout).toBe('');
    expect(jsonError(result.stderr).exit_code).toBe(code);
    expect(readdirSync(dir)).toEqual(['r.json']);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('requires the given manifest (exit 5)', () => {
    const dir = freshDir();
    const other = join(dir, 'other.json');
    report(runCli(['evaluation', 'manifest', '--suite', TINY_SUITE, '--seed', '7', '--seed', '1', '--out', other, '--json']));
    const result = runCli([...verifyArgs(fullPath, '--manifest', other), '--json']);
    expect(result.status).toBe(5);
    expect(jsonError(result.stderr).message).toContain('differs from the required manifest');
  });

  it('accepts a partial result, unless --require-complete (exit 5)', () => {
    const dir = freshDir();
    const path = join(dir, 'partial.json');
    writeFileSync(path, editResultText(built.text, (v) => v.episodes.splice(3, 3)));
    expect(report(runCli([...verifyArgs(path), '--json']))).toMatchObject({ complete: false, completed_episodes: 3 });
    const result = runCli([...verifyArgs(path, '--require-complete'), '--json']);
    expect(result.status).toBe(5);
    expect(jsonError(result.stderr).message).toContain('3 of 6 scheduled episodes have no committed result');
  });
});
