import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../core/errors.js';
import type { Handlers } from '../services/dispatch.js';
import { startWorkbenchServer, type WorkbenchServer } from './workbench-server.js';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

function send(server: WorkbenchServer, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, method: opts.method ?? 'GET', headers: { host: `127.0.0.1:${server.port}`, ...opts.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const call = (server: WorkbenchServer, name: string, input: unknown, headers: Record<string, string> = {}): Promise<Answer> =>
  send(server, `/api/call/${name}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', ...headers },
    body: typeof input === 'string' ? input : JSON.stringify(input),
  });

// The transport is under test here, so the services are a small fake; the
// contract test runs the real services through both transports.
const handlers = {
  'app.info': async () => ({ version: '0.0.0', mode: 'browser', archivePath: '/tmp/a.sqlite', cores: 2, maxJobs: 8, defaultJobs: 2 }),
  'suites.validate': async () => {
    throw new ValidationError('suite file x.json: bad digest');
  },
  'trials.get': async () => {
    throw new TypeError('boom');
  },
} as unknown as Handlers;

describe('the browser-mode server', () => {
  let server: WorkbenchServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ember-serve-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>EMBER</title>');
    writeFileSync(join(tmpdir(), 'ember-secret.txt'), 'secret');
    server = await startWorkbenchServer({ handlers, staticDir: dir, port: 0 });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 and prints a URL with the token', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`);
    expect(server.token.length).toBeGreaterThanOrEqual(32);
  });

  it('refuses a request without the token (401)', async () => {
    expect((await send(server, '/')).status).toBe(401);
    expect((await send(server, '/?token=wrong')).status).toBe(401);
    expect((await call(server, 'app.info', {}, { authorization: 'Bearer nope' })).status).toBe(401);
  });

  it("trades the launch token for an HttpOnly SameSite cookie of this port, scoped to the app's path, and drops it from the URL", async () => {
    const first = await send(server, `/?token=${server.token}`);
    expect(first.status).toBe(302);
    expect(server.appPath).toMatch(/^\/s\/[0-9a-f]{32}\/$/);
    expect(server.appPath).not.toContain(server.token);
    expect(first.headers.location).toBe(server.appPath);
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toBe(`ember_token_${server.port}=${server.token}; HttpOnly; SameSite=Strict; Path=${server.appPath}; Max-Age=34560000`);
    const page = await send(server, server.appPath, { headers: { cookie: cookie.split(';')[0]! } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>EMBER</title>');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    // The page's calls go to api/... under its path, where the cookie is sent.
    const info = await send(server, `${server.appPath}api/call/app.info`, { method: 'POST', headers: { cookie: cookie.split(';')[0]!, 'content-type': 'application/json' }, body: '{}' });
    expect(JSON.parse(info.body)).toMatchObject({ ok: true, value: { mode: 'browser' } });
    // Another server's cookie (another port's name) is not this one's.
    const other = await send(server, server.appPath, { headers: { cookie: `ember_token_${server.port + 1}=${server.token}` } });
    expect(other.status).toBe(401);
  });

  it('refuses a foreign Host (DNS rebinding) or Origin (403), even with the token', async () => {
    const rebinding = await send(server, '/', { headers: { host: `evil.example:${server.port}`, authorization: `Bearer ${server.token}` } });
    expect(rebinding.status).toBe(403);
    expect(rebinding.body).toBe(`the request's Host is not this server: open the address that \`emberbench serve\` printed (127.0.0.1:${server.port})\n`);
    expect(rebinding.headers['x-content-type-options']).toBe('nosniff');
    const crossSite = await call(server, 'app.info', {}, { origin: 'http://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body).not.toContain('evil');
    expect(crossSite.headers['x-content-type-options']).toBe('nosniff');
    const sameSite = await call(server, 'app.info', {}, { origin: `http://localhost:${server.port}` });
    expect(sameSite.status).toBe(200);
  });

  it('answers calls with error values, never a crash', async () => {
    const info = await call(server, 'app.info', {});
    expect(JSON.parse(info.body)).toMatchObject({ ok: true, value: { mode: 'browser' } });

    const unknown = JSON.parse((await call(server, 'nope.nothing', {})).body);
    expect(unknown).toMatchObject({ ok: false, error: { kind: 'bad_request' } });

    const badInput = JSON.parse((await call(server, 'suites.validate', { suiteHash: 'xyz' })).body);
    expect(badInput).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'suiteHash' } });

    const extra = JSON.parse((await call(server, 'app.info', { surprise: 1 })).body);
    expect(extra.ok).toBe(false);

    const library = JSON.parse((await call(server, 'suites.validate', { suiteHash: 'a'.repeat(64) })).body);
    expect(library).toEqual({ ok: false, error: { kind: 'validation', message: 'suite file x.json: bad digest' } });

    const bug = JSON.parse((await call(server, 'trials.get', { trialId: 1 })).body);
    expect(bug).toMatchObject({ ok: false, error: { kind: 'internal' } });

    const notJson = await call(server, 'app.info', '{"unclosed": ');
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body)).toMatchObject({ ok: false, error: { kind: 'bad_request' } });

    const wrongType = await call(server, 'app.info', '{}', { 'content-type': 'text/plain' });
    expect(wrongType.status).toBe(415);

    const get = await send(server, '/api/call/app.info', { headers: { authorization: `Bearer ${server.token}` } });
    expect(get.status).toBe(405);

    // Still serving after all of that.
    expect(JSON.parse((await call(server, 'app.info', {})).body).ok).toBe(true);
  });

  it('never serves a file outside the renderer folder', async () => {
    const auth = { authorization: `Bearer ${server.token}` };
    for (const path of ['/../ember-secret.txt', '/%2e%2e/ember-secret.txt', '/..%2fember-secret.txt', '/%00']) {
      const answer = await send(server, path, { headers: auth });
      expect(answer.body).not.toContain('secret');
    }
    expect((await send(server, '/trials/3', { headers: auth })).body).toContain('<title>EMBER</title>');
    expect((await send(server, '/missing.js', { headers: auth })).status).toBe(404);
  });

  it('streams events to connected pages', async () => {
    const received = new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: server.port, path: '/api/events', headers: { host: `127.0.0.1:${server.port}`, authorization: `Bearer ${server.token}` } },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => {
            text += c.toString('utf8');
            if (text.includes('connected')) server.broadcast('archive.changed', { kind: 'trial', trialId: 7, what: 'progress' });
            if (text.includes('data: ')) {
              req.destroy();
              resolve(text);
            }
          });
        },
      );
      req.on('error', (e) => (String(e).includes('socket hang up') ? undefined : reject(e)));
      req.end();
    });
    const text = await received;
    expect(text).toContain('event: archive.changed\ndata: {"kind":"trial","trialId":7,"what":"progress"}');
  });

  it('drops an event-stream page that stops reading instead of buffering for it', async () => {
    const small = await startWorkbenchServer({ handlers, staticDir: dir, port: 0, limits: { maxEventBufferBytes: 64 * 1024 } });
    try {
      const { res, closed } = await new Promise<{ res: import('node:http').IncomingMessage; closed: Promise<number> }>((resolveStream, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port: small.port, path: '/api/events', headers: { host: `127.0.0.1:${small.port}`, authorization: `Bearer ${small.token}` } }, (stream) => {
          let bytes = 0;
          stream.on('data', (c: Buffer) => (bytes += c.length));
          const ended = new Promise<number>((done) => stream.once('close', () => done(bytes)));
          stream.on('error', () => undefined);
          resolveStream({ res: stream, closed: ended });
        });
        req.on('error', (e) => (String(e).includes('socket hang up') || String(e).includes('ECONNRESET') ? undefined : reject(e)));
        req.end();
      });
      // The page stops reading; 64 MiB of events follow (far more than the socket buffers hold).
      res.pause();
      const payload = { text: 'x'.repeat(1024 * 1024) };
      for (let i = 0; i < 64; i++) {
        small.broadcast('archive.changed', payload);
        await new Promise((r) => setTimeout(r, 5));
      }
      res.resume();
      const received = await closed;
      expect(received).toBeLessThan(32 * 1024 * 1024);
    } finally {
      await small.close();
    }
  }, 60_000);

  it('keeps one cookie per server: each accepts only its own, so two servers stay logged in side by side', async () => {
    const second = await startWorkbenchServer({ handlers, staticDir: dir, port: 0 });
    try {
      const cookieOf = async (s: WorkbenchServer): Promise<string> => String((await send(s, `/?token=${s.token}`)).headers['set-cookie']).split(';')[0]!;
      const both = `${await cookieOf(server)}; ${await cookieOf(second)}`;
      expect((await send(server, server.appPath, { headers: { cookie: both } })).status).toBe(200);
      expect((await send(second, second.appPath, { headers: { cookie: both } })).status).toBe(200);
      expect((await send(second, second.appPath, { headers: { cookie: await cookieOf(server) } })).status).toBe(401);
    } finally {
      await second.close();
    }
  });
});
