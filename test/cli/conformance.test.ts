// The command line against its specification, point by point: each test
// names the section of cli-v1.0.md (and the point in it) it checks. Most
// cases run main() in this process (fast); the spec's Examples run as real
// processes, verbatim, from a folder of their own. Sections checked in other
// files are named here with the file (Ctrl+C: interrupt.test.ts; network
// policy: network.test.ts; determinism across environments:
// determinism.test.ts; the atomic write's failure paths: src/node/files.test.ts).
//
// Adaptations of this TypeScript project, each named where it applies: the
// spec's Python agent module (`my_agents:make_agent`, a STAY policy) is this
// project's baseline `builtin:always-stay`; the spec's manifest hash of the
// public seeds 0, 1, 2 is this project's pinned one (docs/evaluation.md).
import { spawnSync } from 'node:child_process';
import { linkSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileDigest } from '../../src/core/hash.js';
import { CORRIDOR, ROOT, SUITE, cliArgv, jsonError } from './run-cli.js';
import { runMain } from './in-process.js';

const PUBLIC = join(ROOT, 'scenarios', 'public', 'v1');
/** docs/evaluation.md: ember-public 1.0 with the seeds 0, 1, 2. */
const PUBLIC_MANIFEST_HASH = '7003d836459f7d9571fbf364267f57a3e9ab85475119e499486ba8e1b090375e';

let scratch: string;
let counter = 0;
let manifestPath: string;
let resultPath: string;
let recordPath: string;

function freshDir(): string {
  const dir = join(scratch, `case-${counter++}`);
  mkdirSync(dir);
  return dir;
}

const cli = runMain;

