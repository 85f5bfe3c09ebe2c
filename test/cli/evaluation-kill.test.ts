// A crash or Ctrl+C in the middle of `evaluation run` leaves the journal
// (OUT.journal, one fsynced line per committed episode) up to its last whole
// entry, and --resume finishes it to the same bytes as an uninterrupted run.
// The agent sleeps 50 ms per act, so the command is still running when the
// first entry appears.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateResult } from '../../src/core/eval/authenticate.js';
import { EVAL_AGENTS, TINY_SUITE, tinySuite } from '../eval/kit.js';
import { jsonError, runCli, startCli } from './run-cli.js';

let scratch: string;
let counter = 0;
let manifestPath: string;
let uninterrupted: string;

function freshDir(): string {
  const dir = join(scratch, `case-${counter++}`);
  mkdirSync(dir);
  return dir;
}

function runArgs(out: string, ...extra: string[]): string[] {
  return [
    'evaluation', 'run', '--suite', TINY_SUITE, '--manifest', manifestPath, '--model-id', 'slow-greedy',
    '--agent', 'eval_agents:makeSlow', '--agent-path', EVAL_AGENTS, '--out', out, '--json', ...extra,
  ];
}

/** Whole entries in the journal of `out` (its lines after the header), or -1 while there is none. */
function committedEpisodes(out: string): number {
  const journal = `${out}.journal`;
  if (!existsSync(journal)) return -1;
  return readFileSync(journal, 'utf8').split('\n').length - 2;
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-cli-evaluation-kill-'));
  const dir = freshDir();
  manifestPath = join(dir, 'manifest.json');
  expect(runCli(['evaluation', 'manifest', '--suite', TINY_SUITE, '--seed', '1', '--seed', '7', '--out', manifestPath, '--json']).status).toBe(0);
  const out = join(dir, 'uninterrupted.json');
  const result = runCli(runArgs(out));
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  uninterrupted = readFileSync(out, 'utf8');
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('interrupted evaluation run', () => {
  it('kill -9 leaves the journal; without --resume it is refused; --resume completes it to the uninterrupted bytes', async () => {
    const dir = freshDir();
    const out = join(dir, 'result.json');
    const child = startCli(runArgs(out));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await waitFor(() => committedEpisodes(out) >= 1, 'the first journal entry');
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    // Killed in the middle, not after the end: only the journal, and the lock SIGKILL gave no chance to remove.
    expect(readdirSync(dir).sort()).toEqual(['result.json.journal', 'result.json.lock']);
    const again = runCli(runArgs(out));
    expect(again.status).toBe(6);
    expect(jsonError(again.stderr).message).toBe(`output file exists (use --resume to continue it, or choose another --out): ${out}.journal`);

    // The refused run took the dead holder's lock over and released it.
    expect(readdirSync(dir)).toEqual(['result.json.journal']);
    const resumed = runCli(runArgs(out, '--resume'));
    expect(resumed.stderr).toBe('');
    expect(resumed.status).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ complete: true, completed_episodes: 6 });
    expect(readFileSync(out, 'utf8')).toBe(uninterrupted);
    // The result and, written once the trial has finished, the module agent's operational record.
    expect(readdirSync(dir).sort()).toEqual(['result.json', 'result.operational.json']);
  });

  it('Ctrl+C (SIGINT) with --jobs 2 exits 130, leaves only the journal, and --resume completes it', async () => {
    const dir = freshDir();
    const out = join(dir, 'result.json');
    const child = startCli(runArgs(out, '--jobs', '2'));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await waitFor(() => committedEpisodes(out) >= 1, 'the first journal entry');
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(jsonError(stderr)).toEqual({ exit_code: 130, kind: 'interrupted', message: 'interrupted' });
    expect(readdirSync(dir)).toEqual(['result.json.journal']);

    const resumed = runCli(runArgs(out, '--resume', '--jobs', '2'));
    expect(resumed.status).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(uninterrupted);
  });

  it('an agent failure (exit 4) leaves the partial result, which authenticates, and no journal', () => {
    const dir = freshDir();
    const out = join(dir, 'result.json');
    const failed = runCli([...runArgs(out).map((a) => (a === 'eval_agents:makeSlow' ? 'eval_agents:makeThrowsOnTrap' : a))]);
    expect(failed.status).toBe(4);
    expect(readdirSync(dir)).toEqual(['result.json']);
    expect(authenticateResult(readFileSync(out, 'utf8'), out, tinySuite()).episodes.map((e) => e.index)).toEqual([0, 1]);
  });
});
