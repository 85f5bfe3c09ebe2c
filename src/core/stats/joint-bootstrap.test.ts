import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Bytes } from '../hash.js';
import { bootstrapStatistics } from './bootstrap.js';
import { buildHierarchy } from './hierarchy.js';
import { jointBootstrapStatistics, jointInterval, statisticRationals, type BootstrapUnit } from './joint-bootstrap.js';
import { quantile } from './quantile.js';
import { Rational, mean } from './rational.js';
import { BootstrapStream } from './stream.js';

/**
 * The definition, written as plainly as possible: the draw structure over
 * the units, then per metric the family-balanced mean of the defined drawn
 * values with Rational arithmetic (drawn scenarios and families with no
 * defined value left out; null when nothing is defined).
 */
function referenceStatistics(units: readonly BootstrapUnit[], metrics: readonly (readonly (Rational | null)[])[], seed32: Uint8Array, resamples: number): (Rational | null)[][] {
  const families = new Map<string, Map<string, number[]>>();
  units.forEach((u, i) => {
    if (!families.has(u.family)) families.set(u.family, new Map());
    const scenarios = families.get(u.family)!;
    if (!scenarios.has(u.scenarioId)) scenarios.set(u.scenarioId, []);
    scenarios.get(u.scenarioId)!.push(i);
  });
  const structure = [...families.keys()].sort().map((f) => [...families.get(f)!.values()]);
  const stream = new BootstrapStream(seed32);
  const out: (Rational | null)[][] = metrics.map(() => []);
  for (let b = 0; b < resamples; b++) {
    // drawn[f] = the drawn scenarios of family f, each as its drawn unit indices.
    const drawn = structure.map((scenarios) => {
      const picks = scenarios.map(() => scenarios[stream.uniform(scenarios.length)]!);
      return picks.map((members) => members.map(() => members[stream.uniform(members.length)]!));
    });
    metrics.forEach((values, m) => {
      const familyMeans: Rational[] = [];
      for (const scenarios of drawn) {
        const scenarioMeans: Rational[] = [];
        for (const members of scenarios) {
          const defined = members.map((i) => values[i] ?? null).filter((v): v is Rational => v !== null);
          if (defined.length > 0) scenarioMeans.push(mean(defined));
        }
        if (scenarioMeans.length > 0) familyMeans.push(mean(scenarioMeans));
      }
      out[m]!.push(familyMeans.length === 0 ? null : mean(familyMeans));
    });
  }
  return out;
}

const fractions = (list: readonly (Rational | null)[]) => list.map((r) => (r === null ? null : r.toFraction()));

// Values: small fractions, large integers, negatives, and denominators near 2^61 and 2^31 so the
// common denominator needs several limbs.
const valueArb = fc.oneof(
  fc.constant(null),
  fc.tuple(fc.integer({ min: -50, max: 50 }), fc.integer({ min: 1, max: 12 })).map(([n, d]) => Rational.of(n, d)),
  fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }).map((n) => Rational.of(n)),
  fc.tuple(fc.bigInt({ min: -(1n << 64n), max: 1n << 64n }), fc.constantFrom(2305843009213693951n, 2147483647n, 3n ** 40n)).map(([n, d]) => Rational.of(n, d)),
);

const caseArb = fc
  .array(fc.record({ family: fc.constantFrom('f1', 'f0', 'F', 'g'), scenarioId: fc.constantFrom('s1', 's2', 's3', 's4', 's5') }), { minLength: 1, maxLength: 14 })
  .chain((units) =>
    fc.record({
      units: fc.constant(units),
      metrics: fc.array(fc.array(valueArb, { minLength: units.length, maxLength: units.length }), { minLength: 1, maxLength: 3 }),
      seed: fc.string(),
      resamples: fc.integer({ min: 1, max: 12 }),
    }),
  );

