// No request takes the browser-mode server down (issue 18): a real server
// (the workbench services behind startWorkbenchServer, as `emberbench serve`
// runs them) on 127.0.0.1 with small limits and timeouts, and each hostile
// request with its exact answer. The timeouts are short so the server
// answers quickly; the test only waits (with generous deadlines) and never
// asserts how fast anything happened.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildManifest } from '../../src/core/eval/manifest.js';
import { runEvaluation } from '../../src/node/eval/runner.js';
import { MemorySink } from '../../src/node/eval/sink.js';
import { defaultEntryPoints } from '../../src/node/entry-points.js';
import { loadSuiteDir } from '../../src/node/inputs.js';
import type { ServerLimits } from '../../src/node/server/limits.js';
import { PUBLIC_SUITE, tempDir } from '../archive/helpers.js';
import { call, parseAnswer, rawConnection, requestHead, startFixture, type FixtureServer } from './helpers.js';

const MiB = 1024 * 1024;
const LIMITS: Partial<ServerLimits> = {
  maxConnections: 16,
  headersTimeoutMs: 2_000,
  bodyIdleTimeoutMs: 2_000,
  bodyTimeoutMs: 5_000,
  idleTimeoutMs: 1_000,
  refusedLingerMs: 500,
  callBodyBytes: 4096,
  importBodyBytes: 48 * MiB,
};
const JOB_HEAP_MB = 48;
const WAIT = 90_000;

const tmp = tempDir('ember-hostile-');
let server: FixtureServer;
let resultText = '';

beforeAll(async () => {
  // A real result of the public suite (one seed, ten episodes).
  const suite = loadSuiteDir(PUBLIC_SUITE);
  const sink = new MemorySink();
  await runEvaluation({ suite, suiteDir: PUBLIC_SUITE, manifest: buildManifest(suite, ['0']), modelId: 'nearest', agent: { kind: 'builtin', id: 'nearest-exit-greedy-v1' }, agentPaths: [], actTimeoutMs: 30_000, sink, continueOnFailure: false, jobs: 1, entryPoints: defaultEntryPoints() });
  resultText = sink.final.text;
  server = await startFixture(join(tmp.dir, 'archive.sqlite'), LIMITS, JOB_HEAP_MB);
}, 240_000);

afterAll(async () => {
  await server?.stop();
  tmp.remove();
});

const auth = (): Record<string, string> => ({ authorization: `Bearer ${server.token}` });
const NOSNIFF = { 'x-content-type-options': 'nosniff', connection: 'close' };

/** app.info answers: the server is still up. */
async function stillServing(): Promise<void> {
  const info = await call(server, 'app.info', '{}');
  expect(info).toMatchObject({ status: 200, json: { ok: true, value: { mode: 'browser' } } });
}

