import { describe, expect, it } from 'vitest';
import { AgentError, EmberError, MismatchError, ModelOutputError, OutputError, ValidationError } from '../../core/errors.js';
import { fromWire, toWire } from './protocol.js';

/** Through structured-clone-able data and back, as between a worker and the runner. */
function roundTrip(error: unknown): Error {
  return fromWire(structuredClone(toWire(error)));
}

describe('errors between workers and the runner', () => {
  it('keeps an AgentError with its failure kind', () => {
    const back = roundTrip(new AgentError('timeout', 'act took longer than 300 ms'));
    expect(back).toBeInstanceOf(AgentError);
    expect(back).not.toBeInstanceOf(ModelOutputError);
    expect((back as AgentError).failure).toBe('timeout');
    expect(back.message).toBe('act took longer than 300 ms');
  });

  it('keeps a ModelOutputError as invalid_output', () => {
    const back = roundTrip(new ModelOutputError('step 0: action set is missing p0001'));
    expect(back).toBeInstanceOf(ModelOutputError);
    expect((back as AgentError).failure).toBe('invalid_output');
  });

  it.each([
    [new ValidationError('v'), ValidationError],
    [new MismatchError('m'), MismatchError],
    [new OutputError('o'), OutputError],
  ])('keeps %s', (error, errorClass) => {
    expect(roundTrip(error)).toBeInstanceOf(errorClass);
  });

  it('keeps an interrupted error and turns anything else into a plain Error (a bug, exit 1)', () => {
    expect((roundTrip(new EmberError('interrupted', 'interrupted')) as EmberError).kind).toBe('interrupted');
    const bug = roundTrip(new TypeError('x is not a function'));
    expect(bug).not.toBeInstanceOf(EmberError);
    expect(bug.message).toBe('x is not a function');
    expect(bug.stack).toContain('TypeError: x is not a function');
  });
});
