/**
 * The browser-mode server of `emberbench serve`: the workbench contract over
 * HTTP (src/shared/api/http.ts) plus the built renderer, on 127.0.0.1 only.
 *
 * Every request passes the Host/Origin check (guard.ts). The first page load
 * carries the access token in its URL; the server answers with an
 * HttpOnly, SameSite=Strict cookie (named after this port, scoped to the
 * app's path `/s/<id>/`) and a redirect there, so the token leaves the
 * address bar and history and the cookie reaches no other server.
 * Everything else needs that cookie (or a Bearer header). A malformed call
 * gets an error value, never a crash: the dispatcher validates names and
 * inputs.
 *
 * No request can take the server down (limits.ts): bodies are bounded per
 * procedure and in time, an import's body goes to a temporary file and is
 * parsed and authenticated in the archive worker (`importBody`), the
 * connections are capped, and a refused request's connection is closed
 * after its answer instead of being left to send its body.
 */

import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isProcedureName, type Outputs } from '../../shared/api/contract.js';
import { APP_PATH_PREFIX, CALL_PATH_PREFIX, EVENTS_PATH, TOKEN_QUERY, tokenCookieName } from '../../shared/api/http.js';
import { fail, ok, type ApiResult } from '../../shared/api/result.js';
import { dispatch, errorValue, type Handlers } from '../services/dispatch.js';
import { EventHub } from './event-hub.js';
import { checkSameOrigin, presentedToken, tokenMatches } from './guard.js';
import { callBodyLimit, DEFAULT_SERVER_LIMITS, type ServerLimits } from './limits.js';
import { BodyRefused, readBody, saveBody, type BodyBounds } from './request-body.js';
import { resolveStatic, sendStatic } from './static-files.js';

export interface WorkbenchServerOptions {
  readonly handlers: Handlers;
  /**
   * Imports a call body saved to a file (`archive.import`'s JSON input,
   * never read on this thread): the services' importBody. Without it an
   * import is an ordinary call, bounded like the others.
   */
  readonly importBody?: (bodyFile: string) => Promise<Outputs['archive.import']>;
  /** The built renderer (out/renderer). */
  readonly staticDir: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** The access token (`emberbench serve` keeps one between launches: serve-token.ts); a fresh random one by default. */
  readonly token?: string;
  /** Smaller limits and timeouts (tests); DEFAULT_SERVER_LIMITS otherwise. */
  readonly limits?: Partial<ServerLimits>;
}

export interface WorkbenchServer {
  /** The URL to open, with the token. */
  readonly url: string;
  readonly origin: string;
  /** Where the page lives (the cookie's path), `/s/<id>/`. */
  readonly appPath: string;
  readonly port: number;
  readonly token: string;
  broadcast(event: string, payload: unknown): void;
  /** Stops accepting, ends the event streams and open connections. */
  close(): Promise<void>;
}

/** 400 days, the longest a browser keeps a cookie. */
const COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;

const SECURITY_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } as const;

/**
 * Answers and ends the exchange: the connection is closed once the answer
 * is out (at the latest `lingerMs` later), so a refused or failed request
 * cannot keep its connection to send a body nobody reads.
 */
function answerAndClose(req: IncomingMessage, res: ServerResponse, status: number, headers: Record<string, string>, body: string, lingerMs: number): void {
  res.shouldKeepAlive = false;
  res.writeHead(status, { ...headers, ...SECURITY_HEADERS, connection: 'close' });
  res.end(body, () => {
    const socket = req.socket;
    socket.end();
    setTimeout(() => socket.destroy(), lingerMs).unref();
  });
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...SECURITY_HEADERS });
  res.end(JSON.stringify(value));
}

/** The app's path for a token: `/s/` and 32 hex digits of a digest of it (the token itself never appears in a URL after the first). */
export function appPathOf(token: string): string {
  return `${APP_PATH_PREFIX}${createHash('sha256').update(`ember-app-path\0${token}`).digest('hex').slice(0, 32)}/`;
}

