import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../core/errors.js';
import type { CommandModule } from './command.js';
import { captureIO } from './io.js';
import { main } from './main.js';
import { COMMAND_MODULES } from './registry.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'test', 'cli', 'fixtures');
const CORRIDOR = join(FIXTURES, 'corridor.json');
const CORRIDOR_HASH = '2813c07f15289b5cb643482b7d97d8a27c096b63a1dd6d530dbf5fc4c4ddcaca';
const scratch = mkdtempSync(join(tmpdir(), 'ember-cli-main-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function run(argv: string[], modules?: readonly CommandModule[]) {
  const io = captureIO();
  const code = await main(argv, io, modules ? { modules } : {});
  return { code, out: io.out(), err: io.err() };
}

/** The single JSON error line of a failure in --json mode. */
function jsonError(err: string): { exit_code: number; kind: string; message: string } {
  expect(err.endsWith('\n')).toBe(true);
  expect(err.split('\n')).toHaveLength(2);
  const parsed = JSON.parse(err) as { error: { exit_code: number; kind: string; message: string } };
  expect(Object.keys(parsed)).toEqual(['error']);
  expect(Object.keys(parsed.error).sort()).toEqual(['exit_code', 'kind', 'message']);
  return parsed.error;
}

describe('version', () => {
  // cli-v1.0.md "version": the benchmark-defining list, then the tooling contracts.
  const BENCHMARK_KEYS = [
    'simulator_version', 'observation_version', 'action_schema_version', 'schema_version', 'metrics_version',
    'crowd_diagnostics_version', 'statistics_version', 'generator_version', 'generator_config_version',
    'generation_manifest_version', 'evaluation_manifest_version', 'evaluation_result_version', 'scoring_version',
    'environment_pack_version', 'environment_world_version', 'family_rules_version', 'calibration_panel_version',
    'difficulty_rules_version', 'admission_rules_version', 'composition_version', 'selection_rules_version',
    'recipe_catalog_version', 'suite_freeze_record_version',
  ];
  const TOOLING_KEYS = ['cli_version', 'baselines_version', 'integrity_protocol_version', 'replay_audit_version', 'animation_format_version'];

  it('--json reports command, benchmark_revision and every version, as one canonical line', async () => {
    const { code, out, err } = await run(['version', '--json']);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out.endsWith('\n')).toBe(true);
    expect(out.split('\n')).toHaveLength(2);
    const report = JSON.parse(out) as Record<string, unknown>;
    expect(Object.keys(report).sort()).toEqual(['benchmark_revision', 'command', ...BENCHMARK_KEYS, ...TOOLING_KEYS].sort());
    expect(report['command']).toBe('version');
    expect(report['benchmark_revision']).toBe(2);
    for (const key of [...BENCHMARK_KEYS, ...TOOLING_KEYS]) expect(report[key]).toBe('1.0');
    // Canonical: keys sorted, no whitespace.
    expect(out).toBe(JSON.stringify(Object.fromEntries(Object.entries(report).sort(([a], [b]) => (a < b ? -1 : 1)))) + '\n');
  });

  it('human mode prints key: value lines, command first', async () => {
    const { code, out } = await run(['version']);
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toBe('command: version');
    expect(lines[1]).toBe('benchmark_revision: 2');
    expect(lines).toContain('cli_version: 1.0');
    expect(lines).toHaveLength(2 + BENCHMARK_KEYS.length + TOOLING_KEYS.length);
    expect(out).not.toMatch(/\x1b/);
  });
});