describe('joint bootstrap', () => {
  it('equals the plain Rational definition on random hierarchies, values and seeds', () => {
    fc.assert(
      fc.property(caseArb, ({ units, metrics, seed, resamples }) => {
        const seed32 = sha256Bytes(seed);
        const joint = jointBootstrapStatistics(units, metrics, seed32, resamples);
        const reference = referenceStatistics(units, metrics, seed32, resamples);
        expect(joint.map((j) => fractions(statisticRationals(j)))).toEqual(reference.map(fractions));
        joint.forEach((j, m) => {
          const defined = reference[m]!.filter((r): r is Rational => r !== null);
          const interval = jointInterval(j);
          if (defined.length === 0) expect(interval).toBeNull();
          else expect(interval).toEqual({ lower: quantile(defined, Rational.of(1n, 40n)), upper: quantile(defined, Rational.of(39n, 40n)) });
        });
      }),
      { numRuns: 150 },
    );
  });

  it('stays exact when a family sums 1,500 draws of many-limb values with every limb bit set', () => {
    // Values over a common denominator near 2^125 whose limbs are all ones: limb sums reach
    // 1500 * 2^B, the most the limb width B allows below 2^53.
    const units = Array.from({ length: 1500 }, (_, i) => ({ family: 'big', scenarioId: i < 1499 ? 'wide' : 'single' }));
    const allOnes = (1n << 120n) - 1n;
    const values = units.map((_, i) => (i % 4 === 3 ? null : Rational.of(i % 2 === 0 ? allOnes : -allOnes - BigInt(i), i % 3 === 0 ? 2305843009213693951n : 3n)));
    const seed = sha256Bytes('limbs');
    const joint = jointBootstrapStatistics(units, [values], seed, 2);
    expect(joint.map((j) => fractions(statisticRationals(j)))).toEqual(referenceStatistics(units, [values], seed, 2).map(fractions));
  });

  it('stays exact when k * n exceeds the directly indexed bucket keys (2^16)', () => {
    // Two families of 257 scenarios: 256 of one defined unit and one of 256 units, some undefined,
    // so k' * c reaches 257 * 256 and both families use the same keys (257 * 1).
    const units = ['wide-a', 'wide-b'].flatMap((family) => [
      ...Array.from({ length: 256 }, (_, i) => ({ family, scenarioId: `one-${i}` })),
      ...Array.from({ length: 256 }, () => ({ family, scenarioId: 'big' })),
    ]);
    const values = units.map((u, i) => (u.scenarioId === 'big' && i % 5 === 1 ? null : Rational.of(i * i - 300, 1 + (i % 7))));
    const seed = sha256Bytes('many keys');
    const joint = jointBootstrapStatistics(units, [values], seed, 3);
    expect(joint.map((j) => fractions(statisticRationals(j)))).toEqual(referenceStatistics(units, [values], seed, 3).map(fractions));
  });

  it('with every value defined, draws exactly like bootstrapStatistics over that hierarchy', () => {
    const units: BootstrapUnit[] = [];
    const values: Rational[] = [];
    for (let i = 0; i < 40; i++) {
      units.push({ family: `fam-${i % 3}`, scenarioId: `sc-${i % 7}` });
      values.push(Rational.of((i * 37) % 11, 1 + (i % 5)));
    }
    const seed = sha256Bytes('joint-vs-bootstrap');
    const joint = statisticRationals(jointBootstrapStatistics(units, [values], seed, 60)[0]!);
    const single = bootstrapStatistics(buildHierarchy(units.map((u, i) => ({ ...u, value: values[i]! }))), seed, 60);
    expect(fractions(joint)).toEqual(single.map((s) => s.toFraction()));
  });

  it('leaves out resamples with nothing defined and takes the interval over the others', () => {
    // One family: s0 has the only defined values, s1..s5 one undefined unit each. A resample
    // misses s0 in its 6 scenario draws with probability (5/6)^6, about 1/3.
    const units: BootstrapUnit[] = [
      ...Array.from({ length: 5 }, () => ({ family: 'f', scenarioId: 's0' })),
      ...Array.from({ length: 5 }, (_, i) => ({ family: 'f', scenarioId: `s${i + 1}` })),
    ];
    const values: (Rational | null)[] = [...[1, 2, 3, 4, 5].map((v) => Rational.of(v)), null, null, null, null, null];
    const j = jointBootstrapStatistics(units, [values], sha256Bytes('sparse'), 300)[0]!;
    const withStatistic = j.numerators.filter((n) => n !== null).length;
    expect(withStatistic).toBeGreaterThan(150);
    expect(withStatistic).toBeLessThan(250);
    const defined = statisticRationals(j).filter((r): r is Rational => r !== null);
    expect(jointInterval(j)).toEqual({ lower: quantile(defined, Rational.of(1n, 40n)), upper: quantile(defined, Rational.of(39n, 40n)) });
    // Nothing defined at all: no statistic in any resample, no interval.
    const none = jointBootstrapStatistics(units, [values.map(() => null)], sha256Bytes('sparse'), 20)[0]!;
    expect(none.numerators.every((n) => n === null)).toBe(true);
    expect(jointInterval(none)).toBeNull();
  });

  it('shares one stream: a metric statistic does not depend on the other metrics', () => {
    const units = Array.from({ length: 12 }, (_, i) => ({ family: `f${i % 2}`, scenarioId: `s${i % 4}` }));
    const a = units.map((_, i) => (i % 5 === 0 ? null : Rational.of(i, 3)));
    const b = units.map((_, i) => Rational.of(-i * i, 7));
    const seed = sha256Bytes('shared');
    const both = jointBootstrapStatistics(units, [a, b], seed, 25);
    const alone = jointBootstrapStatistics(units, [b], seed, 25);
    expect(fractions(statisticRationals(both[1]!))).toEqual(fractions(statisticRationals(alone[0]!)));
  });
});
