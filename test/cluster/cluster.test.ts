// A cluster in a test (the cluster stage, npm run test:cluster): a run folder
// as `shard plan` lays it out, N shard processes with seeded random SIGKILLs,
// duplicated (overlapping) shard processes that the output lock must refuse,
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

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
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

describe('a simulated cluster', () => {
  it('kills, duplicates and status-driven retries end in the unsharded bytes with 0 losses', async () => {
    const unsharded = join(scratch, 'unsharded.json');
    const reference = cli(['evaluation', 'run', '--generated-suite', join(runDir, 'batch'), '--manifest', join(runDir, 'manifest.json'), '--model-id', 'cab', '--agent', AGENT, '--out', unsharded, '--json']);
    expect(reference.status).toBe(0);

    const next = seededRandom(24);
    const counts = { rounds: 0, started: 0, killed: 0, duplicates: 0, refused: 0, finished: 0 };
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
        for (let c = 0; c < copies; c++) {
          const child = spawn(process.execPath, argvOf(shard.command!), { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
          counts.started += 1;
          const done = exited(child);
          // Most processes of the early rounds are killed at a random moment; later rounds are left alone more often.
          const kill = next() < 0.6 / counts.rounds ? setTimeout(() => child.kill('SIGKILL'), 300 + Math.floor(next() * 2500)) : undefined;
          runs.push(
            done.then((r) => {
              if (kill !== undefined) clearTimeout(kill);
              if (r.signal === 'SIGKILL') counts.killed += 1;
              else if (r.code === 6) {
                expect(r.stderr).toContain('is being written by another process');
                counts.refused += 1;
              } else {
                expect(r.code, r.stderr).toBe(0);
                counts.finished += 1;
              }
            }),
          );
        }
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
