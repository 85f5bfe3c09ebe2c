import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { Rational } from '../stats/rational.js';
import { compareReports, comparisonSeed, comparisonSummary, comparisonText, decideOutcome, type ReportView } from './compare.js';
import { HEX_C, HEX_M, NINE, flat, r, view } from '../../../test/kits/report-views.js';

const RESAMPLES = 400;

function hex(bytes: Uint8Array): string {
  return [...bytes].map((x) => x.toString(16).padStart(2, '0')).join('');
}

describe('paired comparison outcomes', () => {
  it('exact_tie: every paired episode score identical', () => {
    const scores = ['10', '20.5', '30', '40', '50', '60', '70', '80', '90'];
    const c = compareReports(view({ modelId: 'a', scores, layout: NINE }), view({ modelId: 'b', scores, layout: NINE }), RESAMPLES);
    expect(c.outcome).toBe('exact_tie');
    expect(c.artifact.delta).toBe('0/1');
    expect(c.artifact.interval).toEqual({ lower: '0/1', upper: '0/1' });
  });

  it('a_better: the interval lies above 0 and delta >= 1 point', () => {
    const b = ['50', '40', '30', '60', '55', '45', '70', '20', '35'];
    const a = b.map((x, i) => r(x).add(r(String(3 + (i % 4)))).toFraction());
    const c = compareReports(view({ modelId: 'a', scores: a, layout: NINE }), view({ modelId: 'b', scores: b, layout: NINE }), RESAMPLES);
    expect(c.outcome).toBe('a_better');
    expect(c.interval!.lower.cmp(Rational.ZERO)).toBeGreaterThan(0);
    expect(c.delta!.cmp(Rational.ONE)).toBeGreaterThanOrEqual(0);
  });

  it('b_better: the mirror image, with delta = -(A better delta)', () => {
    const b = ['50', '40', '30', '60', '55', '45', '70', '20', '35'];
    const a = b.map((x, i) => r(x).add(r(String(3 + (i % 4)))).toFraction());
    const ab = compareReports(view({ modelId: 'a', scores: a, layout: NINE }), view({ modelId: 'b', scores: b, layout: NINE }), RESAMPLES);
    const ba = compareReports(view({ modelId: 'b', scores: b, layout: NINE }), view({ modelId: 'a', scores: a, layout: NINE }), RESAMPLES);
    expect(ba.outcome).toBe('b_better');
    expect(ba.delta!.eq(ab.delta!.neg())).toBe(true);
    expect(ba.interval!.upper.cmp(Rational.ZERO)).toBeLessThan(0);
  });

  it('inconclusive: a statistically clear difference below the practical difference of 1 point', () => {
    const b = ['50', '40', '30', '60', '55', '45', '70', '20', '35'];
    const a = b.map((x, i) => r(x).add(r(i % 2 === 0 ? '0.5' : '0.75')).toFraction());
    const c = compareReports(view({ modelId: 'a', scores: a, layout: NINE }), view({ modelId: 'b', scores: b, layout: NINE }), RESAMPLES);
    expect(c.interval!.lower.cmp(Rational.ZERO)).toBeGreaterThan(0);
    expect(c.delta!.cmp(Rational.ONE)).toBeLessThan(0);
    expect(c.outcome).toBe('inconclusive');
  });

  it('inconclusive: a large difference on fewer than 5 applicable episodes (no interval)', () => {
    const layout = flat(6);
    // Two of six episodes are not applicable (for both models): four remain.
    const b = ['10', null, '20', '30', null, '40'];
    const a = ['60', null, '70', '80', null, '90'];
    const c = compareReports(view({ modelId: 'a', scores: a, layout }), view({ modelId: 'b', scores: b, layout }), RESAMPLES);
    expect(c.artifact.applicable_episodes).toBe(4);
    expect(c.interval).toBeNull();
    expect(c.artifact.delta).toBe('50/1');
    expect(c.outcome).toBe('inconclusive');
  });

  it('inconclusive: an interval that straddles 0', () => {
    const b = ['50', '40', '30', '60', '55', '45', '70', '20', '35'];
    const a = b.map((x, i) => r(x).add(r(i % 2 === 0 ? '20' : '-18')).toFraction());
    const c = compareReports(view({ modelId: 'a', scores: a, layout: NINE }), view({ modelId: 'b', scores: b, layout: NINE }), RESAMPLES);
    expect(c.interval!.lower.cmp(Rational.ZERO)).toBeLessThan(0);
    expect(c.interval!.upper.cmp(Rational.ZERO)).toBeGreaterThan(0);
    expect(c.outcome).toBe('inconclusive');
  });

  it('decideOutcome applies the rules exactly at the boundaries', () => {
    const one = Rational.ONE;
    const d = [one];
    expect(decideOutcome(d, one, { lower: r('1/1000000'), upper: r('2') })).toBe('a_better');
    expect(decideOutcome(d, one, { lower: Rational.ZERO, upper: r('2') })).toBe('inconclusive');
    expect(decideOutcome(d, r('999999/1000000'), { lower: r('0.5'), upper: r('2') })).toBe('inconclusive');
    expect(decideOutcome([one.neg()], one.neg(), { lower: r('-2'), upper: r('-1/1000000') })).toBe('b_better');
    expect(decideOutcome([Rational.ZERO, Rational.ZERO], Rational.ZERO, null)).toBe('exact_tie');
    expect(decideOutcome([], null, null)).toBe('inconclusive');
  });
});