describe('hostile requests to the browser-mode server', () => {
  it('a call body over its procedure\'s limit: 413 naming the limit, and the connection closed', async () => {
    // Chunked, so no length is announced: the server counts what arrives.
    const c = await rawConnection(server.port);
    c.write(requestHead(server.port, 'POST', '/api/call/app.info', { ...auth(), 'content-type': 'application/json', 'transfer-encoding': 'chunked' }));
    const body = `{"x":"${'a'.repeat(4990)}"}`;
    c.write(`${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`);
    const answer = parseAnswer(await c.closed);
    expect(answer.status).toBe(413);
    expect(answer.headers).toMatchObject(NOSNIFF);
    expect(JSON.parse(answer.body)).toEqual({ ok: false, error: { kind: 'bad_request', message: "this call's body may be at most 4096 bytes" } });
    await stillServing();
  }, WAIT);

  it('an import body announced over the import limit: 413 before any of it is read', async () => {
    const c = await rawConnection(server.port);
    // Only the head is sent: a server that waited for the body would answer 408 after its timeout, not 413.
    // (Body bytes sent meanwhile would sit unread when the server closes, and the kernel's reset could
    // then destroy the 413 before the client reads it.)
    c.write(requestHead(server.port, 'POST', '/api/call/archive.import', { ...auth(), 'content-type': 'application/json', 'content-length': 49 * MiB }));
    const answer = parseAnswer(await c.closed);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ ok: false, error: { kind: 'bad_request', message: "this call's body may be at most 50331648 bytes (48 MiB)" } });
    await stillServing();
  }, WAIT);

  it('an authenticated body that stops arriving: 408, and the connection closed', async () => {
    const c = await rawConnection(server.port);
    c.write(requestHead(server.port, 'POST', '/api/call/app.info', { ...auth(), 'content-type': 'application/json', 'content-length': 100 }));
    c.write('{"a":');
    const answer = parseAnswer(await c.closed);
    expect(answer.status).toBe(408);
    expect(answer.headers).toMatchObject(NOSNIFF);
    expect(JSON.parse(answer.body)).toEqual({
      ok: false,
      error: { kind: 'bad_request', message: 'the call body did not arrive in time (no pause over 2000 ms, all of it within 5000 ms)' },
    });
  }, WAIT);

  it('twelve authenticated bodies trickling a byte at a time: every one cut with 408', async () => {
    const slow = await Promise.all(Array.from({ length: 12 }, () => rawConnection(server.port)));
    for (const c of slow) c.write(requestHead(server.port, 'POST', '/api/call/app.info', { ...auth(), 'content-type': 'application/json', 'content-length': 4000 }));
    // Never idle long enough for the idle timeout: only the whole-body timeout can end them.
    const trickle = setInterval(() => {
      for (const c of slow) c.write(' ');
    }, 300);
    try {
      const answers = (await Promise.all(slow.map((c) => c.closed))).map(parseAnswer);
      expect(answers.map((a) => a.status)).toEqual(slow.map(() => 408));
    } finally {
      clearInterval(trickle);
    }
    await stillServing();
  }, WAIT);

  it('an unauthenticated body: 401 without echoing anything, and the connection closed while the client still sends', async () => {
    const c = await rawConnection(server.port);
    c.write(requestHead(server.port, 'POST', '/api/call/app.info', { 'content-type': 'application/json', 'content-length': 100 * MiB }));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const sender = setInterval(() => c.write(chunk), 50);
    try {
      const answer = parseAnswer(await c.closed);
      expect(answer.status).toBe(401);
      expect(answer.headers).toMatchObject({ ...NOSNIFF, 'content-type': 'text/plain; charset=utf-8' });
      expect(answer.body).toBe('not authorized: open the URL with the token that `emberbench serve` printed\n');
    } finally {
      clearInterval(sender);
    }
  }, WAIT);

  it('a foreign Host or Origin: 403 with nosniff, never repeating the value sent', async () => {
    for (const [headers, message] of [
      [{ host: 'evil.example:80' }, `the request's Host is not this server: open the address that \`emberbench serve\` printed (127.0.0.1:${server.port})\n`],
      [{ origin: 'http://<script>evil</script>' }, `the request comes from a page of another origin: only the workbench's own page (http://127.0.0.1:${server.port}) may call it\n`],
    ] as const) {
      const c = await rawConnection(server.port);
      const head = requestHead(server.port, 'GET', '/', { ...auth(), ...headers });
      c.write('host' in headers ? head.replace(`Host: 127.0.0.1:${server.port}\r\n`, '') : head);
      const answer = parseAnswer(await c.closed);
      expect(answer.status).toBe(403);
      expect(answer.headers).toMatchObject(NOSNIFF);
      expect(answer.body).toBe(message);
      expect(answer.body).not.toContain('evil');
    }
  }, WAIT);

  it('headers that never end, or a connection that sends nothing: closed by the headers timeout', async () => {
    const partial = await rawConnection(server.port);
    partial.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`);
    const silent = await rawConnection(server.port);
    expect(parseAnswer(await partial.closed).status).toBe(408);
    await silent.closed;
  }, WAIT);

  it('a kept-alive connection with nothing more to ask is closed when idle', async () => {
    const c = await rawConnection(server.port);
    c.write(requestHead(server.port, 'POST', '/api/call/app.info', { ...auth(), 'content-type': 'application/json', 'content-length': 2 }) + '{}');
    const text = await c.closed;
    expect(parseAnswer(text).status).toBe(200);
    expect(text.startsWith('HTTP/1.1 200')).toBe(true);
  }, WAIT);

  it('past the connection cap a new connection is closed unanswered; once the held ones time out it is served again', async () => {
    const held = await Promise.all(Array.from({ length: 16 + 4 }, () => rawConnection(server.port)));
    const ended = await Promise.all(held.map((c) => c.closed));
    // The server took 16 (each closed by the headers timeout) and closed the 4 others at once, unanswered.
    expect(ended.filter((text) => text === '').length).toBe(4);
    expect(ended.filter((text) => text.startsWith('HTTP/1.1 408')).length).toBe(16);
    await stillServing();
  }, WAIT);

  it('an import that exceeds its job\'s heap limit fails with an error value; the server goes on, and a real import still works', async () => {
    // A result of 30 copies of its episodes (about 5 MB): parsing it takes far more than the job's heap.
    const parsed = /^\{"episodes":\[(.*)\](,"evaluation_result_version".*)$/s.exec(resultText)!;
    const big = `{"episodes":[${Array.from({ length: 30 }, () => parsed[1]).join(',')}]${parsed[2]}`;
    const failed = await call(server, 'archive.import', JSON.stringify({ fileName: 'big.json', text: big }));
    expect(failed).toEqual({
      status: 200,
      json: {
        ok: false,
        error: {
          kind: 'validation',
          message: `authenticating the imported result needed more than the ${JOB_HEAP_MB} MB of memory an archive job may use, and was stopped; nothing was written. The input is too large for this machine: import it with \`emberbench archive import\`, which has the memory of its own process`,
        },
      },
    });
    await stillServing();
    const imported = await call(server, 'archive.import', JSON.stringify({ fileName: 'result.json', text: resultText }));
    expect(imported).toEqual({ status: 200, json: { ok: true, value: { trialId: 1, duplicate: false } } });
  }, WAIT * 2);

  it('an import whose result holds a string over 1 MiB (the 300 MB case, scaled to 2 MiB): refused by the limit while it is decoded', async () => {
    // The model ID's value becomes 2 MiB of 'a'.
    const at = resultText.lastIndexOf('"nearest"');
    const text = `${resultText.slice(0, at + 1)}${'a'.repeat(2 * MiB)}"}\n`;
    const refused = await call(server, 'archive.import', JSON.stringify({ fileName: 'huge.json', text }));
    expect(refused).toEqual({
      status: 200,
      json: {
        ok: false,
        error: {
          kind: 'validation',
          message: `huge.json: evaluation result has a string of more than 1048576 bytes (1 MiB) (from byte ${at}), the most one string of it may hold: it was not made by emberbench`,
        },
      },
    });
    await stillServing();
  }, WAIT);
});
