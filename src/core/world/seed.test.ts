import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { isSeed, parseSeed } from './seed.js';

describe('seeds', () => {
  it.each(['0', '1', '42', '9007199254740993', '18446744073709551615'])('accepts %j', (text) => {
    expect(isSeed(text)).toBe(true);
    expect(parseSeed(text, 'seed')).toBe(text);
  });

  it.each(['', '-1', '+1', '01', '00', ' 1', '1 ', '1.0', '1e3', '0x10', '18446744073709551616', '99999999999999999999', '１'])(
    'rejects %j',
    (text) => {
      expect(isSeed(text)).toBe(false);
      expect(() => parseSeed(text, '--seed')).toThrow(ValidationError);
      expect(() => parseSeed(text, '--seed')).toThrow(
        '--seed: must be a decimal string in [0, 2^64 - 1] (digits only, no sign, spaces or leading zeros)',
      );
    },
  );

  it('rejects non-strings in isSeed', () => {
    expect(isSeed(5)).toBe(false);
    expect(isSeed(null)).toBe(false);
  });
});
