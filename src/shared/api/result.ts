/**
 * Errors as values across a process boundary (the Signal-Desktop pattern):
 * every procedure of the workbench contract answers `{ok: true, value}` or
 * `{ok: false, error}`, never a thrown exception, so the renderer handles a
 * failure like any other answer and a transport never has to serialize an
 * Error object.
 */

/**
 * What went wrong, as the renderer shows it. The library's error kinds
 * (src/core/errors.ts) plus the ones only a service can raise.
 */
export type ApiErrorKind =
  | 'usage' // a bad argument value: `field` names the input field at fault
  | 'validation' // malformed or tampered input (CLI exit 3)
  | 'agent' // the agent failed (CLI exit 4)
  | 'mismatch' // replay or manifest mismatch (CLI exit 5)
  | 'output' // a file cannot be written (CLI exit 6)
  | 'interrupted' // cancelled
  | 'not_found' // no such trial, suite, pack, manifest or run
  | 'conflict' // e.g. the archive is in use by another process, a run is already active
  | 'bad_request' // the call itself is malformed: unknown procedure or input failing its schema
  | 'unavailable' // the browser-mode server does not answer (stopped): a transport's error, never a service's
  | 'internal'; // a bug: the message says so

export interface ApiError {
  readonly kind: ApiErrorKind;
  readonly message: string;
  /** The input field at fault (a dotted path such as `agent.id`), when one is. */
  readonly field?: string;
}

export type ApiResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ApiError };

export function ok<T>(value: T): ApiResult<T> {
  return { ok: true, value };
}

export function fail(kind: ApiErrorKind, message: string, field?: string): ApiResult<never> {
  return { ok: false, error: field === undefined ? { kind, message } : { kind, message, field } };
}
