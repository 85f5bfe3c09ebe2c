// The renderer's HTTP transport against the real browser-mode server (with
// a small fake service behind it): answers and error values pass through
// unchanged, and every transport failure becomes an error value that says
// what to do, never a thrown exception.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ValidationError } from '../../core/errors.js';
import type { Handlers } from '../../node/services/dispatch.js';
import { startWorkbenchServer, type WorkbenchServer } from '../../node/server/workbench-server.js';
import { createApi } from '../../shared/api/client.js';
import { createHttpTransport } from './http.js';

const handlers = {
  'app.info': async () => ({ version: '0.0.0', mode: 'browser', archivePath: '/tmp/a.sqlite', cores: 2, maxJobs: 2, defaultJobs: 1 }),
  'suites.validate': async () => {
    throw new ValidationError('suite file x.json: bad digest');
  },
} as unknown as Handlers;

describe('the renderer HTTP transport', () => {
  let server: WorkbenchServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ember-transport-'));
    server = await startWorkbenchServer({ handlers, staticDir: dir, port: 0 });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const api = (token: string) => createApi(createHttpTransport(server.origin, { authorization: `Bearer ${token}` }));

  test('a call answers the service value', async () => {
    expect(await api(server.token)['app.info']({})).toEqual({ ok: true, value: expect.objectContaining({ mode: 'browser', defaultJobs: 1 }) });
  });

  test('a service error arrives as the same error value', async () => {
    const answer = await api(server.token)['suites.validate']({ suiteHash: 'a'.repeat(64) });
    expect(answer).toEqual({ ok: false, error: { kind: 'validation', message: 'suite file x.json: bad digest' } });
  });

  test('a bad input names its field', async () => {
    const answer = await api(server.token)['suites.validate']({ suiteHash: 'nope' });
    expect(answer.ok === false && answer.error.field).toBe('suiteHash');
  });

  test('a refused token says to reopen the printed address', async () => {
    const answer = await api('wrong-token')['app.info']({});
    expect(answer.ok).toBe(false);
    expect(answer.ok === false && answer.error.message).toMatch(/Open the address that `emberbench serve` printed/);
  });

  test('a server that is gone says so instead of throwing', async () => {
    const gone = createApi(createHttpTransport('http://127.0.0.1:9', {}));
    const answer = await gone['app.info']({});
    expect(answer.ok === false && answer.error).toEqual({ kind: 'unavailable', message: 'The workbench server does not answer: `emberbench serve` was stopped, or its computer sleeps.' });
  });
});
