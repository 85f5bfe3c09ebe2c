/**
 * What one request may cost the browser-mode server (docs/app.md
 * "Security"). Every limit is enforced for authenticated and refused
 * requests alike: a connection that sends nothing, sends its headers or
 * body too slowly, or a page that stops reading its event stream, is cut,
 * and no body is larger than its procedure needs. The defaults are far
 * above what the app sends; tests start servers with small ones.
 */

import type { ProcedureName } from '../../shared/api/contract.js';

const KiB = 1024;
const MiB = 1024 * KiB;

export interface ServerLimits {
  /** Open connections at once (a browser uses about 6 per server); more are closed on arrival. */
  readonly maxConnections: number;
  /** From connecting to the end of the request headers (Node answers 408 and closes). */
  readonly headersTimeoutMs: number;
  /** The longest pause between two pieces of a call body. */
  readonly bodyIdleTimeoutMs: number;
  /** A whole call body, from its headers to its last byte. */
  readonly bodyTimeoutMs: number;
  /** A kept-alive connection with no request in flight. */
  readonly idleTimeoutMs: number;
  /** How long a refused request's connection stays open after its answer (its body is never read). */
  readonly refusedLingerMs: number;
  /** Bytes queued for one event-stream page that does not read; past it the page is dropped (it reconnects). */
  readonly maxEventBufferBytes: number;
  /** A call body, unless its procedure has its own limit below. */
  readonly callBodyBytes: number;
  /** Generator configurations (a few lines in practice). */
  readonly generatorBodyBytes: number;
  /**
   * An import's body: written to a temporary file as it arrives, never held
   * in memory. A result read as one text is at most 500 MiB, and JSON
   * escaping at most doubles canonical (printable ASCII) text.
   */
  readonly importBodyBytes: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  maxConnections: 64,
  headersTimeoutMs: 10_000,
  bodyIdleTimeoutMs: 15_000,
  bodyTimeoutMs: 300_000,
  idleTimeoutMs: 5_000,
  refusedLingerMs: 1_000,
  maxEventBufferBytes: 4 * MiB,
  callBodyBytes: 1 * MiB,
  generatorBodyBytes: 8 * MiB,
  importBodyBytes: 1024 * MiB + 2 * MiB,
};

/** The body limit of one procedure's calls. */
export function callBodyLimit(name: ProcedureName, limits: ServerLimits): number {
  switch (name) {
    case 'archive.import':
      return limits.importBodyBytes;
    case 'generated.preview':
    case 'generated.create':
      return limits.generatorBodyBytes;
    default:
      return limits.callBodyBytes;
  }
}
