// `pack build`, `pack verify` and `operational validate` as a process:
// reports, exit codes, no overwrite, nothing left behind, tampering.
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildManifest, manifestText } from '../../src/core/eval/manifest.js';
import { canonicalJson, type JsonValue } from '../../src/core/json/canonical.js';
import { buildOperationalRecord, operationalRecordText } from '../../src/core/scoring/operational.js';
import { Rational } from '../../src/core/stats/rational.js';
import { loadSuiteDir } from '../../src/node/inputs.js';
import { TINY_SUITE } from '../eval/kit.js';
import { jsonError, runCli } from './run-cli.js';

const PACK_KEYS = [
  'benchmark_revision',
  'command',
  'environment_pack_version',
  'episode_count',
  'manifest_hash',
  'not_applicable_count',
  'pack_digest',
  'pack_id',
  'scoring_constants_digest',
  'scoring_version',
  'suite_hash',
  'suite_id',
  'suite_version',
];

let scratch: string;
let counter = 0;
let manifestPath: string;
let packDir: string;
let built: Record<string, unknown>;

function freshDir(): string {
  const dir = join(scratch, `case-${counter++}`);
  mkdirSync(dir);
  return dir;
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-cli-pack-'));
  manifestPath = join(scratch, 'manifest.json');
  writeFileSync(manifestPath, manifestText(buildManifest(loadSuiteDir(TINY_SUITE), ['3', '4'])));
  packDir = join(scratch, 'pack');
  const result = runCli(['pack', 'build', '--suite', TINY_SUITE, '--manifest', manifestPath, '--out', packDir, '--json']);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  built = JSON.parse(result.stdout) as Record<string, unknown>;
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('pack build', () => {
  it('reports the pack ID and full digest, the manifest hash and the suite, never a path or a seed', () => {
    expect(Object.keys(built).sort()).toEqual(PACK_KEYS);
    const text = readFileSync(join(packDir, 'pack.json'), 'utf8');
    const digest = createHash('sha256').update(text.slice(0, -1)).digest('hex');
    expect(built).toMatchObject({ command: 'pack build', pack_digest: digest, pack_id: `ember-pack-${digest.slice(0, 16)}`, episode_count: 6, not_applicable_count: 0 });
    expect(JSON.stringify(built)).not.toContain(scratch);
  });

  it('refuses an existing output directory (exit 6) and leaves it untouched', () => {
    const result = runCli(['pack', 'build', '--suite', TINY_SUITE, '--manifest', manifestPath, '--out', packDir, '--json']);
    expect(result.status).toBe(6);
    expect(result.stdout).toBe('');
    expect(jsonError(result.stderr)).toMatchObject({ exit_code: 6, kind: 'output' });
    expect(readdirSync(packDir).sort()).toEqual(['manifest.json', 'pack.json', 'suite']);
  });

  it('is a usage error without --out, and a validation error for a bad manifest, leaving nothing behind', () => {
    const dir = freshDir();
    expect(runCli(['pack', 'build', '--suite', TINY_SUITE, '--manifest', manifestPath, '--json']).status).toBe(2);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{}\n');
    const result = runCli(['pack', 'build', '--suite', TINY_SUITE, '--manifest', bad, '--out', join(dir, 'pack'), '--json']);
    expect(result.status).toBe(3);
    expect(readdirSync(dir)).toEqual(['bad.json']);
  });
});

describe('pack verify', () => {
  it('verifies the built pack, reporting the same identity', () => {
    const result = runCli(['pack', 'verify', '--pack', packDir, '--json']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ ...built, command: 'pack verify', verified: true });
  });

  it('prints a key: value list in human mode', () => {
    const result = runCli(['pack', 'verify', '--pack', packDir]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`pack_id: ${String(built['pack_id'])}\n`);
  });

  it('rejects a tampered M*, fire-world digest, suite copy or manifest with exit 3', () => {
    const cases: [string, (dir: string) => void][] = [
      ['M*', (dir) => editPack(dir, (v) => (v.episodes[0].max_evacuated += 1))],
      ['fire world', (dir) => editPack(dir, (v) => (v.episodes[3].fire_world_digest = '0'.repeat(64)))],
      ['suite copy', (dir) => writeFileSync(join(dir, 'suite', 'tiny-trap.json'), readFileSync(join(dir, 'suite', 'tiny-trap.json'), 'utf8') + '\n')],
      ['manifest', (dir) => writeFileSync(join(dir, 'manifest.json'), manifestText(buildManifest(loadSuiteDir(TINY_SUITE), ['3', '5'])))],
    ];
    for (const [name, tamper] of cases) {
      const dir = join(freshDir(), 'pack');
      cpSync(packDir, dir, { recursive: true });
      tamper(dir);
      const result = runCli(['pack', 'verify', '--pack', dir, '--json']);
      expect(result.status, name).toBe(3);
      expect(result.stdout).toBe('');
      expect(jsonError(result.stderr).kind).toBe('validation');
    }
  });
});

type Editable = { [key: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

function editPack(dir: string, edit: (v: Editable) => void): void {
  const path = join(dir, 'pack.json');
  const value = JSON.parse(readFileSync(path, 'utf8')) as Editable;
  edit(value);
  writeFileSync(path, canonicalJson(value as JsonValue) + '\n');
}

describe('operational validate', () => {
  const record = buildOperationalRecord({
    modelId: 'm',
    providerId: 'p',
    inferenceConfigDigest: 'a'.repeat(64),
    trials: 3,
    episodes: 30,
    latencySeconds: '61.25',
    inputTokens: 10,
    outputTokens: 5,
    cost: { amount: Rational.parse('3/4'), unit: 'USD' },
    retries: 0,
    timeouts: 0,
  });

  it('prints the record digest', () => {
    const dir = freshDir();
    const path = join(dir, 'op.json');
    const text = operationalRecordText(record);
    writeFileSync(path, text);
    const result = runCli(['operational', 'validate', '--record', path, '--json']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ command: 'operational validate', valid: true, digest: createHash('sha256').update(text.slice(0, -1)).digest('hex') });
  });

  it('rejects a cost without a unit (exit 3)', () => {
    const dir = freshDir();
    const path = join(dir, 'op.json');
    writeFileSync(path, canonicalJson({ ...(record as unknown as Editable), cost_unit: null }) + '\n');
    const result = runCli(['operational', 'validate', '--record', path, '--json']);
    expect(result.status).toBe(3);
    expect(jsonError(result.stderr).message).toMatch(/cost and cost_unit are both null/);
  });
});
