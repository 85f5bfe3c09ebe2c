/**
 * The browser-mode server of `emberbench serve`: the workbench contract over
 * HTTP (src/shared/api/http.ts) plus the built renderer, on 127.0.0.1 only.
 *
 * Every request passes the Host/Origin check (guard.ts). The first page load
 * carries the per-launch token in its URL; the server answers with an
 * HttpOnly, SameSite=Strict cookie and a redirect to the bare URL, so the
 * token leaves the address bar and history. Everything else needs that
 * cookie (or a Bearer header). A malformed call gets an error value, never a
 * crash: the dispatcher validates names and inputs.
 */

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { CALL_PATH_PREFIX, EVENTS_PATH, MAX_CALL_BODY_BYTES, TOKEN_COOKIE, TOKEN_QUERY } from '../../shared/api/http.js';
import { fail, type ApiResult } from '../../shared/api/result.js';
import { dispatch, type Handlers } from '../app/dispatch.js';
import { EventHub } from './event-hub.js';
import { checkSameOrigin, presentedToken, tokenMatches } from './guard.js';
import { resolveStatic, sendStatic } from './static-files.js';

export interface WorkbenchServerOptions {
  readonly handlers: Handlers;
  /** The built renderer (out/renderer). */
  readonly staticDir: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** The per-launch token; a fresh random one by default. */
  readonly token?: string;
}

export interface WorkbenchServer {
  /** The URL to open, with the token. */
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  broadcast(event: string, payload: unknown): void;
  /** Stops accepting, ends the event streams and open connections. */
  close(): Promise<void>;
}

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new BodyTooLarge());
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolveBody(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(body);
}

function refuse(res: ServerResponse, status: number, reason: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`${reason}\n`);
}

async function handleCall(req: IncomingMessage, res: ServerResponse, name: string, handlers: Handlers): Promise<void> {
  if (req.method !== 'POST') return refuse(res, 405, 'calls are POST requests');
  // A JSON content type cannot be sent cross-site without a preflight, which this server never grants.
  const type = req.headers['content-type'] ?? '';
  if (!type.toLowerCase().startsWith('application/json')) {
    return sendJson(res, 415, fail('bad_request', 'a call body must be application/json'));
  }
  let input: unknown;
  try {
    const body = await readBody(req, MAX_CALL_BODY_BYTES);
    input = body.length === 0 ? {} : JSON.parse(body.toString('utf8'));
  } catch (error) {
    if (error instanceof BodyTooLarge) return sendJson(res, 413, fail('bad_request', `a call body may be at most ${MAX_CALL_BODY_BYTES} bytes`));
    return sendJson(res, 400, fail('bad_request', 'the call body is not valid JSON'));
  }
  const result: ApiResult<unknown> = await dispatch(handlers, name, input);
  sendJson(res, 200, result);
}

export function startWorkbenchServer(opts: WorkbenchServerOptions): Promise<WorkbenchServer> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const staticDir = resolve(opts.staticDir);
  const hub = new EventHub();
  let port = 0;

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const guard = checkSameOrigin(req, port);
    if (!guard.ok) return refuse(res, guard.status, guard.reason);
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);

    // The launch URL: trade the token for the cookie, then drop it from the address bar.
    const queryToken = url.searchParams.get(TOKEN_QUERY);
    if (queryToken !== null && req.method === 'GET') {
      if (!tokenMatches(queryToken, token)) return refuse(res, 401, 'this link has an old or wrong token: open the URL that `emberbench serve` printed');
      url.searchParams.delete(TOKEN_QUERY);
      res.writeHead(302, {
        location: url.pathname + url.search,
        'set-cookie': `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`,
        'cache-control': 'no-store',
      });
      res.end();
      return;
    }
    if (!tokenMatches(presentedToken(req), token)) {
      return refuse(res, 401, 'not authorized: open the URL with the token that `emberbench serve` printed');
    }

    if (url.pathname.startsWith(CALL_PATH_PREFIX)) return handleCall(req, res, url.pathname.slice(CALL_PATH_PREFIX.length), opts.handlers);
    if (url.pathname === EVENTS_PATH) {
      if (req.method !== 'GET') return refuse(res, 405, 'the event stream is a GET request');
      hub.attach(res);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'method not allowed');
    const file = resolveStatic(staticDir, url.pathname);
    if (file === undefined) return refuse(res, 404, 'not found');
    sendStatic(res, file);
  };

  const server: Server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      // A bug in routing: answer it, keep serving.
      if (!res.headersSent) sendJson(res, 500, fail('internal', `internal error (a bug): ${error instanceof Error ? error.message : String(error)}`));
      else res.destroy();
    });
  });
  server.headersTimeout = 30_000;
  server.requestTimeout = 0; // the event stream is long-lived; bodies are bounded by size

  return new Promise((resolveStart, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => {
      server.off('error', reject);
      port = (server.address() as AddressInfo).port;
      const origin = `http://127.0.0.1:${port}`;
      resolveStart({
        url: `${origin}/?${TOKEN_QUERY}=${token}`,
        origin,
        port,
        token,
        broadcast: (event, payload) => hub.broadcast(event, payload),
        close: () =>
          new Promise<void>((done) => {
            hub.close();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
