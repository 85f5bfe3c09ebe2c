import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errnoCode, errnoText } from './errno.js';

function failureOf(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('errno', () => {
  it('names a file-system failure by its code', () => {
    const error = failureOf(() => readFileSync('/nonexistent/ember/file'));
    expect(errnoCode(error)).toBe('ENOENT');
    expect(errnoText(error)).toBe('ENOENT');
  });

  it('falls back to the message, then to the value itself', () => {
    expect(errnoCode(new Error('disk on fire'))).toBeUndefined();
    expect(errnoText(new Error('disk on fire'))).toBe('disk on fire');
    expect(errnoText(null)).toBe('null');
    expect(errnoCode({ code: 42 })).toBeUndefined();
  });
});
