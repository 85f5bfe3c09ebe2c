/**
 * Starts `emberbench serve` as a user would (the built CLI, a port of its
 * choosing, no browser opened) and reads the URL it prints. Stopping sends
 * SIGTERM, as Ctrl+C would, and waits for the process to exit.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI = join(ROOT, 'bin', 'emberbench.js');

export interface ServeProcess {
  /** The URL with the token, as printed. */
  readonly url: string;
  readonly origin: string;
  /** Everything the process wrote to stderr so far (for failure messages). */
  stderr(): string;
  stop(): Promise<number | null>;
}

const URL_PATTERN = /https?:\/\/[^\s]+/;

/**
 * `env` replaces the environment (e.g. XDG_CONFIG_HOME, so the app's data
 * folder, which keeps the access token, is a test folder); `port` 0 is any
 * free one.
 */
export function startServe(archive: string, timeoutMs = 60_000, env: NodeJS.ProcessEnv = process.env, port = 0): Promise<ServeProcess> {
  const child: ChildProcess = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--archive', archive, '--no-open'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`emberbench serve printed no URL within ${timeoutMs} ms; stderr:\n${err}`));
    }, timeoutMs);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`emberbench serve exited with ${code} before printing its URL; stdout:\n${out}\nstderr:\n${err}`));
    });
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const match = URL_PATTERN.exec(out);
      if (match === null) return;
      clearTimeout(timer);
      const url = match[0];
      resolve({
        url,
        origin: new URL(url).origin,
        stderr: () => err,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
          const code = await exited.catch(() => null);
          clearTimeout(killer);
          return code;
        },
      });
    });
  });
}

/** A port of 127.0.0.1 that was free a moment ago (for a server that must come back on the same port). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((done) => probe.close(() => done()));
  return port;
}
