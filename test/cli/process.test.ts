// The CLI as a process: the entry, every error class with its exit code and
// message shape, the output rules, and that no output or temporary file is
// left behind after a failure.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENTS, CORRIDOR, MAIN, ROOT, SUITE, TSX, jsonError, runCli, startCli } from './run-cli.js';
import { TEST_PYTHON } from '../kits/agent-kit.js';

const CORRIDOR_HASH = '2813c07f15289b5cb643482b7d97d8a27c096b63a1dd6d530dbf5fc4c4ddcaca';
const TWO_EXITS = join(SUITE, 'cli-two-exits.json');

let scratch: string;
let counter = 0;
/** A fresh empty directory per case, so "nothing left behind" is a directory listing. */
function freshDir(): string {
  const dir = join(scratch, `case-${counter++}`);
  mkdirSync(dir);
  return dir;
}

let record: { text: string; digest: string; report: Record<string, unknown> };

function episodeArgs(out: string, agent = 'builtin:fire-aware-shortest-path-v1', seed = '3'): string[] {
  return ['episode', 'run', '--scenario', CORRIDOR, '--seed', seed, '--agent', agent, '--agent-path', AGENTS, '--out', out];
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-cli-process-'));
  const dir = freshDir();
  const out = join(dir, 'record.json');
  const result = runCli([...episodeArgs(out), '--json']);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  const text = readFileSync(out, 'utf8');
  record = { text, digest: createHash('sha256').update(text.slice(0, -1)).digest('hex'), report: JSON.parse(result.stdout) as Record<string, unknown> };
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('entry', () => {
  it('runs main when invoked directly', () => {
    const result = runCli(['version', '--json']);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect((JSON.parse(result.stdout) as { command: string }).command).toBe('version');
  });

  it('does not run main when imported', () => {
    const result = spawnSync(process.execPath, ['--import', TSX, '--input-type=module', '-e', `await import(${JSON.stringify(MAIN)});`], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('');
  });

  it('a missing command is a usage error (exit 2) that lists the commands; --help prints the command tree', () => {
    const result = runCli([]);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^emberbench: error: missing command \(choose from: version, scenario, .*\); 'emberbench --help' lists them\n$/);
    const help = runCli(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('  episode run                 run one scenario with one seed and a local agent\n');
  });
});

describe('episode run', () => {
  it('writes the run record (canonical JSON plus LF) and reports exactly the listed fields', () => {
    expect(Object.keys(record.report).sort()).toEqual(
      ['command', 'observation_version', 'record_digest', 'scenario_hash', 'scenario_id', 'simulator_version', 'steps', 'termination_reason'].sort(),
    );
    expect(record.report).toMatchObject({
      command: 'episode run',
      scenario_id: 'cli-corridor',
      scenario_hash: CORRIDOR_HASH,
      simulator_version: '1.0',
      observation_version: '1.0',
      record_digest: record.digest,
    });
    expect(record.text.endsWith('}\n')).toBe(true);
    expect(record.text).toMatch(/^[\x20-\x7e]*\n$/);
    const value = JSON.parse(record.text) as { steps: number; termination_reason: string; seed: string };
    expect(record.report['steps']).toBe(value.steps);
    expect(record.report['termination_reason']).toBe(value.termination_reason);
    expect(value.seed).toBe('3');
  });

  it('runs a MODULE:FACTORY agent from --agent-path and leaves only the output', () => {
    const dir = freshDir();
    const result = runCli([...episodeArgs(join(dir, 'stay.json'), 'cli_agents:makeStay'), '--json']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(readdirSync(dir)).toEqual(['stay.json']);
    const value = JSON.parse(readFileSync(join(dir, 'stay.json'), 'utf8')) as { trajectory: { actions: string }[] };
    expect(value.trajectory.every((step) => /^\.*$/.test(step.actions))).toBe(true);
  });

  it('runs a program on the line protocol with --agent-command (the Python agent of docs/agents.md)', () => {
    const dir = freshDir();
    const agent = join(ROOT, 'test/fixtures/agents/greedy_agent.py');
    const args = ['episode', 'run', '--scenario', CORRIDOR, '--seed', '3', '--agent-command', `${TEST_PYTHON} ${agent}`, '--out', join(dir, 'py.json'), '--json'];
    const result = runCli(args);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(readdirSync(dir)).toEqual(['py.json']);
    const replay = runCli(['replay', 'verify', '--scenario', CORRIDOR, '--record', join(dir, 'py.json'), '--json']);
    expect(replay.status).toBe(0);
  });

  it('never resolves a module agent from the current directory', () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'local_agent.mjs'), readFileSync(join(AGENTS, 'cli_agents.mjs')));
    const result = runCli(
      ['episode', 'run', '--scenario', CORRIDOR, '--seed', '1', '--agent', 'local_agent:makeStay', '--out', 'r.json', '--json'],
      { cwd: dir },
    );
    expect(result.status).toBe(4);
    expect(jsonError(result.stderr)).toMatchObject({ kind: 'agent' });
    expect(readdirSync(dir)).toEqual(['local_agent.mjs']);
  });

  it('refuses an existing output without --force (exit 6) and replaces it with --force', () => {
    const dir = freshDir();
    const out = join(dir, 'record.json');
    writeFileSync(out, 'old');
    const refused = runCli(episodeArgs(out));
    expect(refused).toEqual({ status: 6, stdout: '', stderr: `emberbench: error: output file exists (use --force to replace it): ${out}\n` });
    expect(readFileSync(out, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['record.json']);
    const forced = runCli([...episodeArgs(out), '--force', '--json']);
    expect(forced.status).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(record.text);
    expect(readdirSync(dir)).toEqual(['record.json']);
  });

  it('output failures are exit 6 and leave nothing behind', () => {
    const dir = freshDir();
    mkdirSync(join(dir, 'sub'));
    const scenarioCopy = join(dir, 'scenario.json');
    const scenarioBytes = readFileSync(CORRIDOR, 'utf8');
    writeFileSync(scenarioCopy, scenarioBytes);
    // The agent's module is an input too.
    const agentCopy = join(dir, 'agent.mjs');
    const agentBytes = readFileSync(join(AGENTS, 'cli_agents.mjs'), 'utf8');
    writeFileSync(agentCopy, agentBytes);
    const cases: [string[], string][] = [
      [[...episodeArgs(join(dir, 'missing', 'r.json')), '--json'], `output directory does not exist: ${join(dir, 'missing')}`],
      [[...episodeArgs(join(dir, 'sub')), '--force', '--json'], `output is a directory: ${join(dir, 'sub')}`],
      [
        ['episode', 'run', '--scenario', scenarioCopy, '--seed', '1', '--agent', 'builtin:always-stay', '--out', scenarioCopy, '--force', '--json'],
        `output ${scenarioCopy} is the input file ${scenarioCopy}; inputs are never written`,
      ],
      [
        ['episode', 'run', '--scenario', CORRIDOR, '--seed', '1', '--agent', 'agent:makeStay', '--agent-path', dir, '--out', agentCopy, '--force', '--json'],
        `output ${agentCopy} is the input file ${agentCopy}; inputs are never written`,
      ],
    ];
    for (const [args, message] of cases) {
      const result = runCli(args);
      expect(result.status).toBe(6);
      expect(result.stdout).toBe('');
      expect(jsonError(result.stderr)).toEqual({ exit_code: 6, kind: 'output', message });
    }
    expect(readdirSync(dir).sort()).toEqual(['agent.mjs', 'scenario.json', 'sub']);
    expect(readdirSync(join(dir, 'sub'))).toEqual([]);
    expect(readFileSync(scenarioCopy, 'utf8')).toBe(scenarioBytes);
    expect(readFileSync(agentCopy, 'utf8')).toBe(agentBytes);
  });

  it('checks inputs before the output, and the output before any agent code is imported', () => {
    const dir = freshDir();
    const out = join(dir, 'record.json');
    writeFileSync(out, 'old');
    const missing = join(dir, 'missing.json');
    const badInput = runCli(['episode', 'run', '--scenario', missing, '--seed', '1', '--agent', 'builtin:always-stay', '--out', out, '--json']);
    expect(badInput.status).toBe(3);
    expect(jsonError(badInput.stderr)).toEqual({ exit_code: 3, kind: 'validation', message: `${missing}: scenario file does not exist` });
    const marker = join(dir, 'imported');
    // Unsandboxed, so the marker could be written if the agent were imported.
    const badOutput = runCli([...episodeArgs(out, 'cli_agents:makeHanging'), '--agent-env', 'EMBER_TEST_MARKER', '--json'], {
      env: { ...process.env, EMBER_TEST_MARKER: marker, EMBER_AGENT_SANDBOX: 'off' },
    });
    expect(badOutput.status).toBe(6);
    expect(existsSync(marker)).toBe(false);
    expect(readdirSync(dir)).toEqual(['record.json']);
  });

  it('agent failures are exit 4 with the agent message and leave nothing behind', () => {
    const dir = freshDir();
    const out = join(dir, 'record.json');
    const cases: [string, RegExp][] = [
      ['cli_agents:makeRaising', /boom from the agent/],
      ['cli_agents:makeEmpty', /^step 0: /],
      ['cli_agents:notCallable', /notCallable/],
      ['cli_agents:absent', /absent/],
      ['no_such_module:make', /no_such_module/],
    ];
    for (const [agent, message] of cases) {
      const json = runCli([...episodeArgs(out, agent), '--json']);
      expect(json.status, agent).toBe(4);
      expect(json.stdout).toBe('');
      const error = jsonError(json.stderr);
      expect(error.kind).toBe('agent');
      expect(error.exit_code).toBe(4);
      expect(error.message).toMatch(message);
      expect(readdirSync(dir)).toEqual([]);
    }
    const slow = runCli([...episodeArgs(out, 'cli_agents:makeHanging'), '--act-timeout-ms', '300', '--json'], {
      env: { ...process.env, EMBER_TEST_MARKER: join(scratch, `marker-${counter++}`) },
    });
    expect(slow.status).toBe(4);
    expect(jsonError(slow.stderr)).toEqual({ exit_code: 4, kind: 'agent', message: 'act took longer than 300 ms' });
    expect(readdirSync(dir)).toEqual([]);
    const human = runCli(episodeArgs(out, 'cli_agents:makeRaising'));
    expect(human.status).toBe(4);
    expect(human.stderr).toMatch(/^emberbench: error: .*boom from the agent.*\n$/);
    expect(human.stderr.split('\n')).toHaveLength(2);
  });

  it('--debug adds a stack trace; without it there is none', () => {
    const dir = freshDir();
    const plain = runCli(['scenario', 'validate', join(dir, 'none.json')]);
    expect(plain.status).toBe(3);
    expect(plain.stderr).not.toMatch(/\n\s+at /);
    const debug = runCli(['scenario', 'validate', join(dir, 'none.json'), '--debug']);
    expect(debug.status).toBe(3);
    expect(debug.stderr).toMatch(/^emberbench: error: .*does not exist\nValidationError: .*\n\s+at /);
  });

  it('Ctrl+C (SIGINT) exits 130, reports "interrupted" and leaves nothing behind', async () => {
    const dir = freshDir();
    const marker = join(scratch, `marker-${counter++}`);
    // Unsandboxed so the agent can write the marker (the interrupt path does not depend on the sandbox).
    const child = startCli([...episodeArgs(join(dir, 'record.json'), 'cli_agents:makeHanging'), '--agent-env', 'EMBER_TEST_MARKER', '--json'], {
      env: { ...process.env, EMBER_TEST_MARKER: marker, EMBER_AGENT_SANDBOX: 'off' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    // Wait until the agent is acting (no timed assertion: only polling for the marker).
    while (!existsSync(marker) && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(marker)).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stdout).toBe('');
    // The one warning that agents run without a sandbox, then the error line.
    expect(stderr).toMatch(/^emberbench: warning: agents run without a sandbox \(isolation: none\): EMBER_AGENT_SANDBOX=off\. .*\n\{"error":\{"exit_code":130,"kind":"interrupted","message":"interrupted"\}\}\n$/);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('replay verify', () => {
  function writeRecord(dir: string, text: string): string {
    const path = join(dir, 'record.json');
    writeFileSync(path, text);
    return path;
  }

  function canonical(value: unknown): string {
    const sort = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(sort) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])])) : v;
    return JSON.stringify(sort(value)) + '\n';
  }

  it('verifies a record and reports exactly the listed fields', () => {
    const dir = freshDir();
    const path = writeRecord(dir, record.text);
    const result = runCli(['replay', 'verify', '--scenario', CORRIDOR, '--record', path, '--json']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      command: 'replay verify',
      verified: true,
      scenario_id: 'cli-corridor',
      scenario_hash: CORRIDOR_HASH,
      record_digest: record.digest,
      simulator_version: '1.0',
      observation_version: '1.0',
      steps: record.report['steps'],
      termination_reason: record.report['termination_reason'],
    });
    // Inputs are never written.
    expect(readFileSync(path, 'utf8')).toBe(record.text);
    expect(readdirSync(dir)).toEqual(['record.json']);
  });

  it('a record that is not canonical, has unknown fields or is not JSON is exit 3', () => {
    const dir = freshDir();
    const value = JSON.parse(record.text) as Record<string, unknown>;
    const texts = [
      JSON.stringify(value, null, 2) + '\n',
      record.text.slice(0, -1),
      canonical({ ...value, extra: 1 }),
      '{"seed": "3", "seed": "3"}\n',
      'not json\n',
    ];
    for (const text of texts) {
      const path = writeRecord(dir, text);
      const result = runCli(['replay', 'verify', '--scenario', CORRIDOR, '--record', path, '--json']);
      expect(result.status, text.slice(0, 40)).toBe(3);
      expect(result.stdout).toBe('');
      expect(jsonError(result.stderr)).toMatchObject({ exit_code: 3, kind: 'validation' });
      expect(jsonError(result.stderr).message.startsWith(`${path}: `)).toBe(true);
    }
    const missing = runCli(['replay', 'verify', '--scenario', CORRIDOR, '--record', join(dir, 'none.json'), '--json']);
    expect(missing.status).toBe(3);
  });

  it('a tampered record, or a record of another scenario, is exit 5', () => {
    const dir = freshDir();
    const value = JSON.parse(record.text) as { outcomes: [string, number][]; seed: string; initial: { people: number[][] } };
    const tampered = structuredClone(value);
    tampered.outcomes[0]![1] += 1;
    const reseeded = { ...structuredClone(value), seed: '4' };
    for (const text of [canonical(tampered), canonical(reseeded)]) {
      const path = writeRecord(dir, text);
      const result = runCli(['replay', 'verify', '--scenario', CORRIDOR, '--record', path, '--json']);
      expect(result.status).toBe(5);
      expect(jsonError(result.stderr)).toMatchObject({ exit_code: 5, kind: 'mismatch' });
    }
    const path = writeRecord(dir, record.text);
    const other = runCli(['replay', 'verify', '--scenario', TWO_EXITS, '--record', path]);
    expect(other.status).toBe(5);
    expect(other.stderr).toMatch(/^emberbench: error: .*\n$/);
  });

  it('a replayable prefix that stops before termination is exit 3', () => {
    const dir = freshDir();
    const value = JSON.parse(record.text) as { trajectory: unknown[] };
    const prefix = { ...value, trajectory: value.trajectory.slice(0, -1) };
    const path = writeRecord(dir, canonical(prefix));
    const result = runCli(['replay', 'verify', '--scenario', CORRIDOR, '--record', path, '--json']);
    expect(result.status).toBe(3);
    expect(jsonError(result.stderr)).toMatchObject({ exit_code: 3, kind: 'validation' });
    expect(jsonError(result.stderr).message).toMatch(/before the episode terminates/);
  });
});

describe('scenario validate and suite validate', () => {
  it('suite validate reports the suite fields and the scenarios in manifest order', () => {
    const result = runCli(['suite', 'validate', SUITE, '--json']);
    expect(result.status).toBe(0);
    // Hashes computed with Python's json.dumps(sort_keys=True, separators=(",", ":")).
    expect(result.stdout).toBe(
      '{"command":"suite validate","scenario_count":2,"scenarios":[' +
        `{"scenario_hash":"${CORRIDOR_HASH}","scenario_id":"cli-corridor"},` +
        '{"scenario_hash":"5371efc8655fe9527c5da5cb1888d98bdbfed3574613c02f0d69d583ec4456e1","scenario_id":"cli-two-exits"}],' +
        '"schema_version":"1.0","seed_role":"development",' +
        '"suite_hash":"f103373f999c54a4e36a169a097f353afd1d22ce9dace6dab368c841bb64bf1d",' +
        '"suite_id":"cli-test-suite","suite_version":"1.0","visibility":"public"}\n',
    );
  });

  it('a suite with an unlisted file is exit 3', () => {
    const dir = freshDir();
    for (const name of readdirSync(SUITE)) writeFileSync(join(dir, name), readFileSync(join(SUITE, name)));
    writeFileSync(join(dir, 'stray.json'), '{}');
    const result = runCli(['suite', 'validate', dir, '--json']);
    expect(result.status).toBe(3);
    expect(jsonError(result.stderr).message).toBe(`${dir}/stray.json: unlisted file (a suite directory holds only manifest.json and the files it lists)`);
  });
});