describe('paired comparison arithmetic', () => {
  it('delta equals score_a - score_b exactly, with unbalanced scenarios and fractions', () => {
    const layout = [
      { scenarioId: 'x1', primaryFamily: 'f' },
      { scenarioId: 'x1', primaryFamily: 'f' },
      { scenarioId: 'x2', primaryFamily: 'f' },
      { scenarioId: 'y1', primaryFamily: 'g' },
      { scenarioId: 'y1', primaryFamily: 'g' },
      { scenarioId: 'y1', primaryFamily: 'g' },
      { scenarioId: 'z1', primaryFamily: 'h' },
    ];
    const a = view({ modelId: 'a', scores: ['1/3', '97.123456789', '12', '0', '55.5', '1/7', '100'], layout });
    const b = view({ modelId: 'b', scores: ['2/3', '13.000000001', '12', '100', '44.25', '3/11', '0'], layout });
    const c = compareReports(a, b, RESAMPLES);
    expect(c.delta!.eq(a.score!.sub(b.score!))).toBe(true);
    // By hand: family f: ((1/3 - 2/3 + 97.123456789 - 13.000000001) / 2 + 0) / 2; g: (-100 + 11.25 + 1/7 - 3/11) / 3; h: 100.
    const f = r('1/3').sub(r('2/3')).add(r('84.123456788')).div(r('2')).div(r('2'));
    const g = r('-88.75').add(r('1/7')).sub(r('3/11')).div(r('3'));
    expect(c.delta!.eq(f.add(g).add(r('100')).div(r('3')))).toBe(true);
    expect(c.artifact.family_deltas.map((x) => x.family)).toEqual(['f', 'g', 'h']);
    expect(Rational.parse(c.artifact.family_deltas[0]!.delta).eq(f)).toBe(true);
  });

  it('lists the paired episodes sorted by difference, then index', () => {
    const layout = flat(5);
    const c = compareReports(
      view({ modelId: 'a', scores: ['10', '20', '30', '40', '50'], layout }),
      view({ modelId: 'b', scores: ['15', '20', '25', '40', '45'], layout }),
      RESAMPLES,
    );
    expect(c.artifact.episodes.map((e) => [e.index, e.difference])).toEqual([
      [0, '-5/1'],
      [1, '0/1'],
      [3, '0/1'],
      [2, '5/1'],
      [4, '5/1'],
    ]);
  });

  it('seeds the bootstrap with SHA-256 of the documented canonical JSON (vector from Python)', () => {
    const a = { constantsDigest: HEX_C, manifestHash: HEX_M, modelId: 'model-a', scoringVersion: '1.0' } as ReportView;
    const b = { modelId: 'model-b' } as ReportView;
    const seed = comparisonSeed(a, b, [r('1/2'), r('-3'), Rational.ZERO]);
    expect(hex(seed)).toBe('46ab43e6c6985c37c41a1bc71af154df16b94b524ea73b9a385ef7b666c69ed3');
  });

  it('is deterministic: the same inputs give the same artifact bytes; the seed depends on the model IDs', () => {
    const b = ['50', '40', '30', '60', '55', '45', '70', '20', '35'];
    const a = ['52', '41', '30', '61', '50', '49', '72', '20', '36'];
    const one = compareReports(view({ modelId: 'a', scores: a, layout: NINE }), view({ modelId: 'b', scores: b, layout: NINE }), RESAMPLES);
    const two = compareReports(view({ modelId: 'a', scores: a, layout: NINE }), view({ modelId: 'b', scores: b, layout: NINE }), RESAMPLES);
    const other = compareReports(view({ modelId: 'a2', scores: a, layout: NINE }), view({ modelId: 'b', scores: b, layout: NINE }), RESAMPLES);
    expect(comparisonText(one.artifact)).toBe(comparisonText(two.artifact));
    expect(comparisonText(one.artifact).endsWith('}\n')).toBe(true);
    expect(other.artifact.bootstrap_seed).not.toBe(one.artifact.bootstrap_seed);
    expect(comparisonSummary(one).length).toBeGreaterThan(3);
  });
});

