// A cluster in a test (the cluster stage, npm run test:cluster): a run folder
// as `shard plan` lays it out, N shard processes with seeded random SIGKILLs,
// duplicated shard processes made to overlap (the first is held while the
// second starts) that the output lock must refuse,
// and rounds of retries driven only by `evaluation status` (what the plan's
// run.sh and merge.sbatch do), then the merge status prints: byte-identical
// to the unsharded run, with every scheduled episode (0 losses). Prints the
// counts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSettingsText } from '../../src/node/eval/run-dir.js';
import { lockPath, parseLockText } from '../../src/node/output-lock.js';
import { CLI } from '../cli/one-writer-kit.js';
import { ROOT } from '../cli/run-cli.js';
import { seededRandom } from '../seeded-random.js';

const SHARDS = 5;
const MAX_ROUNDS = 12;
const AGENT = 'builtin:congestion-aware-v1';
const CONFIG = join(ROOT, 'test', 'cli', 'fixtures', 'generated-small.json');

let scratch: string;
let runDir: string;


function cli(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...CLI, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A printed command (`emberbench ...`, no quoting needed for these paths) as this test runs it. */
function argvOf(command: string): string[] {
  const words = command.split(' ');
  expect(words[0]).toBe('emberbench');
  return [...CLI, ...words.slice(1)];
}

interface Status {
  readonly unfinished: string;
  readonly merge_command: string | null;
  readonly shards: readonly { readonly shard: string; readonly state: string; readonly command: string | null }[];
}

function status(): Status {
  const r = cli(['evaluation', 'status', '--run-dir', runDir, '--json']);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as Status;
}

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

function exited(child: ChildProcess): Promise<Exit> {
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-cluster-'));
  runDir = join(scratch, 'run');
  mkdirSync(join(runDir, 'shards'), { recursive: true });
  // What the prepare step does: the settings, the frozen batch, the manifest.
  writeFileSync(join(runDir, 'run.json'), runSettingsText({ shards: SHARDS, generatedSuite: 'batch', manifest: 'manifest.json', modelId: 'cab', agent: AGENT, agentConfig: null, jobs: 1 }));
  expect(cli(['generated', 'create', '--config', CONFIG, '--batch-seed', '9', '--out', join(runDir, 'batch'), '--json']).status).toBe(0);
  expect(cli(['evaluation', 'manifest', '--generated-suite', join(runDir, 'batch'), '--seed', '0..4', '--out', join(runDir, 'manifest.json'), '--json']).status).toBe(0);
}, 300_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Counts {
  rounds: number;
  started: number;
  killed: number;
  duplicates: number;
  refused: number;
  finished: number;
}

function launch(command: string, counts: Counts): { child: ChildProcess; done: Promise<Exit> } {
  const child = spawn(process.execPath, argvOf(command), { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  counts.started += 1;
  return { child, done: exited(child) };
}

/** Counts how a shard process ended: killed, refused by the lock (exit 6), or finished (exit 0). */
function tally(r: Exit, counts: Counts): void {
  if (r.signal === 'SIGKILL') counts.killed += 1;
  else if (r.code === 6) {
    expect(r.stderr).toContain('is being written by another process');
    counts.refused += 1;
  } else {
    expect(r.code, r.stderr).toBe(0);
    counts.finished += 1;
  }
}

/** Kills the process at `killAfter` ms unless it ends first; resolves when it ends. */
async function endOf(run: { child: ChildProcess; done: Promise<Exit> }, killAfter: number | undefined, counts: Counts): Promise<void> {
  const kill = killAfter === undefined ? undefined : setTimeout(() => run.child.kill('SIGKILL'), killAfter);
  const r = await run.done;
  if (kill !== undefined) clearTimeout(kill);
  tally(r, counts);
}

function single(command: string, killAfter: number | undefined, counts: Counts): Promise<void> {
  return endOf(launch(command, counts), killAfter, counts);
}

/** The pid a shard's output lock names, when it names this process (a SIGKILLed earlier writer leaves a stale lock behind). */
function lockedBy(out: string, pid: number): boolean {
  try {
    return parseLockText(readFileSync(lockPath(out), 'utf8'))?.pid === pid;
  } catch {
    return false;
  }
}

/**
 * Two processes for one shard, overlapping for certain: once the first holds
 * the shard's lock it is stopped (SIGSTOP) while the second starts and must be
 * refused (exit 6); then the first goes on, or is killed there if its kill
 * was scheduled. Timing
 * decides nothing: a first copy that ends before it is seen holding the lock
 * (too fast to catch) is followed by the second, which resumes or finds the
 * shard done.
 */
async function duplicated(command: string, killAfter: number | undefined, counts: Counts): Promise<void> {
  const words = command.split(' ');
  const out = words[words.indexOf('--out') + 1]!;
  const first = launch(command, counts);
  let ended = false;
  void first.done.then(() => (ended = true));
  while (!ended && !lockedBy(out, first.child.pid!)) await new Promise((resolve) => setTimeout(resolve, 5));
  if (ended) {
    tally(await first.done, counts);
    return single(command, undefined, counts);
  }
  first.child.kill('SIGSTOP');
  try {
    const second = await launch(command, counts).done;
    expect(second.code, second.stderr).toBe(6);
    tally(second, counts);
  } finally {
    // A first copy scheduled to die is killed here, mid-run and holding its lock, for certain:
    // the next round must take over the stale lock it leaves.
    first.child.kill(killAfter === undefined ? 'SIGCONT' : 'SIGKILL');
  }
  return endOf(first, undefined, counts);
}

describe('a simulated cluster', () => {
  it('kills, duplicates and status-driven retries end in the unsharded bytes with 0 losses', async () => {
    const unsharded = join(scratch, 'unsharded.json');
    const reference = cli(['evaluation', 'run', '--generated-suite', join(runDir, 'batch'), '--manifest', join(runDir, 'manifest.json'), '--model-id', 'cab', '--agent', AGENT, '--out', unsharded, '--json']);
    expect(reference.status).toBe(0);

    const next = seededRandom(24);
    const counts: Counts = { rounds: 0, started: 0, killed: 0, duplicates: 0, refused: 0, finished: 0 };
    for (;;) {
      const now = status();
      if (now.unfinished === '') break;
      counts.rounds += 1;
      expect(counts.rounds, `still unfinished after ${MAX_ROUNDS} rounds: ${now.unfinished}`).toBeLessThanOrEqual(MAX_ROUNDS);
      const runs: Promise<void>[] = [];
      for (const shard of now.shards) {
        if (shard.state === 'done') continue;
        // Only partial or missing shards get a command; nothing holds a lock between rounds.
        expect(['partial', 'missing'], `${shard.shard}: ${shard.state}`).toContain(shard.state);
        const copies = next() < 0.4 ? 2 : 1;
        if (copies === 2) counts.duplicates += 1;
        const killAfter = next() < 0.6 / counts.rounds ? 300 + Math.floor(next() * 2500) : undefined;
        runs.push(copies === 2 ? duplicated(shard.command!, killAfter, counts) : single(shard.command!, killAfter, counts));
      }
      await Promise.all(runs);
    }

    const done = status();
    expect(done.shards.every((s) => s.state === 'done')).toBe(true);
    const merged = cli(argvOf(done.merge_command!).slice(CLI.length));
    expect(merged.stderr).toBe('');
    expect(merged.status).toBe(0);
    const report = JSON.parse(merged.stdout) as { complete: boolean; completed_episodes: number; scheduled_episodes: number; failed_episodes: number };
    const losses = report.scheduled_episodes - report.completed_episodes;
    expect(report).toMatchObject({ complete: true, failed_episodes: 0 });
    expect(losses).toBe(0);
    expect(readFileSync(join(runDir, 'result.json'))).toEqual(readFileSync(unsharded));
    console.log(`simulated cluster: ${SHARDS} shards, ${report.scheduled_episodes} episodes; ${counts.rounds} rounds, ${counts.started} processes started, ${counts.killed} killed, ${counts.duplicates} duplicated, ${counts.refused} refused by the lock, ${counts.finished} finished; merged byte-identical, ${losses} losses`);
    // The seeded schedule must exercise every failure it simulates.
    expect(counts.killed).toBeGreaterThan(0);
    expect(counts.refused).toBeGreaterThan(0);
  }, 900_000);
});