describe('help', () => {
  it('emberbench --help prints the command tree and exits 0 (emberbench alone is a usage error: see below)', async () => {
    for (const argv of [['--help']]) {
      const { code, out, err } = await run(argv);
      expect(code).toBe(0);
      expect(err).toBe('');
      expect(out).toContain('\nemberbench\n  version                     contract versions\n');
      expect(out).toContain('  scenario validate FILE      one scenario file\n');
      expect(out).toContain('  suite validate DIR          a suite directory (manifest.json + scenario files)\n');
      expect(out).toContain('  evaluation run              run every manifest episode with a local agent (resumable)\n');
      expect(out).toContain('  episode run                 run one scenario with one seed and a local agent\n');
      expect(out).toContain('  replay verify               authenticate one run record by replay\n');
    }
  });

  it('shows only registered commands, and a registered module appears in the tree', async () => {
    const { out } = await run(['--help']);
    expect(out).not.toContain('audit');
    const extra: CommandModule = {
      group: 'audit',
      summary: 'audits of results',
      commands: [
        {
          words: ['audit', 'show'],
          summary: 'show an audit of results',
          description: 'd',
          positionals: [],
          options: [],
          examples: ['emberbench audit show'],
          run: async () => ({ ok: true }),
        },
      ],
    };
    const withExtra = await run(['--help'], [...COMMAND_MODULES, extra]);
    expect(withExtra.out).toContain('  audit show                  show an audit of results\n');
    expect(await run(['audit', 'show', '--json'], [...COMMAND_MODULES, extra])).toEqual({
      code: 0,
      out: '{"command":"audit show","ok":true}\n',
      err: '',
    });
  });

  it('every command prints its usage, every option with a description, and an example', async () => {
    for (const module of COMMAND_MODULES) {
      for (const command of module.commands) {
        const { code, out, err } = await run([...command.words, '--help']);
        expect(code).toBe(0);
        expect(err).toBe('');
        expect(out.startsWith(`usage: emberbench ${command.words.join(' ')}`)).toBe(true);
        for (const option of [...command.options.map((o) => o.name), 'json', 'debug', 'help']) {
          expect(out).toMatch(new RegExp(`\\n  --${option}( [A-Z]+)? +\\S`));
        }
        expect(out).toMatch(new RegExp(`\\nexamples?:\\n  emberbench ${command.words.join(' ')}`));
      }
    }
  });

  it('--help wins over other problems on the line', async () => {
    const { code, out } = await run(['episode', 'run', '--seed', 'bad', '--nope', '--help']);
    expect(code).toBe(0);
    expect(out).toMatch(/^usage: emberbench episode run --scenario FILE --seed N \[--agent SPEC\] \[--agent-command CMD\] (\[[^\]]+\] )*--out FILE/);
  });

  it('a group prints its commands', async () => {
    const { code, out } = await run(['scenario', '--help']);
    expect(code).toBe(0);
    expect(out).toContain('  scenario validate FILE      one scenario file\n');
  });
});

