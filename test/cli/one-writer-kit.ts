// One writer per output, as processes (issue 24): the pieces of the tests in
// test/cli/one-writer.test.ts (a few rounds and SIGTERM as PID 1) and
// test/cluster/one-writer-rounds.test.ts (20 rounds, the cluster stage).
//
// The CLI runs as run-cli.ts chooses (the build under `npm test`). The slow agent (50 ms
// per act) keeps a run alive long enough for the second resume to meet the
// first; it runs unsandboxed (EMBER_AGENT_SANDBOX=off) so that the test does
// not depend on bubblewrap.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { EVAL_AGENTS, TINY_SUITE } from '../eval/kit.js';
import { cliArgv, ROOT } from './run-cli.js';

export const CLI: readonly string[] = cliArgv([]);
const ENV = { ...process.env, EMBER_AGENT_SANDBOX: 'off' };
let scratch: string;
let manifest: string;
let uninterrupted: Buffer;

export function runArgs(out: string, ...extra: string[]): string[] {
  return [
    ...CLI, 'evaluation', 'run', '--suite', TINY_SUITE, '--manifest', manifest, '--model-id', 'slow-greedy',
    '--agent', 'eval_agents:makeSlow', '--agent-path', EVAL_AGENTS, '--out', out, '--json', ...extra,
  ];
}

export function start(argv: readonly string[], command = process.execPath): ChildProcess {
  return spawn(command, argv, { cwd: ROOT, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
}

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function finished(child: ChildProcess): Promise<Exit> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Whole entries in the journal of `out` (lines after the header), or -1 while there is none. */
export function committed(out: string): number {
  const journal = `${out}.journal`;
  if (!existsSync(journal)) return -1;
  return readFileSync(journal, 'utf8').split('\n').length - 2;
}

export async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The JSON error of a failed --json run (the lines that are not the no-sandbox warning). */
export function errorOf(stderr: string): { exit_code: number; message: string } {
  const line = stderr.split('\n').find((l) => l.startsWith('{'));
  return (JSON.parse(line!) as { error: { exit_code: number; message: string } }).error;
}

/** The scratch folder, the manifest and the uninterrupted run every round compares with (beforeAll). */
export async function setUpWriters(): Promise<{ readonly scratch: string; readonly uninterrupted: Buffer }> {
  scratch = mkdtempSync(join(tmpdir(), 'ember-one-writer-'));
  manifest = join(scratch, 'manifest.json');
  const made = spawnSync(process.execPath, [...CLI, 'evaluation', 'manifest', '--suite', TINY_SUITE, '--seed', '1', '--seed', '7', '--out', manifest, '--json'], { cwd: ROOT, encoding: 'utf8' });
  expect(made.status).toBe(0);
  const out = join(scratch, 'uninterrupted.json');
  const run = await finished(start(runArgs(out)));
  expect(run.code).toBe(0);
  uninterrupted = readFileSync(out);
  return { scratch, uninterrupted };
}

export function tearDownWriters(): void {
  rmSync(scratch, { recursive: true, force: true });
}

/** One round: run, SIGKILL after `kill_after` entries, two resumes at once. */
export async function round(k: number): Promise<void> {
  const dir = join(scratch, `round-${k}`);
  mkdirSync(dir);
  const out = join(dir, 'shard.json');
  const first = start(runArgs(out));
  const firstExit = finished(first);
  // 1 or 2 of the 6 episodes (a fixed pattern, not a clock): the resumes then have at least 4 slow episodes to run.
  const killAfter = 1 + (k % 2);
  await waitFor(() => committed(out) >= killAfter, `round ${k}: ${killAfter} journal entries`);
  first.kill('SIGKILL');
  expect((await firstExit).signal).toBe('SIGKILL');

  const [a, b] = await Promise.all([finished(start(runArgs(out, '--resume'))), finished(start(runArgs(out, '--resume')))]);
  const codes = [a.code, b.code].sort();
  expect(codes, `round ${k}: ${a.stderr} / ${b.stderr}`).toEqual([0, 6]);
  const refused = a.code === 6 ? a : b;
  const winner = a.code === 0 ? a : b;
  expect(refused.stdout).toBe('');
  expect(errorOf(refused.stderr).message).toMatch(new RegExp(`^output ${out.replaceAll('.', '\\.')} is being written by another process \\(pid \\d+ on host .+, started .+\\); only one process writes an output`));
  expect(JSON.parse(winner.stdout)).toMatchObject({ complete: true, completed_episodes: 6 });
  expect(readFileSync(out)).toEqual(uninterrupted);
  // No journal, no lock, no temporary file: the result and the agent's operational record.
  expect(readdirSync(dir).sort()).toEqual(['shard.json', 'shard.operational.json']);
}

