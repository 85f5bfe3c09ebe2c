// `emberbench serve` as a process: the port and the access token stay the
// same across a restart (the token kept 0600 in the user's data folder and
// never printed but in the address line), a taken port stops the command with
// exit 2 naming the port and --port, and after --rotate-token the old token
// and the cookie it bought are refused while the new one is accepted.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from '../cli/run-cli.js';
import { freePort } from '../../e2e/server.js';

const dir = mkdtempSync(join(tmpdir(), 'ember-serve-token-'));
const env = { ...process.env, XDG_CONFIG_HOME: join(dir, 'config') };
const tokenFile = join(dir, 'config', 'EMBER Workbench', 'serve-token');
const archive = join(dir, 'archive.sqlite');
const WAIT = 180_000;

interface Running {
  readonly url: string;
  readonly stderr: () => string;
  stop(): Promise<number | null>;
}

function serve(args: readonly string[]): Promise<Running> {
  const child = startCli(['serve', '--no-open', '--archive', archive, ...args], { env });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  return new Promise((resolve, reject) => {
    // Ready once the address line is out and the notes after it on stderr too.
    const ready = (): void => {
      const found = /(http:\/\/127\.0\.0\.1:[0-9]+\/\S*)\r?\n/.exec(stdout);
      if (found && stderr.includes('Ctrl+C stops'))
        resolve({
          url: found[1]!,
          stderr: () => stderr,
          stop: async () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      ready();
    });
    child.stderr.on('data', () => ready());
    void exited.then((code) => reject(new Error(`serve exited (${code}) before printing its URL: ${stderr}`)));
  });
}

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { redirect: 'manual', headers });

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('emberbench serve: stable port and kept token', () => {
  let port = 0;
  let firstUrl = '';
  let firstCookie = '';

  it('keeps the token 0600 in the data folder, prints it only in the address line, and serves the same address after a restart', async () => {
    port = await freePort();
    const first = await serve(['--port', String(port)]);
    try {
      firstUrl = first.url;
      const token = new URL(first.url).searchParams.get('token')!;
      expect(new URL(first.url).port).toBe(String(port));
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      expect(readFileSync(tokenFile, 'utf8')).toBe(`${token}\n`);
      expect(first.stderr()).not.toContain(token);
      expect(first.stderr()).toContain(tokenFile);
      const answer = await get(first.url);
      expect(answer.status).toBe(302);
      firstCookie = answer.headers.get('set-cookie')!.split(';')[0]!;
    } finally {
      await first.stop();
    }
    const again = await serve(['--port', String(port)]);
    try {
      expect(again.url).toBe(firstUrl);
      // The cookie bought before the restart still opens the app's page.
      const appPath = (await get(again.url)).headers.get('location')!;
      expect((await get(new URL(appPath, again.url).href, { cookie: firstCookie })).status).toBe(200);
    } finally {
      await again.stop();
    }
  }, WAIT);

  it('a taken port: exit 2, naming the port and how to choose another', async () => {
    const holder = createServer();
    await new Promise<void>((done) => holder.listen(port, '127.0.0.1', done));
    try {
      const result = runCli(['serve', '--no-open', '--archive', archive, '--port', String(port)], { env });
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
      expect(result.stderr).toContain('--port N (--port 0 picks any free port');
      expect(result.stdout).toBe('');
    } finally {
      await new Promise<void>((done) => holder.close(() => done()));
    }
  }, WAIT);

  it('--rotate-token: a new private token; the old token and its cookie are refused', async () => {
    const rotated = await serve(['--port', String(port), '--rotate-token']);
    try {
      expect(rotated.url).not.toBe(firstUrl);
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      expect(readFileSync(tokenFile, 'utf8')).toBe(`${new URL(rotated.url).searchParams.get('token')}\n`);
      expect((await get(firstUrl)).status).toBe(401);
      const oldToken = new URL(firstUrl).searchParams.get('token')!;
      expect((await fetch(`${new URL(firstUrl).origin}/api/call/app.info`, { method: 'POST', headers: { authorization: `Bearer ${oldToken}`, 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
      const newLocation = (await get(rotated.url)).headers.get('location')!;
      expect((await get(new URL(newLocation, rotated.url).href, { cookie: firstCookie })).status).toBe(401);
      expect((await get(rotated.url)).status).toBe(302);
    } finally {
      await rotated.stop();
    }
  }, WAIT);

  it('a token file others can read is refused (exit 2), not used nor repaired', () => {
    chmodSync(tokenFile, 0o644);
    const result = runCli(['serve', '--no-open', '--archive', archive, '--port', '0'], { env });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('can be read by other users (mode 644)');
    expect(result.stderr).toContain('--rotate-token');
    expect(statSync(tokenFile).mode & 0o777).toBe(0o644);
    expect(existsSync(tokenFile)).toBe(true);
  }, WAIT);
});
