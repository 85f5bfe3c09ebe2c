/**
 * The benchmark's error classes. Each has a `kind` that the CLI maps to its
 * exit code (cli-v1.0.md "Exit codes") and the app shows as an error value.
 */

export type ErrorKind = 'usage' | 'validation' | 'agent' | 'mismatch' | 'output' | 'internal' | 'interrupted';

/** Failure kinds of an episode that has no committed result (scoring-v1.0.md 4.4). */
export type FailureKind = 'invalid_output' | 'model_error' | 'timeout';

/**
 * `field` names the input a service error is about, in the service's own
 * terms (`jobs`, `modelId`), never a command-line flag: the message then
 * starts with `field: `. The CLI maps each field to its flag in one place
 * (src/cli/field-flags.ts); the app shows the field next to its control.
 */
export interface ErrorOptions {
  readonly field?: string;
}

export class EmberError extends Error {
  override name = 'EmberError';
  readonly field: string | undefined;
  constructor(
    readonly kind: ErrorKind,
    message: string,
    options: ErrorOptions = {},
  ) {
    super(message);
    this.field = options.field;
  }
}

/** Malformed or tampered input, or a failed library check (exit 3). */
export class ValidationError extends EmberError {
  override name = 'ValidationError';
  constructor(message: string) {
    super('validation', message);
  }
}

/** A replay does not reproduce a record, or a result does not match the required manifest (exit 5). */
export class MismatchError extends EmberError {
  override name = 'MismatchError';
  constructor(message: string) {
    super('mismatch', message);
  }
}

/** The agent failed: cannot be loaded, raised, timed out or produced a rejected action set (exit 4). */
export class AgentError extends EmberError {
  override name = 'AgentError';
  constructor(
    readonly failure: FailureKind,
    message: string,
  ) {
    super('agent', message);
  }
}

/** A model output error: the action set fails the action check (invalid_output). */
export class ModelOutputError extends AgentError {
  override name = 'ModelOutputError';
  constructor(message: string) {
    super('invalid_output', message);
  }
}

/**
 * The model's endpoint cannot serve any call: it refused the credentials
 * (HTTP 401 or 403) or could not be reached after the retry policy
 * (connection refused, unknown host). Every later episode would fail the
 * same way, so the run stops at the first one, also with
 * --continue-on-failure, and no failure is declared for it: once the key
 * or the base URL is fixed, --resume (or Resume) runs it again.
 */
export class EndpointError extends AgentError {
  override name = 'EndpointError';
  constructor(message: string) {
    super('model_error', message);
  }
}

/** A malformed command line or argument value (exit 2). */
export class UsageError extends EmberError {
  override name = 'UsageError';
  constructor(message: string, options: ErrorOptions = {}) {
    super('usage', message, options);
  }
}

/** A bad value of one named input: `field: problem` (exit 2). */
export function fieldError(field: string, problem: string): UsageError {
  return new UsageError(`${field}: ${problem}`, { field });
}

/** The output cannot be written (exit 6). */
export class OutputError extends EmberError {
  override name = 'OutputError';
  constructor(message: string) {
    super('output', message);
  }
}

export function isEmberError(error: unknown): error is EmberError {
  return error instanceof EmberError;
}