async function ok(args: readonly string[]): Promise<Record<string, unknown>> {
  const run = await cli([...args, '--json']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

async function fails(args: readonly string[], exitCode: number): Promise<{ kind: string; message: string }> {
  const run = await cli([...args, '--json']);
  expect(run.stdout).toBe('');
  const error = jsonError(run.stderr);
  expect(error.exit_code, error.message).toBe(exitCode);
  expect(run.code).toBe(exitCode);
  return error;
}

const SUITE_SEEDS = ['--suite', SUITE, '--seed', '1', '--seed', '2'];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-cli-conformance-'));
  const inputs = freshDir();
  manifestPath = join(inputs, 'manifest.json');
  resultPath = join(inputs, 'result.json');
  recordPath = join(inputs, 'record.json');
  await ok(['evaluation', 'manifest', ...SUITE_SEEDS, '--out', manifestPath]);
  await ok(['evaluation', 'run', '--suite', SUITE, '--manifest', manifestPath, '--model-id', 'stay', '--agent', 'builtin:always-stay', '--out', resultPath]);
  await ok(['episode', 'run', '--scenario', CORRIDOR, '--seed', '3', '--agent', 'builtin:always-stay', '--out', recordPath]);
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('cli-v1.0.md "Entry points" and "version"', () => {
  it('version --json reports every benchmark-defining version and the tooling contracts, nothing of the environment', async () => {
    const report = await ok(['version']);
    for (const key of ['benchmark_revision', 'simulator_version', 'observation_version', 'action_schema_version', 'schema_version', 'metrics_version', 'statistics_version', 'evaluation_manifest_version', 'evaluation_result_version', 'scoring_version', 'cli_version']) {
      expect(report, key).toHaveProperty(key);
    }
    expect(report['cli_version']).toBe('1.0');
    expect(JSON.stringify(report)).not.toContain(ROOT);
  });
});

describe('cli-v1.0.md "Command tree"', () => {
  const commands = [
    ['version'],
    ['scenario', 'validate'],
    ['suite', 'validate'],
    ['generated', 'validate'],
    ['evaluation', 'manifest'],
    ['evaluation', 'run'],
    ['evaluation', 'verify'],
    ['episode', 'run'],
    ['replay', 'verify'],
    ['statistics', 'aggregate'],
    ['statistics', 'compare'],
  ];

  it('every listed command exists and accepts --help, --json and --debug (point: "Every command accepts")', async () => {
    for (const words of commands) {
      const help = await cli([...words, '--help']);
      expect(help.code, words.join(' ')).toBe(0);
      expect(help.stdout).toContain('--json');
      expect(help.stdout).toContain('--debug');
      expect(help.stdout).toContain('--help');
    }
  });

  it('options go after the command words and are never abbreviated (exit 2)', async () => {
    expect((await fails(['--json', 'version'], 2)).message).toBe("options go after the command words: '--json' comes before 'version'");
    expect((await fails(['version', '--jso'], 2)).message).toBe("unrecognized option '--jso'");
  });

  it('a missing command is a usage error (exit 2) at the top and in a group, in the JSON form with --json (point: "Usage errors found while parsing")', async () => {
    expect((await fails([], 2)).message).toMatch(/^missing command \(choose from: version, scenario, .*\); 'emberbench --help' lists them$/);
    expect((await fails(['scenario'], 2)).message).toBe("missing command after 'scenario' (choose from: validate); 'emberbench scenario --help' lists them");
    const human = await cli(['scenario']);
    expect(human).toEqual({ code: 2, stdout: '', stderr: "emberbench: error: missing command after 'scenario' (choose from: validate); 'emberbench scenario --help' lists them\n" });
  });

  it('exactly one of --suite DIR or --generated-suite DIR (point: "Commands that take a suite")', async () => {
    const out = join(freshDir(), 'm.json');
    expect((await fails(['evaluation', 'manifest', '--seed', '1', '--out', out], 2)).message).toBe('missing required option: --suite DIR (or --generated-suite DIR)');
    expect((await fails(['evaluation', 'manifest', ...SUITE_SEEDS, '--generated-suite', SUITE, '--out', out], 2)).message).toBe('give exactly one of --suite DIR or --generated-suite DIR, not both');
  });
});

describe('cli-v1.0.md "Commands"', () => {
  it('scenario validate FILE reports scenario_id, scenario_hash and schema_version', async () => {
    expect(Object.keys(await ok(['scenario', 'validate', CORRIDOR])).sort()).toEqual(['command', 'scenario_hash', 'scenario_id', 'schema_version']);
  });

  it('suite validate DIR reports the suite fields, scenario_count and scenarios in manifest order', async () => {
    const report = await ok(['suite', 'validate', SUITE]);
    expect(Object.keys(report).sort()).toEqual(['command', 'scenario_count', 'scenarios', 'schema_version', 'seed_role', 'suite_hash', 'suite_id', 'suite_version', 'visibility']);
  });

  it('evaluation manifest: seed order kept, duplicate and out-of-range seeds are usage errors, seeds never printed', async () => {
    const dir = freshDir();
    const a = await ok(['evaluation', 'manifest', '--suite', SUITE, '--seed', '7', '--seed', '1', '--out', join(dir, 'a.json')]);
    const b = await ok(['evaluation', 'manifest', '--suite', SUITE, '--seed', '1', '--seed', '7', '--out', join(dir, 'b.json')]);
    expect(a['manifest_hash']).not.toBe(b['manifest_hash']);
    expect(Object.keys(a).sort()).toEqual(['command', 'episode_count', 'manifest_hash', 'manifest_version', 'schema_version', 'seed_count', 'seed_role', 'suite_hash', 'suite_id', 'suite_version', 'visibility']);
    expect(JSON.stringify(a)).not.toMatch(/"seeds?"/);
    expect((await fails(['evaluation', 'manifest', '--suite', SUITE, '--seed', '1', '--seed', '1', '--out', join(dir, 'c.json')], 2)).kind).toBe('usage');
    expect((await fails(['evaluation', 'manifest', '--suite', SUITE, '--seed', '18446744073709551616', '--out', join(dir, 'c.json')], 2)).kind).toBe('usage');
    expect((await fails(['evaluation', 'manifest', '--suite', SUITE, '--seed', '-1', '--out', join(dir, 'c.json')], 2)).message).toBe(
      '--seed: a negative value is out of range: must be a decimal string in [0, 2^64 - 1] (digits only, no sign, spaces or leading zeros)',
    );
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'b.json']);
  });

  it('episode run reports the listed fields and writes the run record as canonical JSON plus one LF', async () => {
    const report = await ok(['replay', 'verify', '--scenario', CORRIDOR, '--record', recordPath]);
    expect(Object.keys(report).sort()).toEqual(['command', 'observation_version', 'record_digest', 'scenario_hash', 'scenario_id', 'simulator_version', 'steps', 'termination_reason', 'verified']);
    const text = readFileSync(recordPath, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(report['record_digest']).toBe(fileDigest(text));
  });

  it('replay verify: not a record is exit 3 (point 1), a trajectory difference is exit 5 (point 2)', async () => {
    const dir = freshDir();
    const notJson = join(dir, 'bad.json');
    writeFileSync(notJson, '{');
    await fails(['replay', 'verify', '--scenario', CORRIDOR, '--record', notJson], 3);
    // The same record against another scenario of the suite: a scenario-hash difference.
    await fails(['replay', 'verify', '--scenario', join(SUITE, 'cli-two-exits.json'), '--record', recordPath], 5);
  });

  it('evaluation run: an existing --out without --resume is an output conflict (exit 6); evaluation verify --require-complete', async () => {
    await fails(['evaluation', 'run', '--suite', SUITE, '--manifest', manifestPath, '--model-id', 'stay', '--agent', 'builtin:always-stay', '--out', resultPath], 6);
    const report = await ok(['evaluation', 'verify', '--suite', SUITE, '--result', resultPath, '--manifest', manifestPath, '--require-complete']);
    expect(report).toMatchObject({ verified: true, complete: true, model_id: 'stay' });
    expect((await fails(['evaluation', 'run', '--suite', SUITE, '--manifest', manifestPath, '--model-id', ' stay', '--agent', 'builtin:always-stay', '--out', join(freshDir(), 'r.json')], 2)).kind).toBe('usage');
  });

  it('statistics: the default is the library default (2000); an out-of-range --resamples is a usage error', async () => {
    const dir = freshDir();
    expect(await ok(['statistics', 'aggregate', '--suite', SUITE, '--result', resultPath, '--out', join(dir, 's.json')])).toMatchObject({ resamples: 2000 });
    expect((await fails(['statistics', 'aggregate', '--suite', SUITE, '--result', resultPath, '--resamples', '-5', '--out', join(dir, 't.json')], 2)).message).toBe('--resamples: -5 is negative: must be an integer in [1, 1000000]');
    expect((await fails(['statistics', 'aggregate', '--suite', SUITE, '--result', resultPath, '--resamples', '01', '--out', join(dir, 't.json')], 2)).message).toBe(
      '--resamples: 01 has a leading zero (write it with no leading zeros): must be an integer in [1, 1000000]',
    );
    const paired = await ok(['statistics', 'compare', '--suite', SUITE, '--a', resultPath, '--b', resultPath, '--resamples', '50', '--out', join(dir, 'p.json')]);
    expect(Object.keys(paired).sort()).toEqual(['command', 'digest', 'manifest_hash', 'model_a', 'model_b', 'resamples', 'statistics_version']);
    // The distinct names (--result-a/--result-b) give the same artifact.
    await ok(['statistics', 'compare', '--suite', SUITE, '--result-a', resultPath, '--result-b', resultPath, '--resamples', '50', '--out', join(dir, 'q.json')]);
    expect(readFileSync(join(dir, 'q.json'), 'utf8')).toBe(readFileSync(join(dir, 'p.json'), 'utf8'));
  });

  it('after an interrupted run, evaluation verify names the journal and how to finish it (exit 3)', async () => {
    const dir = freshDir();
    const out = join(dir, 'result.json');
    writeFileSync(`${out}.journal`, '');
    expect((await fails(['evaluation', 'verify', '--suite', SUITE, '--result', out], 3)).message).toBe(
      `${out}: evaluation result does not exist, but its journal ${out}.journal does: the run was interrupted; finish it with evaluation run --resume and the same --suite, --manifest, --model-id, --agent and --out ${out}, then verify it`,
    );
  });
});

describe('cli-v1.0.md "Exit codes"', () => {
  it('0 ok, 2 usage, 3 validation, 4 agent, 5 mismatch, 6 output (130: interrupt.test.ts)', async () => {
    const dir = freshDir();
    await ok(['scenario', 'validate', CORRIDOR]);
    expect((await fails(['scenario', 'validate', CORRIDOR, '--nope'], 2)).kind).toBe('usage');
    expect((await fails(['scenario', 'validate', join(dir, 'missing.json')], 3)).kind).toBe('validation');
    const agent = await fails(['episode', 'run', '--scenario', CORRIDOR, '--seed', '1', '--agent', 'my_agents:make_agent', '--agent-path', dir, '--out', join(dir, 'r.json')], 4);
    expect(agent.kind).toBe('agent');
    // Another manifest (other seeds) than the one the result ran.
    const other = join(dir, 'other-manifest.json');
    await ok(['evaluation', 'manifest', '--suite', SUITE, '--seed', '9', '--out', other]);
    expect((await fails(['evaluation', 'verify', '--suite', SUITE, '--result', resultPath, '--manifest', other], 5)).kind).toBe('mismatch');
    expect((await fails(['evaluation', 'manifest', ...SUITE_SEEDS, '--out', join(dir, 'no-dir', 'm.json')], 6)).kind).toBe('output');
  });

  it('a Python module given as --agent (the spec example) is exit 4 with the --agent-command hint', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'my_agents.py'), 'def make_agent(): pass\n');
    const error = await fails(['episode', 'run', '--scenario', CORRIDOR, '--seed', '3', '--agent', 'my_agents:make_agent', '--agent-path', dir, '--out', join(dir, 'record.json')], 4);
    expect(error.message).toBe(
      `cannot import agent module my_agents: not found in --agent-path dirs ${dir}; ${join(dir, 'my_agents.py')} is a Python file, but agent modules are JavaScript or TypeScript (.mjs, .js, .ts, .mts, .cjs): run a Python agent with --agent-command "python3 ${join(dir, 'my_agents.py')}" (docs/agents.md)`,
    );
    expect(readdirSync(dir)).toEqual(['my_agents.py']);
  });

  it('malformed --agent and a missing --agent-path directory are usage errors (exit 2) ("Agent factories")', async () => {
    const dir = freshDir();
    const base = ['episode', 'run', '--scenario', CORRIDOR, '--seed', '1', '--out', join(dir, 'r.json')];
    await fails([...base, '--agent', 'no-colon'], 2);
    await fails([...base, '--agent', 'mod:make', '--agent-path', join(dir, 'missing')], 2);
  });
});

