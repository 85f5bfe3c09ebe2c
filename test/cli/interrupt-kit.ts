// Starting a CLI process with a forced-terminal stderr (so it shows its
// progress), waiting until that progress shows the long work running, then
// sending SIGINT (or SIGTERM): the interrupt tests' one way of doing it.
import { join } from 'node:path';
import { expect } from 'vitest';
import { FIXTURES, startCli } from './run-cli.js';

const TERMINAL = join(FIXTURES, 'stderr-terminal.mjs');

export interface Interrupted {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Milliseconds from the signal to the process's exit. */
  readonly delayMs: number;
}

/** Runs `args`, waits until stderr shows `progress` (a progress line's label), sends `signal`; resolves when the process has closed. */
export async function interruptAtProgress(args: readonly string[], progress: string, signal: 'SIGINT' | 'SIGTERM' = 'SIGINT'): Promise<Interrupted> {
  const child = startCli(args, { nodeArgs: ['--import', TERMINAL] });
  let stdout = '';
  let stderr = '';
  let exitedAt = 0;
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const running = new Promise<void>((done) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes(`${progress}: `)) done();
    });
    child.on('exit', () => done());
  });
  const closed = new Promise<number | null>((done) => {
    child.on('exit', () => (exitedAt = performance.now()));
    child.on('close', (code) => done(code));
  });
  await running;
  // Still running: the work had begun and had not ended when the signal was sent.
  expect(child.exitCode, `exited before its progress showed; stderr: ${stderr}`).toBe(null);
  const signalledAt = performance.now();
  child.kill(signal);
  const code = await closed;
  return { code, stdout, stderr, delayMs: exitedAt - signalledAt };
}

/** The stderr of an interrupted command: progress lines (carriage returns, no escape codes), blanked, then the error line. */
export function expectInterruptedStderr(stderr: string, progress: string): void {
  expect(stderr).toMatch(new RegExp(`^\\r[^\\n]*${progress}: \\d+/\\d+ \\(\\d+%\\)[^\\n]*\\r *\\remberbench: error: interrupted\\n$`));
  expect(stderr).not.toContain('\u001b');
}
