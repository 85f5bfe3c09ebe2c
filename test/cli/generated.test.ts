// `generated create | validate` and --generated-suite as processes:
// determinism across processes, the freeze record against every file, the
// tamper cases (exit 3), configuration errors that name the field, and
// atomic, never-replacing output.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync, cpSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestOf, sha256Hex } from '../../src/core/hash.js';
import { indentedJson } from '../../src/core/json/canonical.js';
import { cliArgv, jsonError, ROOT, runCli } from './run-cli.js';

const SMALL_CONFIG = {
  generator_config_version: '1.0',
  suite_id: 'small-gen',
  suite_version: '1.0',
  visibility: 'public',
  seed_role: 'evaluation',
  families: [
    { family: 'single_exit_low_density', count: 2, rows: [8, 10], cols: [10, 14], people: [4, 8], spread_permille: [100, 180], max_steps: [40, 50] },
    { family: 'multi_room_office', count: 2, rows: [11, 13], cols: [16, 20], people: [10, 16], spread_permille: [150, 250], max_steps: [60, 70] },
  ],
};

let scratch: string;
let counter = 0;
let configPath: string;
let batch: string;

function freshDir(): string {
  const dir = join(scratch, `case-${counter++}`);
  return dir;
}

/** Every file under a directory, relative path -> bytes as hex digest. */
function tree(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) Object.assign(out, tree(dir, rel));
    else out[rel] = sha256Hex(readFileSync(join(dir, rel)));
  }
  return out;
}