/** A spawned command that succeeds; stderr is empty unless `log` (evaluation run's per-episode lines in human mode). */
function spawnOk(args: readonly string[], cwd = ROOT, log?: RegExp): string {
  const run = spawnSync(process.execPath, cliArgv(args), { cwd, encoding: 'utf8' });
  if (log === undefined) expect(run.stderr).toBe('');
  else for (const line of run.stderr.split('\n').slice(0, -1)) expect(line).toMatch(log);
  expect(run.status).toBe(0);
  return run.stdout;
}

describe('cli-v1.0.md "Output"', () => {
  it('JSON mode: one canonical ASCII line with a command field; failure: empty stdout and one error line', async () => {
    const run = await cli(['suite', 'validate', SUITE, '--json']);
    expect(run.stdout.split('\n')).toHaveLength(2);
    const parsed = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(Object.keys(parsed).sort());
    expect(run.stdout).toMatch(/^[\x20-\x7e]*\n$/);
    expect(parsed['command']).toBe('suite validate');
    const failure = await cli(['suite', 'validate', join(scratch, 'none'), '--json']);
    expect(failure.stdout).toBe('');
    expect(failure.stderr).toMatch(/^\{"error":\{"exit_code":3,"kind":"validation","message":"[^\n]*"\}\}\n$/);
  });

  it('human mode: key: value lines; errors as "emberbench: error: MESSAGE"; no traceback without --debug, one with it; no escape codes', async () => {
    const run = await cli(['scenario', 'validate', CORRIDOR]);
    expect(run.stdout).toMatch(/^command: scenario validate\nscenario_id: cli-corridor\n/);
    const failure = await cli(['scenario', 'validate', join(scratch, 'none.json')]);
    expect(failure.stderr).toMatch(/^emberbench: error: [^\n]*does not exist\n$/);
    const debug = await cli(['scenario', 'validate', join(scratch, 'none.json'), '--debug']);
    expect(debug.stderr).toMatch(/\n\s+at /);
    expect(run.stdout + failure.stderr).not.toContain('\u001b');
  });
});

