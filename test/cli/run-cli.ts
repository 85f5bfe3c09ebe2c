// Spawns the CLI as a process: `node --import tsx src/cli/main.ts ...` (no build needed), or,
// with EMBER_TEST_CLI=dist (set by `npm test` right after `npm run build`), the built CLI
// `node bin/emberbench.js ...`, which starts in a third of the CPU time (no TypeScript
// transform per process): the suites spawn the CLI hundreds of times.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { existsSync } from 'node:fs';

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

export const BIN = join(ROOT, 'bin', 'emberbench.js');

/** True when the tests run the built CLI (EMBER_TEST_CLI=dist). */
export const BUILT_CLI = builtCli();

function builtCli(): boolean {
  const choice = process.env.EMBER_TEST_CLI ?? 'source';
  if (choice === 'source') return false;
  if (choice !== 'dist') throw new Error(`EMBER_TEST_CLI must be "source" or "dist", not ${JSON.stringify(choice)}`);
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('EMBER_TEST_CLI=dist but dist/cli/main.js is missing: run `npm run build` first');
  return true;
}

/** Node's arguments for one CLI run: flags, the entry (source through tsx, or the build), the CLI's arguments. */
export function cliArgv(args: readonly string[], options: CliRunOptions = {}): string[] {
  return BUILT_CLI ? [...(options.nodeArgs ?? []), BIN, ...args] : ['--import', TSX, ...(options.nodeArgs ?? []), MAIN, ...args];
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
