import { join } from 'node:path';
import { bytesToHex } from '@noble/hashes/utils.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { authenticateResult } from '../eval/authenticate.js';
import { ValidationError } from '../errors.js';
import { loadSuiteDir } from '../../node/inputs.js';
import type { Suite } from '../world/suite.js';
import {
  STATISTICS_METRICS,
  aggregateStatistics,
  hierarchyOf,
  scheduleValues,
  statisticsSubject,
  statisticsText,
  type StatisticsSubject,
} from './aggregate.js';
import { familyBalancedMean, familyMeans, scenarioMeans } from './hierarchy.js';
import { comparisonOutcome, pairedSeed, pairedStatistics, type PairedStatistics } from './paired.js';
import { Rational } from './rational.js';
import { subjectX, subjectY, tinyResultText, wideSubject } from '../../../test/kits/stats-results.js';

const TINY_SUITE = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'suites', 'tiny');
const r = (text: string) => Rational.parse(text);
const intervalsOf = (stats: PairedStatistics) => Object.fromEntries(Object.entries(stats.metrics).map(([name, m]) => [name, m.interval]));

/** Every metric's differences a - b per scheduled episode, null unless both are defined. */
function allDifferences(a: StatisticsSubject, b: StatisticsSubject): Map<string, (Rational | null)[]> {
  return new Map(
    STATISTICS_METRICS.map((m) => {
      const va = scheduleValues(a, m);
      const vb = scheduleValues(b, m);
      return [m.name, va.map((v, i) => (v !== null && vb[i] !== null ? v.sub(vb[i]!) : null))];
    }),
  );
}

// Python reference outputs (docs/statistics.md section 11).
const PAIRED_XY_2000 = {
  casualty_rate: { lower: '-13/144', upper: '263/720' },
  congestion_block_rate: { lower: '-23/48', upper: '7/48' },
  contested_cell_steps: { lower: '0/1', upper: '0/1' },
  evacuation_rate: { lower: '-133/360', upper: '7/144' },
  evacuation_steps_mean: { lower: '-13/32', upper: '5/12' },
  exit_throughput: null,
  fire_exposure_per_person: { lower: '0/1', upper: '0/1' },
  hotspot_cells: { lower: '0/1', upper: '0/1' },
  path_efficiency: null,
  peak_contested_cells: { lower: '0/1', upper: '0/1' },
  stranded_rate: { lower: '-1/8', upper: '1/6' },
};
const PAIRED_WIDE_200 = {
  casualty_rate: { lower: '-20798763694451992283/667431551982820584960', upper: '247729314464717181587/4171447199892628656000' },
  congestion_block_rate: { lower: '-102847/561600', upper: '1917211/6918912' },
  contested_cell_steps: { lower: '-73/36', upper: '-5/12' },
  evacuation_rate: { lower: '-843950153281374470627/4464180336727199088000', upper: '58008860287725019297/213920369225263008000' },
  evacuation_steps_mean: { lower: '-3810995498119/370484824320', upper: '177396792203754653/14113521886464000' },
  exit_throughput: { lower: '-6667/23040', upper: '-13397/69120' },
  fire_exposure_per_person: { lower: '-1435204861714436926859/11123859199713676416000', upper: '974596009619882261/8978094592182144000' },
  hotspot_cells: { lower: '0/1', upper: '0/1' },
  path_efficiency: { lower: '0/1', upper: '0/1' },
  peak_contested_cells: { lower: '0/1', upper: '0/1' },
  stranded_rate: { lower: '-2567867502286485982679/9169667718682895424000', upper: '3614466126658904137/19818780629199552000' },
};