describe('cli-v1.0.md "Files"', () => {
  it('"Inputs are never written": an output that is an input is refused even with --force (exit 6)', async () => {
    const copy = join(freshDir(), 'manifest.json');
    writeFileSync(copy, readFileSync(manifestPath));
    await fails(['evaluation', 'manifest', ...SUITE_SEEDS, '--out', join(SUITE, 'manifest.json'), '--force'], 6);
    await fails(['statistics', 'aggregate', '--suite', SUITE, '--result', resultPath, '--out', resultPath, '--force'], 6);
  });

  it('"Output rules": an existing file is replaced only with --force; a missing parent or a directory is exit 6; nothing is left behind', async () => {
    const dir = freshDir();
    const out = join(dir, 'm.json');
    writeFileSync(out, 'old');
    expect((await fails(['evaluation', 'manifest', ...SUITE_SEEDS, '--out', out], 6)).message).toBe(`output file exists (use --force to replace it): ${out}`);
    expect(readFileSync(out, 'utf8')).toBe('old');
    await ok(['evaluation', 'manifest', ...SUITE_SEEDS, '--out', out, '--force']);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(manifestPath, 'utf8'));
    await fails(['evaluation', 'manifest', ...SUITE_SEEDS, '--out', dir], 6);
    expect(readdirSync(dir)).toEqual(['m.json']);
  });

  it('--force replaces only a regular file: a character device and a FIFO are refused by name and stay as they were', async () => {
    const dir = freshDir();
    const fifo = join(dir, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const targets: [string, string][] = [[fifo, 'a FIFO (named pipe)']];
    // A device made in the temporary folder, never the host's /dev (as root; else only the FIFO).
    const device = join(dir, 'full');
    if (process.getuid?.() === 0 && spawnSync('mknod', [device, 'c', '1', '7']).status === 0) targets.push([device, 'a character device']);
    for (const [out, kind] of targets) {
      expect((await fails(['evaluation', 'manifest', ...SUITE_SEEDS, '--out', out, '--force'], 6)).message).toBe(
        `output ${out} is ${kind}, not a regular file; only a regular file is ever replaced: choose another output path`,
      );
    }
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    if (targets.length > 1) expect(lstatSync(device).isCharacterDevice()).toBe(true);
  });

  it('a symlink or a hard link to a file inside the input --suite folder is refused even with --force', async () => {
    const dir = freshDir();
    const suite = join(dir, 'suite');
    mkdirSync(suite);
    for (const name of readdirSync(SUITE)) writeFileSync(join(suite, name), readFileSync(join(SUITE, name)));
    symlinkSync(join(suite, 'cli-corridor.json'), join(dir, 'soft.json'));
    linkSync(join(suite, 'cli-two-exits.json'), join(dir, 'hard.json'));
    for (const name of ['soft.json', 'hard.json']) {
      const out = join(dir, name);
      expect((await fails(['evaluation', 'manifest', '--suite', suite, '--seed', '1', '--out', out, '--force'], 6)).message).toBe(
        `output ${out} is a link to a file inside the input directory ${suite}; inputs are never written: choose another output path`,
      );
    }
    expect(readFileSync(join(suite, 'cli-two-exits.json'), 'utf8')).toBe(readFileSync(join(SUITE, 'cli-two-exits.json'), 'utf8'));
  });

  it('the output path is checked before an agent is imported or an episode runs (exit 6, not 4)', async () => {
    const dir = freshDir();
    const out = join(dir, 'record.json');
    writeFileSync(out, 'old');
    await fails(['episode', 'run', '--scenario', CORRIDOR, '--seed', '1', '--agent', 'no_such_module:make', '--agent-path', dir, '--out', out], 6);
  });

  it('"Artifact bytes": ASCII with LF, and a statistics digest is the SHA-256 of the file without its final LF', async () => {
    const out = join(freshDir(), 'stats.json');
    const report = await ok(['statistics', 'aggregate', '--suite', SUITE, '--result', resultPath, '--resamples', '20', '--out', out]);
    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(/^[\x20-\x7e\n]*\n$/);
    expect(text).not.toContain('\r');
    expect(report['digest']).toBe(fileDigest(text));
    expect(text).not.toContain(scratch);
  });
});

