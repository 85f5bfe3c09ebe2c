/**
 * Receiving a call body within its limits: at most `limit` bytes, no pause
 * longer than the idle timeout, the whole of it within the body timeout.
 * Small bodies are collected in memory; an import's body goes to a file as
 * it arrives (a result can be hundreds of MB, which must never be one
 * string on the server's thread).
 */

import { createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { describeBytes } from '../inputs.js';

/** Why a body was not received: the answer's status and message. */
export class BodyRefused extends Error {
  constructor(
    readonly status: 408 | 413,
    message: string,
  ) {
    super(message);
  }
}

export interface BodyBounds {
  readonly limit: number;
  readonly idleTimeoutMs: number;
  readonly totalTimeoutMs: number;
}

/**
 * Feeds the body's chunks to `sink` until it ends; rejects with BodyRefused
 * past the limit or a timeout (the caller answers and closes the
 * connection; the rest of the body is never read).
 */
function receive(req: IncomingMessage, bounds: BodyBounds, sink: (chunk: Buffer) => void): Promise<number> {
  const tooLarge = (): BodyRefused => new BodyRefused(413, `this call's body may be at most ${describeBytes(bounds.limit)}`);
  // A body announced larger than the limit is refused before any of it is read.
  if (Number(req.headers['content-length'] ?? 0) > bounds.limit) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    let size = 0;
    let done = false;
    const finish = (error: Error | undefined): void => {
      if (done) return;
      done = true;
      clearTimeout(idle);
      clearTimeout(total);
      req.off('data', onData);
      if (error === undefined) resolve(size);
      else {
        req.pause();
        reject(error);
      }
    };
    const tooSlow = (): BodyRefused => new BodyRefused(408, `the call body did not arrive in time (no pause over ${bounds.idleTimeoutMs} ms, all of it within ${bounds.totalTimeoutMs} ms)`);
    let idle = setTimeout(() => finish(tooSlow()), bounds.idleTimeoutMs);
    const total = setTimeout(() => finish(tooSlow()), bounds.totalTimeoutMs);
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > bounds.limit) return finish(tooLarge());
      clearTimeout(idle);
      idle = setTimeout(() => finish(tooSlow()), bounds.idleTimeoutMs);
      try {
        sink(chunk);
      } catch (error) {
        finish(error as Error);
      }
    };
    req.on('data', onData);
    req.once('end', () => finish(undefined));
    req.once('error', (error) => finish(error));
    req.once('close', () => finish(req.complete ? undefined : new Error('the client closed the connection before its body ended')));
  });
}

/** A small body, in memory. */
export async function readBody(req: IncomingMessage, bounds: BodyBounds): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const size = await receive(req, bounds, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks, size);
}

/** A large body, written to `path` (a new file, readable by this user only) as it arrives. */
export async function saveBody(req: IncomingMessage, bounds: BodyBounds, path: string): Promise<void> {
  const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => undefined);
  try {
    // Back-pressure: the request pauses while the file catches up.
    await Promise.race([
      receive(req, bounds, (chunk) => {
        if (!out.write(chunk)) {
          req.pause();
          out.once('drain', () => req.resume());
        }
      }),
      failed,
    ]);
    await Promise.race([new Promise<void>((resolve) => out.end(resolve)), failed]);
  } finally {
    out.destroy();
  }
}
