import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gcd } from '../bigint-math.js';
import { formatFraction, fractionOrNull, parseFraction, reduceFraction } from './fraction.js';

describe('exact fraction strings', () => {
  it('reduces and writes "num/den" with den >= 1', () => {
    expect(formatFraction(6, 8)).toBe('3/4');
    expect(formatFraction(0, 5)).toBe('0/1');
    expect(formatFraction(7, 7)).toBe('1/1');
    expect(formatFraction(14, 2)).toBe('7/1');
    expect(formatFraction(3, -6)).toBe('-1/2');
    expect(formatFraction(-3, -6)).toBe('1/2');
    expect(formatFraction(18, 7)).toBe('18/7');
  });

  it('matches Python fractions.Fraction on large values', () => {
    // python3 -c "from fractions import Fraction as F; print(F(2**70 * 3, 2**65 * 9), F(10**30 - 1, 10**20 - 1), F(123456789012345678, 987654321098765432))"
    expect(formatFraction(2n ** 70n * 3n, 2n ** 65n * 9n)).toBe('32/3');
    expect(formatFraction(10n ** 30n - 1n, 10n ** 20n - 1n)).toBe('100000000010000000001/10000000001');
    expect(formatFraction(123456789012345678n, 987654321098765432n)).toBe('61728394506172839/493827160549382716');
  });

  it('refuses a zero denominator and non-integers; fractionOrNull gives null for it', () => {
    expect(() => formatFraction(1, 0)).toThrow(RangeError);
    expect(() => formatFraction(0.5, 1)).toThrow(RangeError);
    expect(() => formatFraction(1, 2 ** 60)).toThrow(RangeError);
    expect(fractionOrNull(3, 0)).toBeNull();
    expect(fractionOrNull(0, 0)).toBeNull();
    expect(fractionOrNull(2, 4)).toBe('1/2');
  });

  it('computes gcd with signs and zero', () => {
    expect(gcd(0n, 0n)).toBe(0n);
    expect(gcd(0n, 9n)).toBe(9n);
    expect(gcd(-12n, 18n)).toBe(6n);
  });

  it('parses only the canonical form', () => {
    expect(parseFraction('3/4')).toEqual({ num: 3n, den: 4n });
    expect(parseFraction('-1/2')).toEqual({ num: -1n, den: 2n });
    expect(parseFraction('0/1')).toEqual({ num: 0n, den: 1n });
    for (const bad of ['6/8', '0/5', '1/0', '3', '03/4', '3/04', '-0/1', ' 3/4', '3/-4', '3.0/4', '+3/4', '1/1 ']) {
      expect(() => parseFraction(bad), bad).toThrow(RangeError);
    }
  });

  it('round-trips and keeps the value for any integers', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n }), fc.bigInt({ min: 1n, max: 10n ** 24n }), (n, d) => {
        const text = formatFraction(n, d);
        const f = parseFraction(text);
        expect(f).toEqual(reduceFraction(n, d));
        expect(f.num * d).toBe(n * f.den); // same value
        expect(gcd(f.num, f.den)).toBe(1n);
      }),
    );
  });
});
