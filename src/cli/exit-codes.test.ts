import { describe, expect, it } from 'vitest';
import { AgentError, MismatchError, ModelOutputError, OutputError, UsageError, ValidationError, type ErrorKind } from '../core/errors.js';
import { EXIT_CODES, INTERNAL_MESSAGE, InterruptedError, errorReport, exitCodeOf } from './exit-codes.js';

describe('exit codes (cli-v1.0.md "Exit codes")', () => {
  it('pins the exit code list', () => {
    expect(EXIT_CODES).toEqual({ ok: 0, internal: 1, usage: 2, validation: 3, agent: 4, mismatch: 5, output: 6, interrupted: 130 });
  });

  it('maps every error kind to its code', () => {
    const kinds: Record<ErrorKind, number> = { internal: 1, usage: 2, validation: 3, agent: 4, mismatch: 5, output: 6, interrupted: 130 };
    for (const [kind, code] of Object.entries(kinds)) expect(exitCodeOf(kind as ErrorKind)).toBe(code);
  });

  it('classifies every error class', () => {
    const cases: [unknown, number, ErrorKind][] = [
      [new UsageError('u'), 2, 'usage'],
      [new ValidationError('v'), 3, 'validation'],
      [new AgentError('model_error', 'a'), 4, 'agent'],
      [new AgentError('timeout', 't'), 4, 'agent'],
      [new ModelOutputError('m'), 4, 'agent'],
      [new MismatchError('x'), 5, 'mismatch'],
      [new OutputError('o'), 6, 'output'],
      [new InterruptedError(), 130, 'interrupted'],
    ];
    for (const [error, code, kind] of cases) {
      expect(errorReport(error)).toEqual({ exitCode: code, kind, message: (error as Error).message });
    }
  });

  it('reports anything else as an internal error without its message', () => {
    for (const error of [new TypeError('secret detail'), 'a string', undefined, { code: 'ENOENT' }]) {
      expect(errorReport(error)).toEqual({ exitCode: 1, kind: 'internal', message: INTERNAL_MESSAGE });
    }
    expect(INTERNAL_MESSAGE).toBe('unexpected failure (a bug); rerun with --debug for a traceback');
  });

  it('keeps a message on one line', () => {
    expect(errorReport(new ValidationError('a\nb\r\nc')).message).toBe('a b c');
  });
});