/** Runs the CLI without blocking, so two processes generate at the same time. */
function runAsync(args: readonly string[], cwd: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArgv(args), { cwd, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
}

/** A copy of the frozen batch to tamper with. */
function copyOfBatch(): string {
  const dir = freshDir();
  cpSync(batch, dir, { recursive: true });
  return dir;
}

function validate(dir: string) {
  return runCli(['generated', 'validate', dir, '--json']);
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-cli-generated-'));
  configPath = join(scratch, 'small.json');
  writeFileSync(configPath, JSON.stringify(SMALL_CONFIG));
  batch = join(scratch, 'batch');
  const created = runCli(['generated', 'create', '--config', configPath, '--batch-seed', '11', '--out', batch, '--json']);
  expect(created.stderr).toBe('');
  expect(created.status).toBe(0);
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('generated create', () => {
  it('gives byte-identical batches in two processes started from different directories', async () => {
    const a = freshDir();
    const b = freshDir();
    const args = (out: string) => ['generated', 'create', '--batch-seed', '18446744073709551615', '--out', out, '--json'];
    const codes = await Promise.all([runAsync(args(a), ROOT), runAsync(args(b), scratch)]);
    expect(codes).toEqual([0, 0]);
    const files = tree(a);
    expect(files).toEqual(tree(b));
    // The default configuration: every family kind, several scenarios each.
    expect(Object.keys(files).filter((f) => f.startsWith('suite/') && f !== 'suite/manifest.json')).toHaveLength(30);
    expect(readdirSync(a).sort()).toEqual(['generation.json', 'suite']);
  }, 60_000);

  it('reports the batch identity, and validate reports the same', () => {
    const again = freshDir();
    const created = JSON.parse(runCli(['generated', 'create', '--config', configPath, '--batch-seed', '11', '--out', again, '--json']).stdout) as Record<string, unknown>;
    const validated = validate(batch);
    expect(validated.status).toBe(0);
    const report = JSON.parse(validated.stdout) as Record<string, unknown>;
    expect({ ...report, command: 'x' }).toEqual({ ...created, command: 'x' });
    const record = JSON.parse(readFileSync(join(batch, 'generation.json'), 'utf8')) as Record<string, unknown>;
    expect(report).toMatchObject({
      batch_id: record['batch_id'],
      config_hash: record['config_hash'],
      generation_manifest_version: '1.0',
      generator_version: '1.0',
      generator_config_version: '1.0',
      scenario_count: 4,
      suite_id: 'small-gen',
    });
    expect(tree(again)).toEqual(tree(batch));
  });

  it('never replaces an existing directory (exit 6)', () => {
    const result = runCli(['generated', 'create', '--config', configPath, '--batch-seed', '11', '--out', batch, '--json']);
    expect(result.status).toBe(6);
    expect(jsonError(result.stderr).message).toContain('output directory exists');
  });

  it('refuses a configuration that cannot produce valid scenarios, naming the field, and writes nothing (exit 3)', () => {
    const bad = join(scratch, 'bad.json');
    const families = [{ ...SMALL_CONFIG.families[0], rows: [4, 10] }];
    writeFileSync(bad, JSON.stringify({ ...SMALL_CONFIG, families }));
    const out = freshDir();
    const result = runCli(['generated', 'create', '--config', bad, '--batch-seed', '1', '--out', out, '--json']);
    expect(result.status).toBe(3);
    expect(jsonError(result.stderr).message).toBe(`${bad}: families[0].rows[0]: 4 is below 6 (single_exit_low_density needs at least 6 rows)`);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a malformed batch seed as a usage error (exit 2)', () => {
    const result = runCli(['generated', 'create', '--batch-seed', '1.5', '--out', freshDir(), '--json']);
    expect(result.status).toBe(2);
    expect(jsonError(result.stderr).message).toContain('--batch-seed: must be a decimal string');
  });
});

describe('generated validate: tamper cases (exit 3)', () => {
  const scenarioFile = 'single-exit-low-density-001.json';

  it.each([
    [
      'a scenario file changed in content',
      (dir: string) => {
        const path = join(dir, 'suite', scenarioFile);
        writeFileSync(path, readFileSync(path, 'utf8').replace('"development_seed": "0"', '"development_seed": "1"'));
      },
      'scenario_hash: does not match single-exit-low-density-001.json',
    ],
    ['a scenario file changed in layout only', (dir: string) => appendFileSync(join(dir, 'suite', scenarioFile), '\n'), `suite/${scenarioFile}: its bytes do not match`],
    ['an extra file in the suite', (dir: string) => writeFileSync(join(dir, 'suite', 'extra.json'), '{}'), 'suite/extra.json: unlisted file'],
    ['a missing scenario file', (dir: string) => unlinkSync(join(dir, 'suite', scenarioFile)), `suite/${scenarioFile}: missing`],
    ['an extra entry beside the record', (dir: string) => writeFileSync(join(dir, 'notes.txt'), 'hi'), 'notes.txt: unexpected entry'],
    ['a missing record', (dir: string) => unlinkSync(join(dir, 'generation.json')), 'generation.json: missing'],
    [
      'a record with another batch seed',
      (dir: string) => editRecord(dir, (r) => ({ ...r, batch_seed: '12' })),
      'batch_id: is gen-',
    ],
    [
      'a record with another configuration',
      (dir: string) =>
        editRecord(dir, (r) => {
          const configuration = r['configuration'] as { families: { count: number }[] };
          configuration.families[0]!.count = 3;
          return r;
        }),
      'config_hash: is ',
    ],
    [
      'a record with another scenario hash',
      (dir: string) =>
        editRecord(dir, (r) => {
          (r['scenarios'] as { scenario_hash: string }[])[1]!.scenario_hash = '0'.repeat(64);
          return r;
        }),
      'scenarios[1].scenario_hash: does not match',
    ],
    ['a record that is not canonical', (dir: string) => appendFileSync(join(dir, 'generation.json'), '\n'), 'not a canonical record file'],
  ])('refuses %s', (_name, tamper, message) => {
    const dir = copyOfBatch();
    tamper(dir);
    const result = validate(dir);
    expect(result.status).toBe(3);
    expect(jsonError(result.stderr).message).toContain(message);
  });

  it('refuses a scenario edited with the manifest and record rewritten to match: the regeneration differs', () => {
    const dir = copyOfBatch();
    const path = join(dir, 'suite', scenarioFile);
    const scenario = JSON.parse(readFileSync(path, 'utf8')) as { max_steps: number };
    scenario.max_steps += 1;
    const text = indentedJson(scenario as never);
    writeFileSync(path, text);
    // Rewrite every hash that pins the file, as a careful forger would.
    const scenarioHash = digestOf(JSON.parse(text) as never);
    const manifestPath = join(dir, 'suite', 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { scenarios: { file: string; scenario_hash: string }[] };
    manifest.scenarios.find((s) => s.file === scenarioFile)!.scenario_hash = scenarioHash;
    const manifestText = indentedJson(manifest as never);
    writeFileSync(manifestPath, manifestText);
    editRecord(dir, (r) => {
      const entry = (r['scenarios'] as { file: string; scenario_hash: string; file_sha256: string }[]).find((s) => s.file === scenarioFile)!;
      entry.scenario_hash = scenarioHash;
      entry.file_sha256 = sha256Hex(text);
      r['suite_manifest_sha256'] = sha256Hex(manifestText);
      r['suite_hash'] = digestOf(manifest as never);
      return r;
    });
    const result = validate(dir);
    expect(result.status).toBe(3);
    expect(jsonError(result.stderr).message).toContain(`suite/manifest.json: is not what generator 1.0 makes from the recorded configuration and batch seed`);
  });

  it('refuses a tampered batch given to a suite-taking command (exit 3), and accepts the frozen one', () => {
    const dir = copyOfBatch();
    appendFileSync(join(dir, 'suite', scenarioFile), ' ');
    const out = join(scratch, `m-${counter++}.json`);
    const bad = runCli(['evaluation', 'manifest', '--generated-suite', dir, '--seed', '0', '--out', out, '--json']);
    expect(bad.status).toBe(3);
    expect(existsSync(out)).toBe(false);
    const good = runCli(['evaluation', 'manifest', '--generated-suite', batch, '--seed', '0', '--out', out, '--json']);
    expect(good.status).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({ suite_id: 'small-gen', episode_count: 4 });
  });
});

function editRecord(dir: string, edit: (record: Record<string, unknown>) => Record<string, unknown>): void {
  const path = join(dir, 'generation.json');
  const record = edit(JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>);
  // Written back in canonical form, so the check that fires is the one the edit is about.
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, indentedJson(record as never));
  renameSync(tmp, path);
}
