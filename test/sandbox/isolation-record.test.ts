// The isolation level where a score is read (docs/agents.md "Sandbox"):
// `evaluation run` of a module or command agent reports it and writes it to
// the trial's operational record (with the evaluator's wall time and a
// machine-independent configuration digest); `score --operational` prints
// it after the summary and in --json, and warns about a trial run without a
// sandbox. The `sandboxed` cases skip, with the reason in their name, where
// bubblewrap is not available; the `none` cases use EMBER_AGENT_SANDBOX=off.
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOperationalRecordText, type OperationalRecord } from '../../src/core/scoring/operational.js';
import { probeSandbox } from '../../src/node/agents/sandbox.js';
import { episodeCgroupParent } from '../../src/node/agents/sandbox-limits.js';
import { EVAL_AGENTS, TINY_SUITE } from '../eval/kit.js';
import { ROOT, jsonError, runCli, type CliResult } from '../cli/run-cli.js';

const probe = probeSandbox();
const sandboxed = probe.isolation === 'sandboxed';
const WITHOUT_SANDBOX = { ...process.env, EMBER_AGENT_SANDBOX: 'off' };
const GREEDY_PY = join(ROOT, 'test/fixtures/agents/greedy_agent.py');

let dir: string;
let manifest: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ember-isolation-'));
  manifest = join(dir, 'manifest.json');
  expect(runCli(['evaluation', 'manifest', '--suite', TINY_SUITE, '--seed', '1', '--out', manifest]).status).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runArgs(out: string, ...agent: string[]): string[] {
  return ['evaluation', 'run', '--suite', TINY_SUITE, '--manifest', manifest, '--model-id', 'iso-model', ...agent, '--out', out, '--json'];
}