describe('cli-v1.0.md "Configuration, determinism and network policy" (network: network.test.ts)', () => {
  it('the order of options does not matter (the order of --seed does)', async () => {
    const dir = freshDir();
    await ok(['evaluation', 'manifest', '--out', join(dir, 'a.json'), '--seed', '1', '--suite', SUITE, '--seed', '2']);
    await ok(['evaluation', 'manifest', '--suite', SUITE, '--seed', '1', '--seed', '2', '--out', join(dir, 'b.json')]);
    expect(readFileSync(join(dir, 'a.json'), 'utf8')).toBe(readFileSync(join(dir, 'b.json'), 'utf8'));
  });
});

describe('cli-v1.0.md "Examples (public development assets)", run verbatim in a folder of their own', () => {
  it('the five examples succeed, and the public seeds 0, 1, 2 give the pinned manifest hash', { timeout: 180_000 }, () => {
    const cwd = freshDir();
    // The relative `scenarios/public/v1` of the examples, from this folder.
    mkdirSync(join(cwd, 'scenarios', 'public'), { recursive: true });
    symlinkSync(PUBLIC, join(cwd, 'scenarios', 'public', 'v1'));
    // The spec's `--agent my_agents:make_agent --agent-path .` (a STAY policy in Python) is this project's builtin:always-stay.
    const stay = ['--agent', 'builtin:always-stay'];
    const validate = spawnOk(['suite', 'validate', 'scenarios/public/v1'], cwd);
    expect(validate).toMatch(/^command: suite validate\nsuite_id: ember-public\n/);
    const manifest = JSON.parse(spawnOk(['evaluation', 'manifest', '--suite', 'scenarios/public/v1', '--seed', '0', '--seed', '1', '--seed', '2', '--out', 'manifest.json', '--json'], cwd)) as Record<string, unknown>;
    expect(manifest['manifest_hash']).toBe(PUBLIC_MANIFEST_HASH);
    spawnOk(['evaluation', 'run', '--suite', 'scenarios/public/v1', '--manifest', 'manifest.json', '--model-id', 'stay', ...stay, '--out', 'stay.json'], cwd, /^episode \d+\/30 done \(/);
    const verify = spawnOk(['evaluation', 'verify', '--suite', 'scenarios/public/v1', '--result', 'stay.json', '--manifest', 'manifest.json', '--require-complete'], cwd);
    expect(verify).toMatch(/\nverified: true\n/);
    expect(verify).toMatch(/\ncomplete: true\n/);
    spawnOk(['statistics', 'aggregate', '--suite', 'scenarios/public/v1', '--result', 'stay.json', '--out', 'stay-stats.json'], cwd);
    expect(readdirSync(cwd).sort()).toEqual(['manifest.json', 'scenarios', 'stay-stats.json', 'stay.json']);
  });
});