export function startWorkbenchServer(opts: WorkbenchServerOptions): Promise<WorkbenchServer> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const appPath = appPathOf(token);
  const limits: ServerLimits = { ...DEFAULT_SERVER_LIMITS, ...opts.limits };
  const staticDir = resolve(opts.staticDir);
  const hub = new EventHub(limits.maxEventBufferBytes);
  let port = 0;

  const refuse = (req: IncomingMessage, res: ServerResponse, status: number, reason: string): void =>
    answerAndClose(req, res, status, { 'content-type': 'text/plain; charset=utf-8' }, `${reason}\n`, limits.refusedLingerMs);
  const refuseCall = (req: IncomingMessage, res: ServerResponse, status: number, value: ApiResult<never>): void =>
    answerAndClose(req, res, status, { 'content-type': 'application/json; charset=utf-8' }, JSON.stringify(value), limits.refusedLingerMs);

  const bodyBounds = (limit: number): BodyBounds => ({ limit, idleTimeoutMs: limits.bodyIdleTimeoutMs, totalTimeoutMs: limits.bodyTimeoutMs });

  /** An import: its body saved to a private temporary folder, imported from there, the folder removed. */
  const importCall = async (req: IncomingMessage, importBody: (bodyFile: string) => Promise<Outputs['archive.import']>): Promise<ApiResult<unknown>> => {
    const dir = await mkdtemp(join(tmpdir(), 'ember-import-'));
    try {
      const file = join(dir, 'body.json');
      await saveBody(req, bodyBounds(limits.importBodyBytes), file);
      try {
        return ok(await importBody(file));
      } catch (error) {
        return errorValue(error);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };

  const handleCall = async (req: IncomingMessage, res: ServerResponse, name: string): Promise<void> => {
    if (req.method !== 'POST') return refuse(req, res, 405, 'calls are POST requests');
    // A JSON content type cannot be sent cross-site without a preflight, which this server never grants.
    const type = req.headers['content-type'] ?? '';
    if (!type.toLowerCase().startsWith('application/json')) return refuseCall(req, res, 415, fail('bad_request', 'a call body must be application/json'));
    // An unknown name is answered by the dispatcher, with the smallest body limit.
    const limit = isProcedureName(name) ? callBodyLimit(name, limits) : limits.callBodyBytes;
    let result: ApiResult<unknown>;
    try {
      if (name === 'archive.import' && opts.importBody !== undefined) result = await importCall(req, opts.importBody);
      else {
        const body = await readBody(req, bodyBounds(limit));
        let input: unknown;
        try {
          input = body.length === 0 ? {} : JSON.parse(body.toString('utf8'));
        } catch {
          return refuseCall(req, res, 400, fail('bad_request', 'the call body is not valid JSON'));
        }
        result = await dispatch(opts.handlers, name, input);
      }
    } catch (error) {
      if (error instanceof BodyRefused) return refuseCall(req, res, error.status, fail('bad_request', error.message));
      throw error;
    }
    sendJson(res, 200, result);
  };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const guard = checkSameOrigin(req, port);
    if (!guard.ok) return refuse(req, res, guard.status, guard.reason);
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);

    // The launch URL: trade the token for the cookie, then move to the app's path without it.
    const queryToken = url.searchParams.get(TOKEN_QUERY);
    if (queryToken !== null && req.method === 'GET') {
      if (!tokenMatches(queryToken, token)) return refuse(req, res, 401, 'this link has an old or wrong token: open the URL that `emberbench serve` printed');
      res.writeHead(302, {
        location: appPath,
        // Kept across browser restarts (as long as browsers allow) because the token itself persists
        // (serve-token.ts): copied links open later without the printed address. Rotating the token ends it.
        'set-cookie': `${tokenCookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=${appPath}; Max-Age=${COOKIE_MAX_AGE_S}`,
        ...SECURITY_HEADERS,
      });
      res.end();
      return;
    }
    if (!tokenMatches(presentedToken(req, port), token)) {
      return refuse(req, res, 401, 'not authorized: open the URL with the token that `emberbench serve` printed');
    }

    // The page's own requests arrive under its path; scripts call the same routes at the root.
    let path = url.pathname;
    if (path === appPath.slice(0, -1)) {
      res.writeHead(302, { location: appPath, ...SECURITY_HEADERS });
      res.end();
      return;
    }
    if (path.startsWith(appPath)) path = path.slice(appPath.length - 1);
    if (path.startsWith(CALL_PATH_PREFIX)) return handleCall(req, res, path.slice(CALL_PATH_PREFIX.length));
    if (path === EVENTS_PATH) {
      if (req.method !== 'GET') return refuse(req, res, 405, 'the event stream is a GET request');
      // The stream is long-lived; what bounds it is the buffer a page that stops reading may fill.
      req.socket.setTimeout(0);
      hub.attach(res);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(req, res, 405, 'method not allowed');
    const file = resolveStatic(staticDir, path);
    if (file === undefined) return refuse(req, res, 404, 'not found');
    sendStatic(res, file);
  };

  const server: Server = createServer({ connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4))) }, (req, res) => {
    route(req, res).catch((error: unknown) => {
      // A bug in routing: answer it, keep serving.
      if (!res.headersSent) answerAndClose(req, res, 500, { 'content-type': 'application/json; charset=utf-8' }, JSON.stringify(errorValue(error)), limits.refusedLingerMs);
      else res.destroy();
    });
  });
  server.maxConnections = limits.maxConnections;
  server.headersTimeout = limits.headersTimeoutMs;
  // Node's own backstop for a whole request; the body's own timeouts (request-body.ts) answer first, with a reason.
  server.requestTimeout = limits.headersTimeoutMs + limits.bodyTimeoutMs + 1_000;
  server.keepAliveTimeout = limits.idleTimeoutMs;

  return new Promise((resolveStart, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => {
      server.off('error', reject);
      port = (server.address() as AddressInfo).port;
      const origin = `http://127.0.0.1:${port}`;
      resolveStart({
        url: `${origin}/?${TOKEN_QUERY}=${token}`,
        origin,
        appPath,
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
