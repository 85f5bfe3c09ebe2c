// Three trials of a language model on the public suite through the CLI, against a scripted endpoint on 127.0.0.1.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOperationalRecordText } from '../../src/core/scoring/operational.js';
import { ROOT, cliArgv } from '../cli/run-cli.js';
import { plannerConfig, plannerScript, startScriptedServer, type ScriptedServer } from './scripted-server.js';

const SUITE = join(ROOT, 'scenarios', 'public', 'v1');
const KEY = 'sk-cli-SECRET-fedcba9876543210';
const ENV = { ...process.env, EMBER_CLI_TEST_KEY: KEY };

let dir: string;
let server: ScriptedServer;
const outputs: string[] = [];

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

// Asynchronous: the scripted server answers from this process's event loop.
function cli(args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArgv(args), { cwd: ROOT, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => {
      outputs.push(stdout, stderr);
      resolve({ status, stdout, stderr });
    });
  });
}

function writeConfig(name: string, extra: Record<string, unknown> = {}): string {
  const path = join(dir, name);
  const config = plannerConfig(server.baseUrl, 'EMBER_CLI_TEST_KEY', extra);
  writeFileSync(path, JSON.stringify(config));
  return path;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ember-llm-cli-'));
  server = await startScriptedServer(plannerScript('X0'));
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('evaluation run --agent builtin:openai-chat', () => {
  it('runs three trials on the public suite, writes operational records and transcripts, and scores them', async () => {
    const manifest = join(dir, 'manifest.json');
    expect((await cli(['evaluation', 'manifest', '--suite', SUITE, '--seed', '0', '--out', manifest])).status).toBe(0);
    const config = writeConfig('llm.json');
    const out = join(dir, 'model.json');
    const run = await cli([
      'evaluation', 'run', '--suite', SUITE, '--manifest', manifest, '--model-id', 'scripted-planner',
      '--agent', 'builtin:openai-chat', '--agent-config', config, '--trials', '3', '--max-connections', '8', '--out', out, '--json',
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as { complete: boolean; trials: { result: string; operational_record: string; inference_config_digest: string }[] };
    expect(report.complete).toBe(true);
    expect(report.trials.map((t) => t.result)).toEqual([1, 2, 3].map((k) => join(dir, `model.t${k}.json`)));

    // Identical scripted answers give identical results.
    const texts = report.trials.map((t) => readFileSync(t.result, 'utf8'));
    expect(texts[1]).toBe(texts[0]);
    expect(texts[2]).toBe(texts[0]);

    const records = report.trials.map((t) => parseOperationalRecordText(readFileSync(t.operational_record, 'utf8'), t.operational_record));
    expect(report.trials[0]!.operational_record).toBe(join(dir, 'model.t1.operational.json'));
    for (const r of records) {
      expect(r).toMatchObject({ model_id: 'scripted-planner', provider_id: `127.0.0.1:${server.port}`, trials: 1, episodes: 10, retries: 0, timeouts: 0, cost_unit: 'USD' });
      expect(r.input_tokens).toBeGreaterThan(0);
      expect(r.inference_config_digest).toBe(records[0]!.inference_config_digest);
      expect(r.input_tokens).toBe(records[0]!.input_tokens);
    }
    // Transcripts: one per episode and trial, every prompt and answer.
    expect(readdirSync(join(dir, 'model.t2.transcripts')).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `episode-${i}.jsonl`).sort());

    const validate = await cli(['operational', 'validate', '--record', report.trials[0]!.operational_record, '--json']);
    expect(validate.status).toBe(0);

    const scoreArgs = ['score', '--suite', SUITE, '--resamples', '50', '--stochastic'];
    const three = await cli([...scoreArgs, ...report.trials.flatMap((t) => ['--result', t.result, '--operational', t.operational_record]), '--out', join(dir, 'score.json'), '--json']);
    expect(three.status).toBe(0);
    expect(three.stderr).toBe('');
    expect(JSON.parse(three.stdout)).toMatchObject({ trials: 3, model_id: 'scripted-planner' });

    const two = await cli([...scoreArgs, ...report.trials.slice(0, 2).flatMap((t) => ['--result', t.result, '--operational', t.operational_record]), '--out', join(dir, 'score2.json'), '--json']);
    expect(two.status).toBe(0);
    expect(two.stderr).toMatch(/warning: a stochastic model needs at least 3 trials/);

    // A trial of another inference configuration is refused.
    const other = join(dir, 'other.json');
    const otherRun = await cli([
      'evaluation', 'run', '--suite', SUITE, '--manifest', manifest, '--model-id', 'scripted-planner',
      '--agent', 'builtin:openai-chat', '--agent-config', writeConfig('other-llm.json', { temperature: '0.2' }), '--out', other, '--json',
    ]);
    expect(otherRun.status).toBe(0);
    const mixed = await cli([
      ...scoreArgs, '--result', report.trials[0]!.result, '--operational', report.trials[0]!.operational_record,
      '--result', other, '--operational', join(dir, 'other.operational.json'), '--out', join(dir, 'score3.json'), '--json',
    ]);
    expect(mixed.status).toBe(3);
    expect(mixed.stderr).toMatch(/must share one inference configuration/);
    expect(existsSync(join(dir, 'score3.json'))).toBe(false);
  }, 240_000);

  it('declares model failures with --continue-on-failure and refuses adapter options without the adapter', async () => {
    const failing = await startScriptedServer(() => ({ kind: 'status', status: 500 }));
    try {
      const manifest = join(dir, 'manifest-f.json');
      expect((await cli(['evaluation', 'manifest', '--suite', SUITE, '--seed', '0', '--out', manifest])).status).toBe(0);
      const config = writeConfig('failing.json', { base_url: failing.baseUrl, max_retries: 1 });
      const out = join(dir, 'failing.json.result.json');
      const run = await cli([
        'evaluation', 'run', '--suite', SUITE, '--manifest', manifest, '--model-id', 'm', '--agent', 'builtin:openai-chat',
        '--agent-config', config, '--continue-on-failure', '--out', out, '--json',
      ]);
      expect(run.status, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ completed_episodes: 0, failed_episodes: 10 });
      const record = parseOperationalRecordText(readFileSync(join(dir, 'failing.json.result.operational.json'), 'utf8'), 'x');
      expect(record).toMatchObject({ episodes: 10, retries: 10, input_tokens: 0, cost: '0/1' });
      const stop = await cli([
        'evaluation', 'run', '--suite', SUITE, '--manifest', manifest, '--model-id', 'm', '--agent', 'builtin:openai-chat',
        '--agent-config', config, '--out', join(dir, 'stop.json'), '--json',
      ]);
      expect(stop.status, stop.stderr).toBe(4);
      expect(stop.stderr).toMatch(/model_error|HTTP 500/);
    } finally {
      await failing.close();
    }
    const misuse = await cli(['episode', 'run', '--scenario', join(SUITE, 'v1-pub-01-single-exit-sparse.json'), '--seed', '1', '--agent', 'builtin:always-stay', '--agent-config', 'x.json', '--out', join(dir, 'r.json')]);
    expect(misuse.status).toBe(2);
    expect(misuse.stderr).toMatch(/--agent-config applies only to --agent builtin:openai-chat/);
  }, 120_000);

  it('gives the same result bytes in --jobs worker threads as in one thread', async () => {
    const manifest = join(dir, 'manifest-1.json');
    expect((await cli(['evaluation', 'manifest', '--suite', SUITE, '--seed', '1', '--out', manifest])).status).toBe(0);
    const config = writeConfig('jobs.json');
    const base = ['evaluation', 'run', '--suite', SUITE, '--manifest', manifest, '--model-id', 'm', '--agent', 'builtin:openai-chat', '--agent-config', config, '--json'];
    const one = await cli([...base, '--max-connections', '3', '--out', join(dir, 'one.json')]);
    const two = await cli([...base, '--jobs', '2', '--max-connections', '1', '--out', join(dir, 'two.json')]);
    expect(one.status).toBe(0);
    expect(two.status).toBe(0);
    expect(readFileSync(join(dir, 'two.json'), 'utf8')).toBe(readFileSync(join(dir, 'one.json'), 'utf8'));
    const a = parseOperationalRecordText(readFileSync(join(dir, 'one.operational.json'), 'utf8'), 'a');
    const b = parseOperationalRecordText(readFileSync(join(dir, 'two.operational.json'), 'utf8'), 'b');
    expect([b.input_tokens, b.output_tokens, b.cost]).toEqual([a.input_tokens, a.output_tokens, a.cost]);
  }, 120_000);

  it('never writes or prints the API key', () => {
    const offenders: string[] = [];
    const walk = (path: string): void => {
      if (statSync(path).isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
      else if (readFileSync(path, 'utf8').includes(KEY)) offenders.push(path);
    };
    walk(dir);
    expect(offenders).toEqual([]);
    expect(outputs.some((o) => o.includes(KEY))).toBe(false);
  });
});