describe('comparability', () => {
  const scores = ['10', '20', '30', '40', '50'];
  const layout = flat(5);
  const base = view({ modelId: 'a', scores, layout });
  const cases: [string, Partial<ReportView>, RegExp][] = [
    ['scoring version', { scoringVersion: '2.0' }, /different scoring versions/],
    ['constants', { constantsDigest: 'f'.repeat(64) }, /different scoring constants digests/],
    ['manifest', { manifestHash: 'f'.repeat(64) }, /different evaluation manifests/],
    ['official against unofficial', { official: true, packDigest: 'a'.repeat(64), packId: 'ember-pack-aaaaaaaaaaaaaaaa' }, /official and/],
  ];
  for (const [name, overrides, message] of cases) {
    it(`rejects a different ${name} (exit 3)`, () => {
      const other = view({ modelId: 'b', scores, layout, overrides });
      expect(() => compareReports(base, other, RESAMPLES)).toThrow(ValidationError);
      expect(() => compareReports(base, other, RESAMPLES)).toThrow(message);
    });
  }

  it('rejects two official scores on different packs', () => {
    const pack = (d: string): Partial<ReportView> => ({ official: true, packDigest: d.repeat(64), packId: `ember-pack-${d.repeat(16)}` });
    const a = view({ modelId: 'a', scores, layout, overrides: pack('1') });
    const b = view({ modelId: 'b', scores, layout, overrides: pack('2') });
    expect(() => compareReports(a, b, RESAMPLES)).toThrow(/different environment packs/);
    expect(compareReports(a, view({ modelId: 'b', scores, layout, overrides: pack('1') }), RESAMPLES).artifact.official).toBe(true);
  });

  it('rejects different applicable episodes', () => {
    const other = view({ modelId: 'b', scores: ['10', null, '30', '40', '50'], layout });
    expect(() => compareReports(base, other, RESAMPLES)).toThrow(/applicable in A only/);
  });

  it('rejects a report whose headline is not the mean of its episodes', () => {
    const other = view({ modelId: 'b', scores, layout, overrides: { score: r('31') } });
    expect(() => compareReports(base, other, RESAMPLES)).toThrow(/not the family-balanced mean/);
  });
});
