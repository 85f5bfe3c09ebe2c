import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Rational, mean } from './rational.js';
import { quantile } from './quantile.js';

const r = (text: string) => Rational.parse(text);

describe('Rational', () => {
  it('reduces and normalizes signs', () => {
    expect(Rational.of(6n, -4n).toFraction()).toBe('-3/2');
    expect(Rational.of(0n, 7n).toFraction()).toBe('0/1');
    expect(() => Rational.of(1n, 0n)).toThrow(RangeError);
  });

  it('parses decimals and fractions exactly', () => {
    expect(r('12.50').toFraction()).toBe('25/2');
    expect(r('-0.001').toFraction()).toBe('-1/1000');
    expect(r('6/8').toFraction()).toBe('3/4');
    expect(() => r('1e3')).toThrow(RangeError);
  });

  it('does exact arithmetic', () => {
    expect(r('1/3').add(r('1/6')).toFraction()).toBe('1/2');
    expect(r('1/3').sub(r('1/2')).toFraction()).toBe('-1/6');
    expect(r('2/3').mul(r('9/4')).toFraction()).toBe('3/2');
    expect(r('2/3').div(r('4/9')).toFraction()).toBe('3/2');
    expect(mean([r('1'), r('2'), r('4')]).toFraction()).toBe('7/3');
  });

  it('rounds half-even for display', () => {
    expect(r('0.25').toFixed(1)).toBe('0.2');
    expect(r('0.35').toFixed(1)).toBe('0.4');
    expect(r('-0.25').toFixed(1)).toBe('-0.2');
    expect(r('-0.26').toFixed(1)).toBe('-0.3');
    expect(r('2/3').toFixed(3)).toBe('0.667');
    expect(r('53.15').toFixed(0)).toBe('53');
    expect(r('-0.04').toFixed(1)).toBe('0.0');
  });

  it('compares like the decimal values (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 1, max: 50 }), fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 1, max: 50 }), (a, b, c, d) => {
        const x = Rational.of(a, b);
        const y = Rational.of(c, d);
        expect(Math.sign(x.cmp(y))).toBe(Math.sign(a * d - c * b));
        expect(x.add(y).sub(y).eq(x)).toBe(true);
      }),
    );
  });
});

describe('type-7 quantile', () => {
  // numpy.quantile(x, p) (method "linear" = type 7) on x = [1, 2, 4, 8, 16]
  it.each([
    ['0', '1/1'],
    ['1/10', '7/5'],
    ['1/2', '4/1'],
    ['39/40', '76/5'],
    ['1', '16/1'],
  ])('p = %s gives %s', (p, expected) => {
    expect(quantile(['16', '1', '8', '2', '4'].map(r), r(p)).toFraction()).toBe(expected);
  });

  it('handles one value and rejects an empty list', () => {
    expect(quantile([r('3')], r('1/2')).toFraction()).toBe('3/1');
    expect(() => quantile([], r('1/2'))).toThrow(RangeError);
  });
});
