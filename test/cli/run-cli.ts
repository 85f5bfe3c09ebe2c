// Spawns the CLI as a process: `node --import tsx src/cli/main.ts ...` (no build needed).
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const ROOT = join(import.meta.dirname, '..', '..');
export const MAIN = join(ROOT, 'src', 'cli', 'main.ts');
export const FIXTURES = join(ROOT, 'test', 'cli', 'fixtures');
export const CORRIDOR = join(FIXTURES, 'corridor.json');
export const SUITE = join(FIXTURES, 'suite');
export const AGENTS = join(FIXTURES, 'agents');
export const NO_NETWORK = join(FIXTURES, 'no-network.mjs');

// Resolved from the repository, so a process started in another directory finds it.
export const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliRunOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Extra node flags before the entry (e.g. another --import). */
  readonly nodeArgs?: readonly string[];
}

export function cliArgv(args: readonly string[], options: CliRunOptions = {}): string[] {
  return ['--import', TSX, ...(options.nodeArgs ?? []), MAIN, ...args];
}

export function runCli(args: readonly string[], options: CliRunOptions = {}): CliResult {
  const result = spawnSync(process.execPath, cliArgv(args, options), {
    cwd: options.cwd ?? ROOT,
    env: options.env ?? process.env,
    encoding: 'utf8',
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Starts the CLI without waiting (for the SIGINT test). */
export function startCli(args: readonly string[], options: CliRunOptions = {}) {
  return spawn(process.execPath, cliArgv(args, options), {
    cwd: options.cwd ?? ROOT,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The single JSON error line of a failed --json command. */
export function jsonError(stderr: string): { exit_code: number; kind: string; message: string } {
  const lines = stderr.split('\n');
  if (lines.length !== 2 || lines[1] !== '') throw new Error(`expected one stderr line, got: ${stderr}`);
  return (JSON.parse(lines[0]!) as { error: { exit_code: number; kind: string; message: string } }).error;
}
