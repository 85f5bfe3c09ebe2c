/**
 * One model call over HTTP (POST base_url/chat/completions) with node:http
 * or node:https and keep-alive connections: a deadline per attempt (AbortSignal), retries with exponential
 * backoff after 429, 5xx, an expired deadline or a dropped connection, and
 * a connection slot held only while a request is on the wire. It never
 * hangs: every attempt has a deadline, the retries and the backoff are
 * bounded. When the retries run out the call fails with `timeout` (the last
 * attempt expired) or `model_error` (anything else); an answer that is not a
 * chat completion, or any other HTTP status, fails at once with
 * `model_error`.
 *
 * The API key lives only in `CallPolicy.apiKey` (an Authorization header);
 * every message this module produces is scrubbed of it.
 */

import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { AgentError, type FailureKind } from '../../../core/errors.js';
import { readCompletion, type Completion } from '../../../core/llm/completion.js';
import type { ConnectionSlots } from './slots.js';

export interface CallPolicy {
  /** base_url without a trailing slash. */
  readonly baseUrl: string;
  readonly apiKey: string | null;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly retryBaseMs: number;
  readonly transport: Transport;
}

export interface CallStats {
  readonly attempts: number;
  readonly retries: number;
  readonly timeouts: number;
  /** Sum over attempts of request-to-response wall time (backoff and slot waits excluded), whole ms. */
  readonly latencyMs: number;
  /** One line per failed attempt ("HTTP 429", "timeout after 2000 ms", ...). */
  readonly problems: readonly string[];
}

export interface CallResult extends CallStats {
  readonly completion: Completion;
}

/**
 * Why no call to this endpoint can succeed: it refused the credentials
 * (HTTP 401/403), or it could not be reached (connection refused, unknown
 * host, no route) on every attempt of the retry policy.
 */
export type EndpointProblem = 'credentials' | 'unreachable';

/** A failed call: the episode's failure kind, with the call's statistics for the transcript. */
export class CallError extends AgentError {
  override name = 'CallError';
  constructor(
    failure: FailureKind,
    message: string,
    readonly stats: CallStats,
    /** Set when the endpoint itself is at fault (the run stops: EndpointError). */
    readonly endpoint: EndpointProblem | null = null,
  ) {
    super(failure, message);
  }
}

/** Error codes of a connection that never reached a server: a wrong host or port in base_url, or a server that is down. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

/** Replaces every occurrence of the key (a server may echo a header). */
export function scrub(text: string, apiKey: string | null): string {
  return apiKey === null || apiKey.length === 0 ? text : text.split(apiKey).join('[api key]');
}

type Attempt =
  | { readonly kind: 'ok'; readonly body: string }
  | { readonly kind: 'retry'; readonly timeout: boolean; readonly unreachable: boolean; readonly problem: string }
  | { readonly kind: 'fatal'; readonly credentials: boolean; readonly problem: string };

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 200 ? oneLine.slice(0, 200) + '...' : oneLine;
}

/** Keep-alive connection pools of one session (node:http is several times faster than fetch for many small calls). */
export interface Transport {
  readonly http: HttpAgent;
  readonly https: HttpsAgent;
}

export function openTransport(): Transport {
  return { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
}

export function closeTransport(t: Transport): void {
  t.http.destroy();
  t.https.destroy();
}

/** POSTs `body`; resolves the status and the body text; rejects on a network error or an abort. */
function post(url: URL, headers: Record<string, string>, body: string, transport: Transport, signal: AbortSignal): Promise<{ status: number; text: string }> {
  const secure = url.protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: secure ? transport.https : transport.http, signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
      res.on('aborted', () => reject(new Error('the connection closed during the answer')));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function attempt(policy: CallPolicy, body: string, signal: AbortSignal | undefined): Promise<Attempt> {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort();
  }, policy.timeoutMs);
  const onAbort = (): void => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (policy.apiKey !== null) headers['authorization'] = `Bearer ${policy.apiKey}`;
    const response = await post(new URL(`${policy.baseUrl}/chat/completions`), headers, body, policy.transport, controller.signal);
    if (response.status === 200) return { kind: 'ok', body: response.text };
    const problem = `HTTP ${response.status}: ${clip(response.text)}`;
    if (response.status === 429 || response.status >= 500) return { kind: 'retry', timeout: false, unreachable: false, problem };
    return { kind: 'fatal', credentials: response.status === 401 || response.status === 403, problem };
  } catch (error) {
    if (expired) return { kind: 'retry', timeout: true, unreachable: false, problem: `no answer within the ${policy.timeoutMs} ms deadline` };
    if (signal?.aborted) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    return { kind: 'retry', timeout: false, unreachable: code !== undefined && UNREACHABLE_CODES.has(code), problem: `connection failed (${code ?? (error as Error).message})` };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Makes one call; CallError (an AgentError) when it fails. */
export async function callChat(policy: CallPolicy, body: string, slots: ConnectionSlots, signal?: AbortSignal): Promise<CallResult> {
  const problems: string[] = [];
  let timeouts = 0;
  let latencyMs = 0;
  // Whether every attempt so far never reached a server (the endpoint is dead, not busy).
  let unreachable = true;
  for (let n = 0; ; n++) {
    if (n > 0) await sleep(policy.retryBaseMs * 2 ** (n - 1), signal);
    await slots.acquire();
    const began = performance.now();
    let result: Attempt;
    try {
      result = await attempt(policy, body, signal);
    } finally {
      latencyMs += Math.round(performance.now() - began);
      slots.release();
    }
    const stats = (): CallStats => ({ attempts: n + 1, retries: n, timeouts, latencyMs, problems: problems.map((p) => scrub(p, policy.apiKey)) });
    switch (result.kind) {
      case 'ok': {
        let completion: Completion;
        try {
          completion = readCompletion(result.body);
        } catch (error) {
          const message = scrub((error as Error).message, policy.apiKey);
          problems.push(message);
          throw new CallError('model_error', message, stats());
        }
        return { ...stats(), completion: { ...completion, content: completion.content } };
      }
      case 'fatal':
        problems.push(result.problem);
        throw new CallError('model_error', `the endpoint refused the call: ${scrub(result.problem, policy.apiKey)}`, stats(), result.credentials ? 'credentials' : null);
      case 'retry':
        problems.push(result.problem);
        if (result.timeout) timeouts += 1;
        unreachable &&= result.unreachable;
        if (n >= policy.maxRetries) {
          const kind: FailureKind = result.timeout ? 'timeout' : 'model_error';
          throw new CallError(kind, `model call failed after ${n + 1} attempt(s): ${scrub(result.problem, policy.apiKey)}`, stats(), unreachable ? 'unreachable' : null);
        }
    }
  }
}