describe('usage errors (exit 2)', () => {
  const valid = ['--scenario', CORRIDOR, '--agent', 'builtin:always-stay', '--out', join(scratch, 'never.json')];
  const cases: [string[], string][] = [
    [['frobnicate'], "unknown command 'frobnicate' (choose from: version, scenario, suite, generated, evaluation, shard, episode, replay, statistics, score, leaderboard, scoring, pack, operational, bundle, keys, result, report, archive, serve)"],
    [['scenario'], "missing command after 'scenario' (choose from: validate); 'emberbench scenario --help' lists them"],
    [['scenario', 'frobnicate'], "unknown command 'scenario frobnicate' (choose from: validate)"],
    [['--force', 'version'], "options go after the command words: '--force' comes before 'version'"],
    [['--force'], "missing command (choose from: version, scenario, suite, generated, evaluation, shard, episode, replay, statistics, score, leaderboard, scoring, pack, operational, bundle, keys, result, report, archive, serve); 'emberbench --help' lists them"],
    [[], "missing command (choose from: version, scenario, suite, generated, evaluation, shard, episode, replay, statistics, score, leaderboard, scoring, pack, operational, bundle, keys, result, report, archive, serve); 'emberbench --help' lists them"],
    [['version', '--jsn'], "unrecognized option '--jsn'"],
    [['version', '--js'], "unrecognized option '--js'"],
    [['version', '-j'], "unrecognized option '-j'"],
    [['version', 'extra'], "unexpected argument 'extra'"],
    [['version', '--json=yes'], 'option --json takes no value'],
    [['scenario', 'validate'], 'missing argument: FILE'],
    [['scenario', 'validate', 'a', 'b'], "unexpected argument 'b'"],
    [['episode', 'run', '--scenario', 'x'], 'missing required options: --seed, --out'],
    [['episode', 'run', '--scenario', CORRIDOR, '--seed', '1', '--out', join(scratch, 'never.json')], 'missing required option: --agent SPEC (or --agent-command "CMD")'],
    [['episode', 'run', ...valid, '--seed', '1', '--agent-command', 'python3 agent.py'], 'give exactly one of --agent SPEC or --agent-command "CMD", not both'],
    [['episode', 'run', ...valid, '--seed', '1', '--seed', '2'], 'option --seed is given more than once'],
    [['episode', 'run', ...valid, '--seed'], 'option --seed needs a value'],
    [['episode', 'run', ...valid, '--seed', '-1'], '--seed: a negative value is out of range: must be a decimal string in [0, 2^64 - 1] (digits only, no sign, spaces or leading zeros)'],
    [['episode', 'run', ...valid, '--seed', '1', '--act-timeout-ms', '-5'], '--act-timeout-ms: -5 is negative: must be an integer in [1, 3600000]'],
    [['episode', 'run', ...valid, '--seed', '--force'], "option --seed needs a value (write --seed=VALUE for a value that starts with '-')"],
    [['episode', 'run', ...valid, '--sce', 'x', '--seed', '1'], "unrecognized option '--sce'"],
  ];

  for (const [argv, message] of cases) {
    it(`${argv.join(' ')}`, async () => {
      const human = await run(argv);
      expect(human).toEqual({ code: 2, out: '', err: `emberbench: error: ${message}\n` });
      const json = await run([...argv, '--json']);
      expect(json.code).toBe(2);
      expect(json.out).toBe('');
      // Appending --json gives a trailing "--seed" its value; the problem found first changes.
      if (argv.at(-1) !== '--seed') expect(jsonError(json.err)).toEqual({ exit_code: 2, kind: 'usage', message });
    });
  }

  it('before a command is known, names the real problem: a word that is no command, an option no command takes', async () => {
    const cases: [string[], RegExp][] = [
      [['--json', 'bogus'], /^unknown command 'bogus' \(choose from: version, scenario, /],
      [['--seed', '5', 'bogus'], /^unknown command 'bogus' \(choose from: version, scenario, /],
      [['--version'], /^unrecognized option '--version' \(the version is a command: emberbench version\)$/],
      [['scenario', '--bogus=1'], /^unrecognized option '--bogus'$/],
      [['--force'], /^missing command \(choose from: version, scenario, /],
    ];
    for (const [argv, message] of cases) {
      const { code, out, err } = await run([...argv, '--json']);
      expect([code, out], argv.join(' ')).toEqual([2, '']);
      expect(jsonError(err).message).toMatch(message);
      if (argv.includes('--json')) continue;
      const human = await run(argv);
      expect(human.err.trimEnd()).toMatch(new RegExp(`^emberbench: error: ${message.source.slice(1)}`));
    }
  });

  it('--json before the command words still reports the usage error as JSON', async () => {
    const { code, out, err } = await run(['--json', 'version']);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(jsonError(err)).toEqual({ exit_code: 2, kind: 'usage', message: "options go after the command words: '--json' comes before 'version'" });
  });

  it('a bad seed is a usage error that does not echo the value', async () => {
    for (const seed of ['18446744073709551616', '01', '1.0', 'abc', '', ' 1', '=-1', '-0']) {
      const argv = ['episode', 'run', ...valid, seed.startsWith('=') ? `--seed${seed}` : `--seed=${seed}`, '--json'];
      const { code, out, err } = await run(argv);
      expect(code).toBe(2);
      expect(out).toBe('');
      const error = jsonError(err);
      expect(error.kind).toBe('usage');
      expect(error.message).toMatch(/^--seed: (a negative value is out of range: )?must be a decimal string in \[0, 2\^64 - 1\]/);
    }
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('the largest seed is accepted', async () => {
    const out = join(scratch, 'max-seed.json');
    const { code, err } = await run(['episode', 'run', ...valid.slice(0, 4), '--out', out, '--seed', '18446744073709551615']);
    expect(err).toBe('');
    expect(code).toBe(0);
    rmSync(out);
  });

  it('a malformed --agent, a missing --agent-path directory and a bad --act-timeout-ms are usage errors', async () => {
    const base = ['episode', 'run', '--scenario', CORRIDOR, '--seed', '1', '--out', join(scratch, 'never.json')];
    const cases: [string[], RegExp][] = [
      [['--agent', 'no-colon'], /^malformed --agent "no-colon"/],
      [['--agent', 'builtin:nope'], /^unknown builtin agent "nope"/],
      [['--agent', 'mod:make', '--agent-path', join(scratch, 'missing')], /^--agent-path: directory does not exist: /],
      [['--agent', 'mod:make', '--agent-path', CORRIDOR], /^--agent-path: not a directory: /],
      [['--agent', 'builtin:always-stay', '--act-timeout-ms', '0'], /^--act-timeout-ms: 0 is out of range: must be an integer in \[1, 3600000\]$/],
      [['--agent', 'builtin:always-stay', '--act-timeout-ms', '3600001'], /^--act-timeout-ms: 3600001 is out of range: must be an integer/],
      [['--agent', 'builtin:always-stay', '--act-timeout-ms', '1e3'], /^--act-timeout-ms: '1e3' is not a decimal integer: must be an integer/],
    ];
    for (const [extra, message] of cases) {
      const { code, err } = await run([...base, ...extra, '--json']);
      expect(code).toBe(2);
      expect(jsonError(err).message).toMatch(message);
    }
    expect(readdirSync(scratch)).toEqual([]);
  });
});

describe('commands in-process', () => {
  it('scenario validate reports scenario_id, scenario_hash and schema_version', async () => {
    const { code, out } = await run(['scenario', 'validate', CORRIDOR, '--json']);
    expect(code).toBe(0);
    expect(out).toBe(`{"command":"scenario validate","scenario_hash":"${CORRIDOR_HASH}","scenario_id":"cli-corridor","schema_version":"1.0"}\n`);
  });

  it('scenario validate: a missing or malformed file is exit 3 naming the path as given', async () => {
    const missing = join(scratch, 'missing.json');
    expect(jsonError((await run(['scenario', 'validate', missing, '--json'])).err)).toEqual({
      exit_code: 3,
      kind: 'validation',
      message: `${missing}: scenario file does not exist`,
    });
    const bad = join(scratch, 'bad.json');
    writeFileSync(bad, '{"schema_version": "1.0", "schema_version": "1.0"}');
    const { code, err } = await run(['scenario', 'validate', bad]);
    expect(code).toBe(3);
    expect(err).toMatch(new RegExp(`^emberbench: error: ${bad}: not valid JSON: .*duplicate key "schema_version".*\\n$`));
    rmSync(bad);
  });

  it('an unexpected exception is exit 1 with the fixed message, and a stack trace only with --debug', async () => {
    const broken: CommandModule = {
      group: 'broken',
      summary: 'b',
      commands: [
        {
          words: ['broken'],
          summary: 'b',
          description: 'b',
          positionals: [],
          options: [],
          examples: ['emberbench broken'],
          run: async () => {
            throw new TypeError('internal detail');
          },
        },
      ],
    };
    const modules = [...COMMAND_MODULES, broken];
    expect(await run(['broken'], modules)).toEqual({
      code: 1,
      out: '',
      err: 'emberbench: error: unexpected failure (a bug); rerun with --debug for a traceback\n',
    });
    const json = await run(['broken', '--json'], modules);
    expect(jsonError(json.err)).toEqual({ exit_code: 1, kind: 'internal', message: 'unexpected failure (a bug); rerun with --debug for a traceback' });
    const debug = await run(['broken', '--json', '--debug'], modules);
    const lines = debug.err.split('\n');
    expect(JSON.parse(lines[0]!)).toEqual({ error: { exit_code: 1, kind: 'internal', message: 'unexpected failure (a bug); rerun with --debug for a traceback' } });
    expect(lines[1]).toBe('TypeError: internal detail');
    expect(debug.out).toBe('');
  });

  it('a report that cannot be written is exit 1 with stdout empty', async () => {
    const floaty: CommandModule = {
      group: 'floaty',
      summary: 'f',
      commands: [
        { words: ['floaty'], summary: 'f', description: 'f', positionals: [], options: [], examples: ['emberbench floaty'], run: async () => ({ x: 0.5 }) },
      ],
    };
    const { code, out } = await run(['floaty', '--json'], [...COMMAND_MODULES, floaty]);
    expect(code).toBe(1);
    expect(out).toBe('');
  });

  it('a library error keeps its kind and message', async () => {
    const failing: CommandModule = {
      group: 'failing',
      summary: 'f',
      commands: [
        {
          words: ['failing'],
          summary: 'f',
          description: 'f',
          positionals: [],
          options: [],
          examples: ['emberbench failing'],
          run: async () => {
            throw new ValidationError('x.json: $.map: must be a list');
          },
        },
      ],
    };
    expect(await run(['failing', '--json'], [...COMMAND_MODULES, failing])).toEqual({
      code: 3,
      out: '',
      err: '{"error":{"exit_code":3,"kind":"validation","message":"x.json: $.map: must be a list"}}\n',
    });
  });
});
