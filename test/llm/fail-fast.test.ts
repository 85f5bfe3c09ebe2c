// A wrong key (401, 403) or a dead endpoint (a closed port) stops `evaluation run` at the first episode with one
// message that says what happened and what to check, even with --continue-on-failure and several trials.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, cliArgv } from '../cli/run-cli.js';
import { plannerConfig, plannerScript, startScriptedServer } from './scripted-server.js';
import { SMALL_SUITE } from './small-suite.js';
import { parseOperationalRecordText } from '../../src/core/scoring/operational.js';
import { readFileSync } from 'node:fs';

const SUITE = SMALL_SUITE;
const KEY = 'sk-failfast-SECRET-0123456789';
const ENV = { ...process.env, EMBER_FAILFAST_KEY: KEY };

let dir: string;
let manifest: string;

function cli(args: readonly string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArgv(args), { cwd: ROOT, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** A port nothing listens on: bound, then closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function runAgainst(baseUrl: string, name: string): Promise<{ status: number | null; stdout: string; stderr: string; out: string }> {
  const config = join(dir, `${name}.llm.json`);
  writeFileSync(config, JSON.stringify(plannerConfig(baseUrl, 'EMBER_FAILFAST_KEY', { max_retries: 2, retry_base_ms: 5 })));
  const out = join(dir, `${name}.json`);
  const run = await cli([
    'evaluation', 'run', '--suite', SUITE, '--manifest', manifest, '--model-id', 'm', '--agent', 'builtin:openai-chat',
    '--agent-config', config, '--continue-on-failure', '--trials', '2', '--max-connections', '1', '--out', out, '--json',
  ]);
  return { ...run, out };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ember-llm-failfast-'));
  manifest = join(dir, 'manifest.json');
  expect((await cli(['evaluation', 'manifest', '--suite', SUITE, '--seed', '0', '--out', manifest])).status).toBe(0);
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('evaluation run stops at a refused key or a dead endpoint', () => {
  for (const status of [401, 403]) {
    it(`HTTP ${status}: exit 4 after one call, one line naming the key's variable, nothing declared, no second trial`, async () => {
      const server = await startScriptedServer(() => ({ kind: 'status', status, body: `{"error":{"message":"invalid key ${KEY}"}}` }));
      try {
        const run = await runAgainst(server.baseUrl, `wrong-key-${status}`);
        expect(run.status, run.stderr).toBe(4);
        expect(run.stdout).toBe('');
        const lines = run.stderr.trim().split('\n');
        expect(lines).toHaveLength(1);
        const error = (JSON.parse(lines[0]!) as { error: { exit_code: number; kind: string; message: string } }).error;
        expect(error).toMatchObject({ exit_code: 4, kind: 'agent' });
        expect(error.message).toContain(`HTTP ${status}`);
        expect(error.message).toContain('the endpoint refused the API key: check the key in the environment variable EMBER_FAILFAST_KEY');
        expect(error.message).not.toContain(KEY);
        // One episode, one call (a 401/403 is never retried), then the run stopped.
        expect(server.requests).toHaveLength(1);
        // Nothing was committed (no episode, no declared failure), so no checkpoint; the second trial never started.
        expect(existsSync(run.out.replace(/\.json$/, '.t1.json'))).toBe(false);
        expect(existsSync(run.out.replace(/\.json$/, '.t2.json'))).toBe(false);
      } finally {
        await server.close();
      }
    }, 120_000);
  }

  it('a closed port: exit 4 after the retry policy, one line telling to check base_url', async () => {
    const port = await closedPort();
    const run = await runAgainst(`http://127.0.0.1:${port}/v1`, 'dead');
    expect(run.status, run.stderr).toBe(4);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    const error = (JSON.parse(lines[0]!) as { error: { kind: string; message: string } }).error;
    expect(error.kind).toBe('agent');
    expect(error.message).toContain('failed after 3 attempt(s): connection failed (ECONNREFUSED)');
    expect(error.message).toContain(`no server answers at http://127.0.0.1:${port}/v1: check base_url`);
    expect(existsSync(run.out.replace(/\.json$/, '.t2.json'))).toBe(false);
  }, 120_000);
});

describe('evaluation run --trials K: progress on stderr', () => {
  it('each episode line says trial k of K, what this trial and the whole run spent; the last run total is the records\' sum', async () => {
    const server = await startScriptedServer(plannerScript('X0'));
    try {
      const config = join(dir, 'progress.llm.json');
      writeFileSync(config, JSON.stringify(plannerConfig(server.baseUrl, 'EMBER_FAILFAST_KEY')));
      const out = join(dir, 'progress.json');
      const run = await cli(['evaluation', 'run', '--suite', SUITE, '--manifest', manifest, '--model-id', 'm', '--agent', 'builtin:openai-chat', '--agent-config', config, '--trials', '2', '--out', out]);
      expect(run.status, run.stderr).toBe(0);
      const lines = run.stderr.split('\n').filter((l) => l.includes('episode '));
      expect(lines).toHaveLength(6);
      expect(lines[0]).toMatch(/^trial 1 of 2: episode 1\/3 done .*; this trial: \d+ calls, \d+ input \+ \d+ output tokens, cost [0-9.]+ USD; run total: /);
      expect(lines[5]).toMatch(/^trial 2 of 2: episode 3\/3 /);
      const records = [1, 2].map((k) => parseOperationalRecordText(readFileSync(join(dir, `progress.t${k}.operational.json`), 'utf8'), `t${k}`));
      const input = records[0]!.input_tokens + records[1]!.input_tokens;
      const output = records[0]!.output_tokens + records[1]!.output_tokens;
      expect(lines[5]).toContain(`run total: ${server.requests.length} calls, ${input} input + ${output} output tokens`);
      expect(lines[5]).toContain(`this trial: `);
      expect(run.stderr).toContain('trial 2 of 2\n');
    } finally {
      await server.close();
    }
  }, 120_000);
});