describe('paired statistics, hand-checked and against the Python reference', () => {
  const stats = pairedStatistics(subjectX(), subjectY());

  it('pairs episodes committed in both results', () => {
    // X committed 0-3 and 5-7 (4 failed, 8 missing); Y committed 0-7.
    expect(stats.episodes).toEqual({ scheduled: 9, committed_a: 7, committed_b: 8, paired: 7, unpaired: 1 });
    expect([stats.kind, stats.model_a, stats.model_b, stats.resamples]).toEqual(['paired', 'model-x', 'model-y', 2000]);
  });

  it('aggregates the differences defined in both results with the hierarchy', () => {
    // Differences: e0 7/2-3 = 1/2, e3 5-11/2 = -1/2, e5 13/3-4 = 1/3, e6 2-5/2 = -1/2, e7 9/4-2 = 1/4
    // (e1: Y has no evacuee, e2: X has none). a1 = 1/2, a2 = -1/8, alpha = 3/16; b1 = -1/12.
    const m = stats.metrics.evacuation_steps_mean!;
    expect(m.coverage).toEqual({ defined: 5, total: 7 });
    expect(m.families).toEqual([
      { family: 'alpha', delta: '3/16' },
      { family: 'beta', delta: '-1/12' },
    ]);
    expect(m.delta).toBe('5/96');
    // Over the same five episodes: X = (45/16 + 14/3)/2, Y = (21/8 + 19/4)/2.
    expect(m.mean_a).toBe('359/96');
    expect(m.mean_b).toBe('59/16');
    expect(m.micro).toBe('1/60'); // (1/2 - 1/2 + 1/3 - 1/2 + 1/4) / 5
  });

  it('derives one seed from both model IDs and the exact differences of every metric (Python reference)', () => {
    const differences = allDifferences(subjectX(), subjectY());
    expect(differences.get('evacuation_steps_mean')!.map((d) => d?.toFraction() ?? null)).toEqual(['1/2', null, null, '-1/2', null, '1/3', '-1/2', '1/4', null]);
    expect(bytesToHex(pairedSeed(subjectX(), subjectY(), differences))).toBe('95cb35cb2ed572ff44c454f5c71974834da0b4006ca86d4cedfc08010fe0540e');
    expect(bytesToHex(pairedSeed(subjectX(), { ...subjectY(), modelId: 'model-z' }, differences))).not.toBe('95cb35cb2ed572ff44c454f5c71974834da0b4006ca86d4cedfc08010fe0540e');
  });

  it('reproduces every interval with the default 2000 resamples (Python reference)', () => {
    expect(intervalsOf(stats)).toEqual(PAIRED_XY_2000);
    expect(stats.metrics.evacuation_steps_mean!.outcome).toBe('inconclusive');
  });

  it('reproduces a wider case with uncommitted episodes on both sides (Python reference, 200 resamples)', () => {
    const a = wideSubject('wide-a', 3);
    const b = wideSubject('wide-b', 5);
    expect(bytesToHex(pairedSeed(a, b, allDifferences(a, b)))).toBe('ca512af178cecc1b0eb46f817d544a4356cc4857381abae699181164bb2f4068');
    const wide = pairedStatistics(a, b, 200);
    expect(intervalsOf(wide)).toEqual(PAIRED_WIDE_200);
    expect(wide.metrics.contested_cell_steps!.outcome).toBe('b_higher');
  });

  it('negates every delta when A and B swap', () => {
    const swapped = pairedStatistics(subjectY(), subjectX(), 10);
    for (const m of STATISTICS_METRICS) {
      const ab = stats.metrics[m.name]!;
      const ba = swapped.metrics[m.name]!;
      expect(ba.delta === null ? null : r(ba.delta).neg().toFraction(), m.name).toBe(ab.delta);
      expect([ba.mean_a, ba.mean_b]).toEqual([ab.mean_b, ab.mean_a]);
    }
  });

  it('rejects results of different manifests', () => {
    const other: StatisticsSubject = { ...subjectY(), manifestHash: 'cd'.repeat(32) };
    expect(() => pairedStatistics(subjectX(), other)).toThrow(ValidationError);
    expect(() => pairedStatistics(subjectX(), other)).toThrow(/results of different manifests are rejected/);
  });
});

describe('comparison outcomes', () => {
  const iv = (lower: string, upper: string) => ({ lower: r(lower), upper: r(upper) });

  it('is exact_tie when every paired difference is 0, whatever the interval', () => {
    expect(comparisonOutcome([r('0'), r('0')], null)).toBe('exact_tie');
    expect(comparisonOutcome([r('0'), r('0'), r('0'), r('0'), r('0')], iv('0', '0'))).toBe('exact_tie');
  });

  it('is a_higher or b_higher only when the interval excludes 0', () => {
    expect(comparisonOutcome([r('1/2')], iv('1/100', '1'))).toBe('a_higher');
    expect(comparisonOutcome([r('-1/2')], iv('-1', '-1/100'))).toBe('b_higher');
    expect(comparisonOutcome([r('1/2')], iv('0', '1'))).toBe('inconclusive');
    expect(comparisonOutcome([r('-1/2')], iv('-1', '0'))).toBe('inconclusive');
  });

  it('is inconclusive without an interval or without any paired value', () => {
    expect(comparisonOutcome([r('5')], null)).toBe('inconclusive');
    expect(comparisonOutcome([], null)).toBe('inconclusive');
  });
});

