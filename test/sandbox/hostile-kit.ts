// Shared by the hostile-agent suites (hostile.test.ts, hostile-host.test.ts):
// a folder with the hostile fixtures, a scenario, a manifest and a file
// beside the agent folder, all reachable by the sandbox's uid (65534 under a
// root evaluator), and a way to run the CLI without blocking the event loop.
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { CORRIDOR, cliArgv, ROOT, type CliResult } from '../cli/run-cli.js';
import { spawn } from 'node:child_process';

export const FIXTURE = join(import.meta.dirname, 'fixtures', 'hostile');

export { TEST_PYTHON as PYTHON } from '../kits/agent-kit.js';
import { TEST_PYTHON as PYTHON } from '../kits/agent-kit.js';

export interface HostileRoot {
  readonly root: string;
  readonly agent: string;
  readonly work: string;
  readonly scenario: string;
  readonly manifest: string;
  readonly beside: string;
  remove(): void;
}

/** A fresh folder: agent/ (the fixtures), work/ (scenario and manifest), beside.txt; searchable by others. */
export function hostileRoot(): HostileRoot {
  const root = mkdtempSync(join(tmpdir(), 'ember-hostile-'));
  chmodSync(root, 0o755);
  mkdirSync(join(root, 'agent'));
  for (const file of ['hostile.mjs', 'hostile.py']) copyFileSync(join(FIXTURE, file), join(root, 'agent', file));
  mkdirSync(join(root, 'work'));
  copyFileSync(CORRIDOR, join(root, 'work', 'scenario.json'));
  writeFileSync(join(root, 'work', 'manifest.json'), '{"seeds": ["123456789"]}\n');
  writeFileSync(join(root, 'beside.txt'), 'a secret beside the agent folder\n');
  const scenario = join(root, 'work', 'scenario.json');
  return { root, agent: join(root, 'agent'), work: join(root, 'work'), scenario, manifest: join(root, 'work', 'manifest.json'), beside: join(root, 'beside.txt'), remove: () => rmSync(root, { recursive: true, force: true }) };
}

export interface RunOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** A file the shell that starts the CLI holds open on descriptor 240, without close-on-exec. */
  readonly fd240?: string;
  /** Called with the CLI's pid once it runs. */
  readonly started?: (pid: number) => void;
}

/** Runs the CLI without blocking the event loop (a listener must be able to accept meanwhile). */
export function run(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  const env = { ...process.env, ...options.env };
  const argv = cliArgv(args);
  const child =
    options.fd240 === undefined
      ? spawn(process.execPath, argv, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('/bin/bash', ['-c', 'exec 240<"$0"; exec "$@"', options.fd240, process.execPath, ...argv], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid !== undefined) options.started?.(child.pid);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

let counter = 0;

/** `episode run` of the hostile root's scenario, into a fresh record file. */
export function episode(root: HostileRoot, agent: readonly string[], extra: readonly string[] = []): string[] {
  return ['episode', 'run', '--scenario', root.scenario, '--seed', '5', ...agent, '--out', join(root.work, `record-${counter++}.json`), '--json', ...extra];
}

export const MODULE = (root: HostileRoot, name: string): string[] => ['--agent', `hostile:${name}`, '--agent-path', root.agent];
export const COMMAND = (root: HostileRoot, mode: string): string[] => ['--agent-command', `${PYTHON} ${join(root.agent, 'hostile.py')} ${mode}`];

/** The JSON report a hostile agent put in its error message (exit 4). */
export function reportOf(result: CliResult): Record<string, unknown> {
  expect(result.status, result.stderr).toBe(4);
  const message = (JSON.parse(result.stderr.trim()) as { error: { message: string } }).error.message;
  const match = /REPORT (\{.*?\})/.exec(message);
  expect(match, message).not.toBeNull();
  return JSON.parse(match![1]!) as Record<string, unknown>;
}

/** The episode's error message (exit 4). */
export function agentMessage(result: CliResult): string {
  expect(result.status, result.stderr).toBe(4);
  return (JSON.parse(result.stderr.trim()) as { error: { message: string } }).error.message;
}

/** PIDs of live processes whose command line is `sleep MARKER`. */
export function sleepers(marker: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (argv[0]?.endsWith('sleep') && argv[1] === marker) out.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

let markers = 0;
export const marker = (): string => String(900_000 + (process.pid % 50_000) + markers++);
