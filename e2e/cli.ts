/** Runs the built `emberbench` CLI, as the README's walkthrough does. */

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { CLI, ROOT } from './server.js';

const run = promisify(execFile);

export async function emberbench(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(process.execPath, [CLI, ...args], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    throw new Error(`emberbench ${args.join(' ')} failed (exit ${e.code}):\n${e.stderr ?? ''}${e.stdout ?? ''}`);
  }
}

/** The headline number of the summary `emberbench score` prints ("EMBER Score 55.8 / 100 ..."). */
export function headlineOf(summary: string): string {
  const match = /^EMBER Score (\S+) \/ 100/m.exec(summary);
  if (match === null) throw new Error(`no "EMBER Score" line in:\n${summary}`);
  return match[1]!;
}