describe('paired statistics of real results', () => {
  let suite: Suite;
  let greedy: StatisticsSubject;
  let random: StatisticsSubject;
  let greedyPartial: StatisticsSubject;

  beforeAll(async () => {
    suite = loadSuiteDir(TINY_SUITE);
    const subject = async (modelId: string, agent: string, extra: { missing?: number[]; failed?: number[] } = {}) =>
      statisticsSubject(authenticateResult(await tinyResultText(suite, { modelId, agent, seeds: ['4', '5', '6'], ...extra }), `${modelId}.json`, suite));
    greedy = await subject('greedy', 'nearest-exit-greedy-v1');
    random = await subject('random', 'random-legal-v1');
    greedyPartial = await subject('greedy-partial', 'nearest-exit-greedy-v1', { missing: [1], failed: [5] });
  });

  it('delta = mean_a - mean_b exactly, at every level, for every metric', () => {
    for (const [a, b] of [
      [greedy, random],
      [greedyPartial, random],
      [random, greedyPartial],
    ] as const) {
      const stats = pairedStatistics(a, b, 50);
      for (const m of STATISTICS_METRICS) {
        const entry = stats.metrics[m.name]!;
        const va = scheduleValues(a, m);
        const vb = scheduleValues(b, m);
        const both = va.map((v, i) => v !== null && vb[i] !== null);
        const ha = hierarchyOf(a.schedule, va.map((v, i) => (both[i] ? v : null)));
        const hb = hierarchyOf(a.schedule, vb.map((v, i) => (both[i] ? v : null)));
        if (entry.delta === null) {
          expect(entry.coverage.defined, m.name).toBe(0);
          continue;
        }
        expect(r(entry.delta).eq(r(entry.mean_a!).sub(r(entry.mean_b!))), m.name).toBe(true);
        expect(entry.mean_a).toBe(familyBalancedMean(ha)!.toFraction());
        const fa = familyMeans(ha);
        const fb = familyMeans(hb);
        expect(entry.families.map((f) => f.delta)).toEqual(fa.map((f, i) => f.mean.sub(fb[i]!.mean).toFraction()));
        const sa = scenarioMeans(ha);
        const sb = scenarioMeans(hb);
        expect(entry.scenarios.map((s) => s.delta)).toEqual(sa.map((s, i) => s.mean.sub(sb[i]!.mean).toFraction()));
      }
    }
  });

  it('with complete results and metrics defined everywhere, mean_a and mean_b are the aggregate headlines', () => {
    const stats = pairedStatistics(greedy, random, 20);
    const aggA = aggregateStatistics(greedy, 20);
    const aggB = aggregateStatistics(random, 20);
    for (const name of ['evacuation_rate', 'casualty_rate', 'fire_exposure_per_person', 'contested_cell_steps']) {
      expect(stats.metrics[name]!.mean_a, name).toBe(aggA.metrics[name]!.family_balanced);
      expect(stats.metrics[name]!.mean_b, name).toBe(aggB.metrics[name]!.family_balanced);
    }
    expect(stats.episodes).toEqual({ scheduled: 9, committed_a: 9, committed_b: 9, paired: 9, unpaired: 0 });
  });

  it('a result compared with itself is an exact tie everywhere', () => {
    const stats = pairedStatistics(greedy, { ...greedy, modelId: 'greedy-again' });
    for (const m of STATISTICS_METRICS) {
      const entry = stats.metrics[m.name]!;
      if (entry.coverage.defined === 0) continue;
      expect(entry.outcome, m.name).toBe('exact_tie');
      expect(entry.delta).toBe('0/1');
      if (entry.interval !== null) expect(entry.interval).toEqual({ lower: '0/1', upper: '0/1' });
    }
  });

  it('counts the paired and unpaired episodes and is deterministic', () => {
    const one = pairedStatistics(greedyPartial, random, 30);
    expect(one.episodes).toEqual({ scheduled: 9, committed_a: 7, committed_b: 9, paired: 7, unpaired: 2 });
    expect(statisticsText(pairedStatistics(greedyPartial, random, 30))).toBe(statisticsText(one));
  });
});
