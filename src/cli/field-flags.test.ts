import { describe, expect, it } from 'vitest';
import { EmberError, UsageError, fieldError } from '../core/errors.js';
import { errorReport } from './exit-codes.js';
import { FIELD_FLAGS, cliMessage } from './field-flags.js';

describe('field errors on the command line', () => {
  it('writes a service field as its flag, once, in the error report', () => {
    expect(errorReport(fieldError('jobs', 'must be an integer from 1 to 8 (four per core)')).message).toBe('--jobs: must be an integer from 1 to 8 (four per core)');
    expect(errorReport(fieldError('modelId', 'must not be empty')).message).toBe('--model-id: must not be empty');
    expect(cliMessage(fieldError('seeds', 'the seed given in position 2 duplicates an earlier one (seeds must be distinct)'))).toBe(
      '--seed: the seed given in position 2 duplicates an earlier one (seeds must be distinct)',
    );
  });

  it('leaves messages without a known field, or not starting with it, unchanged', () => {
    expect(cliMessage(new UsageError('missing required option: --out FILE'))).toBe('missing required option: --out FILE');
    expect(cliMessage(new UsageError('colour: must be red', { field: 'colour' }))).toBe('colour: must be red');
    expect(cliMessage(new EmberError('output', 'cannot write jobs.json', { field: 'jobs' }))).toBe('cannot write jobs.json');
  });

  it('maps every field to a flag the CLI has', () => {
    for (const flag of Object.values(FIELD_FLAGS)) expect(flag).toMatch(/^--[a-z][a-z-]*$/);
  });
});
