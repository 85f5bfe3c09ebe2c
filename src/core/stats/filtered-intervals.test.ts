import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Bytes } from '../hash.js';
import { jointBootstrapIntervals } from './filtered-intervals.js';
import { jointBootstrapStatistics, jointInterval, type BootstrapUnit } from './joint-bootstrap.js';
import { Rational } from './rational.js';

/** The oracle: every resample's exact statistic, sorted, then the type-7 quantiles (joint-bootstrap.ts). */
function exactIntervals(units: readonly BootstrapUnit[], metrics: readonly (readonly (Rational | null)[])[], seed32: Uint8Array, resamples: number) {
  return jointBootstrapStatistics(units, metrics, seed32, resamples).map(jointInterval);
}

const asText = (list: ReturnType<typeof exactIntervals>) => list.map((i) => (i === null ? null : [i.lower.toFraction(), i.upper.toFraction()]));

// Values that tie often (few small integers), fractions, huge and tiny magnitudes (the double
// filter's error bound and its exact fallbacks), near-equal neighbours, negatives, nulls.
const valueArb = fc.oneof(
  fc.constant(null),
  fc.integer({ min: -2, max: 2 }).map((n) => Rational.of(n)),
  fc.tuple(fc.integer({ min: -50, max: 50 }), fc.integer({ min: 1, max: 64 })).map(([n, d]) => Rational.of(n, d)),
  fc.tuple(fc.bigInt({ min: -(1n << 80n), max: 1n << 80n }), fc.constantFrom(2305843009213693951n, 3n ** 40n, 1n)).map(([n, d]) => Rational.of(n, d)),
  // 10^20 + tiny: neighbours that doubles cannot tell apart.
  fc.integer({ min: 0, max: 3 }).map((k) => Rational.of(10n ** 40n + BigInt(k), 10n ** 20n)),
  fc.constantFrom(Rational.of(1n, 10n ** 400n), Rational.of(10n ** 400n)),
);

const caseArb = fc
  .array(fc.record({ family: fc.constantFrom('f1', 'f0', 'g'), scenarioId: fc.constantFrom('s1', 's2', 's3', 's4') }), { minLength: 1, maxLength: 30 })
  .chain((units) =>
    fc.record({
      units: fc.constant(units),
      metrics: fc.array(fc.array(valueArb, { minLength: units.length, maxLength: units.length }), { minLength: 1, maxLength: 4 }),
      seed: fc.string(),
      resamples: fc.integer({ min: 1, max: 120 }),
    }),
  );

describe('jointBootstrapIntervals (double filter, exact order statistics)', () => {
  it('equals the intervals of the exact statistics on random hierarchies, values and seeds', () => {
    fc.assert(
      fc.property(caseArb, ({ units, metrics, seed, resamples }) => {
        const seed32 = sha256Bytes(seed);
        expect(asText(jointBootstrapIntervals(units, metrics, seed32, resamples))).toEqual(asText(exactIntervals(units, metrics, seed32, resamples)));
      }),
      { numRuns: 400, seed: 8 },
    );
  });

  it('equals them with 2000 resamples over 600 episodes with few distinct values (many ties) and with many', () => {
    const units = Array.from({ length: 600 }, (_, i) => ({ family: `fam-${i % 4}`, scenarioId: `sc-${i % 20}` }));
    const metrics = [
      units.map((_, i) => Rational.of((i * 7) % 3)),
      units.map((_, i) => (i % 11 === 0 ? null : Rational.of((i * 37) % 101, 1 + (i % 13)))),
      units.map((_, i) => Rational.of(i % 2 === 0 ? 1 : 0)),
      units.map(() => Rational.of(5n, 7n)),
      units.map((_, i) => (i === 17 ? Rational.of(1) : null)),
    ];
    const seed32 = sha256Bytes('ties');
    expect(asText(jointBootstrapIntervals(units, metrics, seed32, 2000))).toEqual(asText(exactIntervals(units, metrics, seed32, 2000)));
  });

  it('gives no interval when no resample has a statistic, and the value itself for a constant metric', () => {
    const units = [
      { family: 'f', scenarioId: 'a' },
      { family: 'f', scenarioId: 'b' },
    ];
    const seed32 = sha256Bytes('none');
    const [none, constant] = jointBootstrapIntervals(units, [[null, null], [Rational.of(3n, 4n), Rational.of(3n, 4n)]], seed32, 10);
    expect(none).toBeNull();
    expect(constant).toEqual({ lower: Rational.of(3n, 4n), upper: Rational.of(3n, 4n) });
  });
});
