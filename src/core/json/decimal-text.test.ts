import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalTextOfJsonNumber, decimalTextOfNumber, normalDecimalText } from './decimal-text.js';
import { parseStrictJson } from './strict-parse.js';

describe('exact decimal text', () => {
  it('spells a JSON number token by its exact value', () => {
    const cases: [string, string][] = [
      ['0.60', '0.6'], ['7.0', '7'], ['0', '0'], ['-0', '0'], ['-0.0', '0'], ['1e-7', '0.0000001'], ['1E+3', '1000'],
      ['-2.5E1', '-25'], ['12.3400e-2', '0.1234'], ['0.1234567890123456789', '0.1234567890123456789'], ['10e-1', '1'],
    ];
    for (const [token, text] of cases) expect([token, decimalTextOfJsonNumber(token)]).toEqual([token, text]);
    for (const bad of ['.5', '01', '1.', '+1', '1e', '0x10', '1e401', ' 1']) expect([bad, decimalTextOfJsonNumber(bad)]).toEqual([bad, undefined]);
  });

  it('normalises plain decimal strings and refuses signs, exponents and stray characters', () => {
    expect(['0.60', '00.5', '1.000', '000', '3'].map(normalDecimalText)).toEqual(['0.6', '0.5', '1', '0', '3']);
    expect(['-1', '1e3', '.5', '1.', ' 1', '1,5', ''].map(normalDecimalText)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it('agrees with the value: the spelling parses back to the same double, for any double JSON.parse can give', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const text = decimalTextOfNumber(value);
        expect(Number(text)).toBe(value === 0 ? 0 : value);
      }),
      { numRuns: 500 },
    );
  });

  it('a strict parse keeps non-integers as decimal text only when asked to', () => {
    expect(parseStrictJson('{"t": 0.70, "n": 3, "e": 2e-3}', 'decimal-text')).toEqual({ t: '0.7', n: 3, e: '0.002' });
    expect(() => parseStrictJson('{"t": 0.70}')).toThrow(/non-canonical number 0.70/);
    expect(() => parseStrictJson('{"t": 1e999}', 'decimal-text')).toThrow(/exponent beyond/);
  });
});
