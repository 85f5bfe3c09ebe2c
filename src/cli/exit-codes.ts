/**
 * Exit codes (cli-v1.0.md "Exit codes") and the mapping from an error to its
 * code, kind and message. The table is pinned by a test.
 */

import { EmberError, isEmberError, type ErrorKind } from '../core/errors.js';
import { cliMessage } from './field-flags.js';

export const EXIT_CODES = {
  ok: 0,
  internal: 1,
  usage: 2,
  validation: 3,
  agent: 4,
  mismatch: 5,
  output: 6,
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** Ctrl+C (SIGINT): temporary files are removed and the command exits 130. */
export class InterruptedError extends EmberError {
  override name = 'InterruptedError';
  constructor() {
    super('interrupted', 'interrupted');
  }
}

export function exitCodeOf(kind: ErrorKind): ExitCode {
  switch (kind) {
    case 'usage':
      return EXIT_CODES.usage;
    case 'validation':
      return EXIT_CODES.validation;
    case 'agent':
      return EXIT_CODES.agent;
    case 'mismatch':
      return EXIT_CODES.mismatch;
    case 'output':
      return EXIT_CODES.output;
    case 'internal':
      return EXIT_CODES.internal;
    case 'interrupted':
      return EXIT_CODES.interrupted;
  }
}

/** The message for an error that is not a benchmark error: a bug. */
export const INTERNAL_MESSAGE = 'unexpected failure (a bug); rerun with --debug for a traceback';

export interface ErrorReport {
  readonly exitCode: ExitCode;
  readonly kind: ErrorKind;
  /** One line: deterministic for the same inputs. */
  readonly message: string;
}

/** Classifies a thrown value. Anything that is not an EmberError is internal (exit 1). */
export function errorReport(error: unknown): ErrorReport {
  if (isEmberError(error)) {
    // Library messages are single-line by contract; a stray newline must not
    // break the one-line error output.
    // Field names become flags here (field-flags.ts).
    const message = cliMessage(error).replace(/\r?\n/g, ' ');
    return { exitCode: exitCodeOf(error.kind), kind: error.kind, message };
  }
  return { exitCode: EXIT_CODES.internal, kind: 'internal', message: INTERNAL_MESSAGE };
}
