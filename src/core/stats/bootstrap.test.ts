import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Bytes } from '../hash.js';
import { bootstrapInterval, bootstrapStatistics, exactBootstrapInterval } from './bootstrap.js';
import { buildHierarchy, familyBalancedMean, microMean, scenarioBalancedMean, type Hierarchy } from './hierarchy.js';
import { Rational } from './rational.js';

const r = (t: string) => Rational.parse(t);

// Two families; "alpha" has two scenarios, "beta" one.
const UNITS = [
  { family: 'beta', scenarioId: 'b1', value: r('7/10') },
  { family: 'alpha', scenarioId: 'a1', value: r('1/3') },
  { family: 'alpha', scenarioId: 'a1', value: r('50') },
  { family: 'alpha', scenarioId: 'a2', value: r('10') },
  { family: 'beta', scenarioId: 'b1', value: r('0') },
  { family: 'alpha', scenarioId: 'a1', value: r('99/2') },
  { family: 'alpha', scenarioId: 'a2', value: r('20') },
  { family: 'beta', scenarioId: 'b1', value: r('100') },
  { family: 'beta', scenarioId: 'b1', value: r('33') },
  { family: 'beta', scenarioId: 'b2', value: null },
];

describe('aggregation hierarchy', () => {
  const h = buildHierarchy(UNITS);

  it('groups families sorted, scenarios and episodes in manifest order, without null values', () => {
    expect(h.map((f) => [f.family, f.scenarios.map((s) => [s.scenarioId, s.values.map((v) => v.toFraction())])])).toEqual([
      ['alpha', [['a1', ['1/3', '50/1', '99/2']], ['a2', ['10/1', '20/1']]]],
      ['beta', [['b1', ['7/10', '0/1', '100/1', '33/1']]]],
    ]);
  });

  it('computes the family-balanced, scenario-balanced and micro means exactly', () => {
    // a1 = (1/3 + 50 + 99/2)/3 = 599/18, a2 = 15, alpha = (599/18 + 15)/2 = 869/36; b1 = 1337/40
    expect(familyBalancedMean(h)!.toFraction()).toBe(Rational.of(869n, 36n).add(Rational.of(1337n, 40n)).div(Rational.of(2n)).toFraction());
    expect(scenarioBalancedMean(h)!.toFraction()).toBe(r('599/18').add(r('15')).add(r('1337/40')).div(r('3')).toFraction());
    expect(microMean(h)!.toFraction()).toBe(r('1/3').add(r('50')).add(r('99/2')).add(r('30')).add(r('1337/10')).div(r('9')).toFraction());
    expect(familyBalancedMean([])).toBeNull();
  });
});

describe('stratified two-stage bootstrap', () => {
  // Reference: a direct Python implementation with fractions.Fraction and the
  // SHAKE-256 stream seeded with hashlib.sha256(b"bootstrap-test").digest(), 50 resamples.
  const h: Hierarchy = buildHierarchy(UNITS);
  const seed = sha256Bytes('bootstrap-test');

  it('reproduces the reference resample statistics in draw order', () => {
    const stats = bootstrapStatistics(h, seed, 50);
    expect(stats.slice(0, 5).map((s) => s.toFraction())).toEqual(['607/80', '3941/240', '5881/240', '1037/80', '23723/720']);
  });

  it('reproduces the reference type-7 2.5% and 97.5% bounds', () => {
    const interval = bootstrapInterval(h, seed, 50)!;
    expect([interval.lower.toFraction(), interval.upper.toFraction()]).toEqual(['27467/3200', '5189/96']);
  });

  it('gives no interval with fewer than 5 applicable episodes, and refuses bad resample counts', () => {
    const small = buildHierarchy(UNITS.slice(0, 4));
    expect(bootstrapInterval(small, seed, 50)).toBeNull();
    expect(() => bootstrapStatistics(h, seed, 0)).toThrow(RangeError);
  });

  it('equals the interval of every exact resample statistic on random hierarchies', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('fa', 'fb', 'fc'), fc.constantFrom('s1', 's2', 's3'), fc.integer({ min: -30, max: 30 }), fc.integer({ min: 1, max: 9 })), { minLength: 5, maxLength: 40 }),
        fc.string(),
        fc.integer({ min: 1, max: 300 }),
        (rows, seedText, resamples) => {
          const hier = buildHierarchy(rows.map(([family, scenarioId, n, d]) => ({ family, scenarioId: `${family}-${scenarioId}`, value: Rational.of(n, d) })));
          const seed32 = sha256Bytes(seedText);
          const text = (i: ReturnType<typeof bootstrapInterval>) => (i === null ? null : [i.lower.toFraction(), i.upper.toFraction()]);
          expect(text(bootstrapInterval(hier, seed32, resamples))).toEqual(text(exactBootstrapInterval(hier, seed32, resamples)));
        },
      ),
      { numRuns: 200, seed: 11 },
    );
  });

  it('gives a zero-width interval when every value is equal', () => {
    const flat = buildHierarchy(UNITS.map((u) => ({ ...u, value: u.value && r('42') })));
    const interval = bootstrapInterval(flat, seed, 200)!;
    expect([interval.lower.toFraction(), interval.upper.toFraction()]).toEqual(['42/1', '42/1']);
  });
});