function ok(result: CliResult): Record<string, unknown> {
  expect(result.stderr.split('\n').filter((l) => l.startsWith('{')).join('\n')).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

function recordOf(path: string): OperationalRecord {
  return parseOperationalRecordText(readFileSync(path, 'utf8'), path);
}

const MODULE = ['--agent', 'eval_agents:makeGreedy', '--agent-path', EVAL_AGENTS];

describe('the isolation level of a module or command agent run', () => {
  it.skipIf(!sandboxed)(`is sandboxed, reported and written to the operational record${sandboxed ? '' : ` (skipped: ${probe.reason})`}`, () => {
    const out = join(dir, 'sandboxed.json');
    const report = ok(runCli(runArgs(out, ...MODULE)));
    expect(report['isolation']).toBe('sandboxed');
    expect(report['trials']).toBeUndefined();
    const record = recordOf(join(dir, 'sandboxed.operational.json'));
    expect(record).toMatchObject({ isolation: 'sandboxed', provider_id: 'local', model_id: 'iso-model', trials: 1, episodes: 3, input_tokens: 0, output_tokens: 0, cost: null, cost_unit: null, retries: 0, timeouts: 0 });
    expect(Number(record.latency_seconds)).toBeGreaterThan(0);
    // Which mechanism held each cap: the kernel in a cgroup per episode where the evaluator may create one,
    // else the watchdog, with RLIMIT_NPROC in the sandbox's own user namespace for the process cap.
    const cgroup = episodeCgroupParent() !== undefined;
    expect(record.limit_mechanisms).toEqual(cgroup ? { cpu: 'cgroup_v2', memory: 'cgroup_v2', processes: 'cgroup_v2' } : { cpu: 'watchdog', memory: 'watchdog', processes: 'rlimit' });
  });

  it('is none without a sandbox: said once on stderr, reported and written; the result bytes do not depend on it', () => {
    const out = join(dir, 'none.json');
    const result = runCli(runArgs(out, ...MODULE), { env: WITHOUT_SANDBOX });
    expect(result.status).toBe(0);
    expect(result.stderr.match(/isolation: none/g)).toHaveLength(1);
    expect((JSON.parse(result.stdout) as Record<string, unknown>)['isolation']).toBe('none');
    const record = recordOf(join(dir, 'none.operational.json'));
    expect(record.isolation).toBe('none');
    expect(record.limit_mechanisms?.processes).toBe(episodeCgroupParent() !== undefined ? 'cgroup_v2' : 'watchdog');
    // The same agent configuration whatever the isolation: one inference configuration digest.
    const other = join(dir, 'none-again.json');
    ok(runCli([...runArgs(other, ...MODULE), '--operational-out', join(dir, 'chosen.operational.json')], { env: { ...WITHOUT_SANDBOX } }));
    expect(recordOf(join(dir, 'chosen.operational.json')).inference_config_digest).toBe(record.inference_config_digest);
    expect(existsSync(join(dir, 'none-again.operational.json'))).toBe(false);
    expect(readFileSync(other, 'utf8')).toBe(readFileSync(out, 'utf8'));
  });

  it('gives a command agent the same configuration digest from any folder (no absolute path in it)', () => {
    const a = mkdtempSync(join(dir, 'copy-a-'));
    const b = mkdtempSync(join(dir, 'copy-b-'));
    cpSync(GREEDY_PY, join(a, 'greedy_agent.py'));
    cpSync(GREEDY_PY, join(b, 'greedy_agent.py'));
    const ra = ok(runCli(runArgs(join(a, 'r.json'), '--agent-command', `python3 ${join(a, 'greedy_agent.py')}`), { env: WITHOUT_SANDBOX }));
    const rb = ok(runCli(runArgs(join(b, 'r.json'), '--agent-command', `python3 ${join(b, 'greedy_agent.py')}`), { env: WITHOUT_SANDBOX }));
    expect([ra['isolation'], rb['isolation']]).toEqual(['none', 'none']);
    const [x, y] = [recordOf(join(a, 'r.operational.json')), recordOf(join(b, 'r.operational.json'))];
    expect(x.inference_config_digest).toBe(y.inference_config_digest);
    expect(x.inference_config_digest).not.toBe(recordOf(join(dir, 'none.operational.json')).inference_config_digest);
    expect(readdirSync(a).sort()).toEqual(['greedy_agent.py', 'r.json', 'r.operational.json']);
  });

  it('writes no record for a builtin, and refuses --operational-out for one (exit 2)', () => {
    const out = join(dir, 'builtin.json');
    const report = ok(runCli(runArgs(out, '--agent', 'builtin:always-stay')));
    expect(report['isolation']).toBeUndefined();
    expect(existsSync(join(dir, 'builtin.operational.json'))).toBe(false);
    const refused = runCli([...runArgs(join(dir, 'builtin2.json'), '--agent', 'builtin:always-stay'), '--operational-out', join(dir, 'x.json')]);
    expect(refused.status).toBe(2);
    expect(jsonError(refused.stderr).message).toContain('--operational-out applies only to');
  });
});

describe('score --operational shows the isolation level', () => {
  const scoreArgs = (out: string, ...rest: string[]): string[] => ['score', '--suite', TINY_SUITE, '--resamples', '20', ...rest, '--out', join(dir, out)];

  it('after the summary and in --json, with a warning for a trial without a sandbox; nothing without records', () => {
    const none = join(dir, 'none.json');
    const noneRecord = join(dir, 'none.operational.json');
    const human = runCli(scoreArgs('s1.json', '--result', none, '--operational', noneRecord));
    expect(human.status).toBe(0);
    expect(human.stdout).toContain('The EMBER Score is not a percentage of people evacuated.\nAgent isolation: none (trial 1)\nWARNING: every trial ran without a sandbox (isolation none)');
    const json = ok(runCli([...scoreArgs('s2.json', '--result', none, '--operational', noneRecord), '--json']));
    expect(json).toMatchObject({ isolation: 'none', trial_isolation: ['none'] });

    // Without records: the summary and the report fields as before, and the same report bytes.
    const plain = runCli(scoreArgs('s3.json', '--result', none));
    expect(plain.stdout).not.toContain('Agent isolation');
    expect(plain.stdout).toBe(human.stdout.slice(0, human.stdout.indexOf('Agent isolation:')));
    const plainJson = ok(runCli([...scoreArgs('s4.json', '--result', none), '--json']));
    expect(plainJson['isolation']).toBeUndefined();
    expect(plainJson['trial_isolation']).toBeUndefined();
    expect(readFileSync(join(dir, 's3.json'), 'utf8')).toBe(readFileSync(join(dir, 's1.json'), 'utf8'));
  });

  it.skipIf(!sandboxed)(`names each trial's level when they differ${sandboxed ? '' : ` (skipped: ${probe.reason})`}`, () => {
    const json = ok(
      runCli([
        ...scoreArgs('s5.json', '--result', join(dir, 'sandboxed.json'), '--operational', join(dir, 'sandboxed.operational.json'), '--result', join(dir, 'none.json'), '--operational', join(dir, 'none.operational.json')),
        '--json',
      ]),
    );
    expect(json).toMatchObject({ isolation: 'mixed', trial_isolation: ['sandboxed', 'none'], trials: 2 });
    const human = runCli(scoreArgs('s6.json', '--result', join(dir, 'sandboxed.json'), '--operational', join(dir, 'sandboxed.operational.json'), '--result', join(dir, 'none.json'), '--operational', join(dir, 'none.operational.json')));
    expect(human.stdout).toContain('Agent isolation: sandboxed (trial 1), none (trial 2)\nWARNING: trial 2 ran without a sandbox');
  });
});

describe('archive import --operational', () => {
  it('stores the record with the trial, whose level `archive list --json` shows; one record per result', () => {
    const archive = join(dir, 'archive.sqlite');
    const mismatched = runCli(['archive', 'import', join(dir, 'none.json'), '--operational', join(dir, 'none.operational.json'), '--operational', join(dir, 'chosen.operational.json'), '--archive', archive, '--json']);
    expect(mismatched.status).toBe(2);
    expect(jsonError(mismatched.stderr).message).toContain('--operational: give none or exactly one per FILE');
    expect(existsSync(archive)).toBe(false);
    ok(runCli(['archive', 'import', join(dir, 'none.json'), '--operational', join(dir, 'none.operational.json'), '--suite', TINY_SUITE, '--archive', archive, '--json']));
    const list = ok(runCli(['archive', 'list', '--archive', archive, '--json'])) as { trials: { isolation: string | null }[] };
    expect(list.trials.map((t) => t.isolation)).toEqual(['none']);
  });
});

