/**
 * `npm run bench -- big-result` (issue 12): an evaluation result of more than
 * 1 GB written, resumed after kill -9, verified, scored and bundled, each step as its own
 * `emberbench` process whose peak resident memory is read from the kernel
 * (/proc/PID/status VmHWM, sampled until it exits).
 *
 * The suite is generated (the large_hall_crowd family of
 * scenarios/generated/stress.json) with many people and a long horizon;
 * builtin:always-stay keeps everyone in place, so every episode runs its
 * whole horizon and its record is about people x steps bytes. Slow (many
 * minutes): it is never part of `npm test`. Scale with EMBER_BIG_PEOPLE,
 * EMBER_BIG_STEPS, EMBER_BIG_SCENARIOS, EMBER_BIG_SEEDS (defaults: a result
 * of about 1.2 GB). Verify runs twice: as is, and with a V8 heap capped at
 * 256 MiB, which only a reader bounded by the largest episode gets through;
 * `score`, `bundle create` and `bundle verify` then run with the same cap.
 */

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Figure } from './harness.js';
import { writeStressHallSuite } from './stress-hall-suite.js';

const ROOT = join(import.meta.dirname, '..');
const CLI = ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts')];
const MiB = 2 ** 20;

function numberFromEnv(name: string, fallback: number): number {
  const value = process.env[name];
  return value === undefined ? fallback : Number.parseInt(value, 10);
}

interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly seconds: number;
  readonly peakMiB: number;
  readonly stderr: string;
}

function peakKiB(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? 0 : Number(match[1]);
  } catch {
    return 0;
  }
}

/** Runs the CLI; `killWhen` (checked every 200 ms) sends SIGKILL. */
function cli(args: readonly string[], killWhen?: () => boolean, nodeArgs: readonly string[] = []): Promise<Run> {
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, ...CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4000)));
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, peakKiB(child.pid!));
    if (killWhen?.() === true) child.kill('SIGKILL');
  }, 200);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      clearInterval(timer);
      resolve({ code, signal, seconds: (performance.now() - started) / 1000, peakMiB: peak / 1024, stderr });
    });
  });
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function expectExit(name: string, run: Run, code: number): void {
  if (run.code !== code) throw new Error(`${name}: exit ${run.code ?? run.signal}, expected ${code}: ${run.stderr}`);
}

export async function benchBigResult(): Promise<Figure[]> {
  const people = numberFromEnv('EMBER_BIG_PEOPLE', 2500);
  const steps = numberFromEnv('EMBER_BIG_STEPS', 2000);
  const scenarios = numberFromEnv('EMBER_BIG_SCENARIOS', 66);
  const seeds = numberFromEnv('EMBER_BIG_SEEDS', 2);
  const dir = mkdtempSync(join(tmpdir(), 'ember-big-result-'));
  try {
    const suiteDir = join(dir, 'suite');
    writeStressHallSuite(suiteDir, 'bench-big-result', { people, steps, scenarios });
    const manifest = join(dir, 'manifest.json');
    const out = join(dir, 'result.json');
    const journal = `${out}.journal`;
    expectExit('manifest', await cli(['evaluation', 'manifest', '--suite', suiteDir, '--seed', `0..${seeds - 1}`, '--out', manifest]), 0);
    const runArgs = ['evaluation', 'run', '--suite', suiteDir, '--manifest', manifest, '--model-id', 'big', '--agent', 'builtin:always-stay', '--jobs', '2', '--out', out];

    // Killed once the journal holds about half the result (a record takes about 2 bytes per person and step).
    const expected = 2 * people * steps * scenarios * seeds;
    const killed = await cli(runArgs, () => sizeOf(journal) > expected / 2);
    if (killed.signal !== 'SIGKILL') throw new Error(`the run was not killed: exit ${killed.code}: ${killed.stderr}`);
    // The resume runs with its V8 heap capped: it finishes only if it holds no more than one episode at a time.
    const resumed = await cli([...runArgs, '--resume'], undefined, ['--max-old-space-size=512']);
    expectExit('resume', resumed, 0);
    const bytes = sizeOf(out);
    const verified = await cli(['evaluation', 'verify', '--suite', suiteDir, '--result', out, '--manifest', manifest, '--require-complete', '--json']);
    expectExit('verify', verified, 0);
    const verifyArgs = ['evaluation', 'verify', '--suite', suiteDir, '--result', out, '--json'];
    const capped = await cli(verifyArgs, undefined, ['--max-old-space-size=256']);
    expectExit('verify with a 256 MiB heap', capped, 0);
    // Scoring streams a result this large too, each episode evaluated and its record dropped: the same 256 MiB heap suffices.
    const scoreArgs = ['score', '--suite', suiteDir, '--result', out, '--resamples', '100', '--out', join(dir, 'score.json'), '--json'];
    const scored = await cli(scoreArgs, undefined, ['--max-old-space-size=256']);
    expectExit('score with a 256 MiB heap', scored, 0);
    // An official bundle of it (the result streamed, scored, measured and copied), then verified: the same heap cap.
    const packDir = join(dir, 'pack');
    expectExit('pack build', await cli(['pack', 'build', '--suite', suiteDir, '--manifest', manifest, '--out', packDir]), 0);
    const bundleDir = join(dir, 'bundle');
    const bundled = await cli(['bundle', 'create', '--pack', packDir, '--result', out, '--resamples', '100', '--out', bundleDir, '--json'], undefined, ['--max-old-space-size=256']);
    expectExit('bundle create with a 256 MiB heap', bundled, 0);
    const bundleVerified = await cli(['bundle', 'verify', bundleDir, '--json'], undefined, ['--max-old-space-size=256']);
    expectExit('bundle verify with a 256 MiB heap', bundleVerified, 0);
    const note = `${scenarios * seeds} episodes of ${people} people x ${steps} steps`;
    return [
      { name: `result size (${note})`, value: bytes / MiB, unit: 'MiB' },
      { name: 'run until kill -9 (wall)', value: killed.seconds, unit: 's' },
      { name: 'run until kill -9: peak resident memory', value: killed.peakMiB, unit: 'MiB' },
      { name: 'resume to the end, V8 heap capped at 512 MiB (wall)', value: resumed.seconds, unit: 's' },
      { name: 'resume, V8 heap capped at 512 MiB: peak resident memory', value: resumed.peakMiB, unit: 'MiB' },
      { name: 'evaluation verify (wall)', value: verified.seconds, unit: 's' },
      { name: 'evaluation verify: peak resident memory', value: verified.peakMiB, unit: 'MiB' },
      { name: 'evaluation verify, V8 heap capped at 256 MiB (wall)', value: capped.seconds, unit: 's' },
      { name: 'evaluation verify, V8 heap capped at 256 MiB: peak resident memory', value: capped.peakMiB, unit: 'MiB' },
      { name: 'score, V8 heap capped at 256 MiB (wall)', value: scored.seconds, unit: 's' },
      { name: 'score, V8 heap capped at 256 MiB: peak resident memory', value: scored.peakMiB, unit: 'MiB' },
      { name: 'bundle create, V8 heap capped at 256 MiB (wall)', value: bundled.seconds, unit: 's' },
      { name: 'bundle create, V8 heap capped at 256 MiB: peak resident memory', value: bundled.peakMiB, unit: 'MiB' },
      { name: 'bundle verify, V8 heap capped at 256 MiB (wall)', value: bundleVerified.seconds, unit: 's' },
      { name: 'bundle verify, V8 heap capped at 256 MiB: peak resident memory', value: bundleVerified.peakMiB, unit: 'MiB' },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
