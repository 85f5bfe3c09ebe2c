import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { authenticateResult } from '../eval/authenticate.js';
import { ValidationError } from '../errors.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { loadSuiteDir } from '../../node/inputs.js';
import type { Suite } from '../world/suite.js';
import fc from 'fast-check';
import {
  STATISTICS_METRICS,
  aggregateSeed,
  aggregateStatistics,
  scheduleValues,
  statisticsDigest,
  statisticsSubject,
  statisticsText,
  summarize,
  type AggregateStatistics,
  type StatisticsSubject,
} from './aggregate.js';
import { buildHierarchy, familyBalancedMean, familyMeans, microMean, scenarioBalancedMean, scenarioMeans } from './hierarchy.js';
import { Rational, mean } from './rational.js';
import {
  EPISODES_X,
  SYNTHETIC_MANIFEST_HASH as MANIFEST_HASH,
  SYNTHETIC_SCHEDULE as SCHEDULE,
  sparseSubject,
  subjectX,
  syntheticSubject,
  tinyResultText,
  wideSubject,
} from '../../../test/kits/stats-results.js';

const TINY_SUITE = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'suites', 'tiny');

// Python reference outputs (docs/statistics.md section 11).
const AGG_X_2000 = {
  casualty_rate: { lower: '1/18', upper: '11/20' },
  congestion_block_rate: { lower: '7/48', upper: '17/48' },
  contested_cell_steps: { lower: '0/1', upper: '0/1' },
  evacuation_rate: { lower: '47/120', upper: '37/48' },
  evacuation_steps_mean: { lower: '155/48', upper: '53/12' },
  exit_throughput: null,
  fire_exposure_per_person: { lower: '0/1', upper: '0/1' },
  hotspot_cells: { lower: '0/1', upper: '0/1' },
  path_efficiency: null,
  peak_contested_cells: { lower: '0/1', upper: '0/1' },
  stranded_rate: { lower: '0/1', upper: '41/144' },
};
const AGG_X_300 = {
  casualty_rate: { lower: '1/18', upper: '861/1600' },
  congestion_block_rate: { lower: '7/48', upper: '17/48' },
  contested_cell_steps: { lower: '0/1', upper: '0/1' },
  evacuation_rate: { lower: '19/48', upper: '3/4' },
  evacuation_steps_mean: { lower: '155/48', upper: '2807/640' },
  exit_throughput: null,
  fire_exposure_per_person: { lower: '0/1', upper: '0/1' },
  hotspot_cells: { lower: '0/1', upper: '0/1' },
  path_efficiency: null,
  peak_contested_cells: { lower: '0/1', upper: '0/1' },
  stranded_rate: { lower: '0/1', upper: '41/144' },
};
const AGG_WIDE_200 = {
  casualty_rate: { lower: '2057651878694339/58754122187904000', upper: '577087781864238311/5243805405270432000' },
  congestion_block_rate: { lower: '167676853/518918400', upper: '13650577/21621600' },
  contested_cell_steps: { lower: '589/600', upper: '6827/3200' },
  evacuation_rate: { lower: '22115241606759648091/57913690854839339520', upper: '18124169890320269/29909368873036800' },
  evacuation_steps_mean: { lower: '18912808339/5574096000', upper: '15692117929/1013472000' },
  exit_throughput: { lower: '38039/86400', upper: '21817/34560' },
  fire_exposure_per_person: { lower: '54263798780636341/465188749480224000', upper: '3074625444027/11019643712000' },
  hotspot_cells: { lower: '18437/28800', upper: '33803/28800' },
  path_efficiency: { lower: '4848817/1344000', upper: '15317657/2419200' },
  peak_contested_cells: { lower: '2773/9600', upper: '1211/1800' },
  stranded_rate: { lower: '1151776460902799/3529814528486400', upper: '10448531989974573239/18926042763019392000' },
};
const AGG_SPARSE_300 = {
  casualty_rate: { lower: '1/18', upper: '11/36' },
  congestion_block_rate: null,
  contested_cell_steps: { lower: '0/1', upper: '0/1' },
  evacuation_rate: { lower: '0/1', upper: '1/8' },
  evacuation_steps_mean: { lower: '2/1', upper: '29/10' },
  exit_throughput: null,
  fire_exposure_per_person: { lower: '0/1', upper: '0/1' },
  hotspot_cells: { lower: '0/1', upper: '0/1' },
  path_efficiency: null,
  peak_contested_cells: { lower: '0/1', upper: '0/1' },
  stranded_rate: { lower: '47/72', upper: '11/12' },
};
describe('aggregate statistics, hand-checked', () => {
  const stats = aggregateStatistics(subjectX(), 300);

  it('reports the episode counts and the resample count', () => {
    expect(stats.episodes).toEqual({ scheduled: 9, committed: 7, failed: 1 });
    expect(stats.resamples).toBe(300);
    expect(stats.kind).toBe('aggregate');
    expect(Object.keys(stats.metrics).sort()).toEqual(STATISTICS_METRICS.map((m) => m.name).sort());
  });

  it('computes the hierarchy means of evacuation_steps_mean exactly, leaving undefined episodes out', () => {
    // a1 = (7/2 + 4)/2 = 15/4, a2 = (2 + 9/4)/2 = 17/8, alpha = 47/16; b1 = (5 + 13/3)/2 = 14/3.
    const m = stats.metrics.evacuation_steps_mean!;
    expect(m.coverage).toEqual({ defined: 6, total: 7 });
    expect(m.families).toEqual([
      { family: 'alpha', mean: '47/16' },
      { family: 'beta', mean: '14/3' },
    ]);
    expect(m.scenarios).toEqual([
      { scenario_id: 'a1', family: 'alpha', mean: '15/4' },
      { scenario_id: 'a2', family: 'alpha', mean: '17/8' },
      { scenario_id: 'b1', family: 'beta', mean: '14/3' },
    ]);
    expect(m.family_balanced).toBe('365/96'); // (47/16 + 14/3) / 2
    expect(m.scenario_balanced).toBe('253/72'); // (15/4 + 17/8 + 14/3) / 3
    expect(m.micro).toBe('253/72'); // 253/12 over 6 episodes
  });

  it('derives the rates from the counts', () => {
    // casualty_rate per episode: 0, 0, 2/3, 1/2, (failed), 0, 0, 4/5, (missing).
    const m = stats.metrics.casualty_rate!;
    expect(m.coverage).toEqual({ defined: 7, total: 7 });
    expect(m.scenarios.map((s) => s.mean)).toEqual(['2/9', '2/5', '1/4']);
    expect(m.micro).toBe('59/210'); // (2/3 + 1/2 + 4/5) / 7
    // congestion_block_rate is undefined where no move was attempted (episode 2).
    expect(stats.metrics.congestion_block_rate!.coverage).toEqual({ defined: 6, total: 7 });
    // stranded = population - evacuated - casualties: a1 has 0, 1/4 and 1/3.
    expect(stats.metrics.stranded_rate!.scenarios[0]).toEqual({ scenario_id: 'a1', family: 'alpha', mean: '7/36' });
  });

  it('gives no interval with fewer than 5 defined values and a zero-width one for a constant metric', () => {
    const few = syntheticSubject({ modelId: 'm', manifestHash: MANIFEST_HASH, schedule: SCHEDULE, episodes: [...EPISODES_X.slice(0, 4), null, null, null, null, null] });
    expect(aggregateStatistics(few).metrics.evacuation_rate!.interval).toBeNull();
    // path_efficiency is never set here, so it is undefined everywhere.
    expect(stats.metrics.path_efficiency).toEqual({
      coverage: { defined: 0, total: 7 },
      family_balanced: null,
      scenario_balanced: null,
      micro: null,
      families: [],
      scenarios: [],
      interval: null,
    });
    expect(stats.metrics.hotspot_cells!.interval).toEqual({ lower: '0/1', upper: '0/1' });
  });

  it('refuses bad resample counts and subjects that no authenticated result gives', () => {
    expect(() => aggregateStatistics(subjectX(), 0)).toThrow(RangeError);
    expect(() => aggregateStatistics(subjectX(), 1_000_001)).toThrow(RangeError);
    expect(() => aggregateStatistics(subjectX(), 2.5)).toThrow(RangeError);
    const subject = subjectX();
    const swapped = { ...subject, committed: [subject.committed[1]!, subject.committed[0]!, ...subject.committed.slice(2)] };
    expect(() => aggregateStatistics(swapped)).toThrow(ValidationError);
    expect(() => aggregateStatistics({ ...subject, failed: 3 })).toThrow(ValidationError);
  });
});

/** Every metric's interval, as in the artifact. */
const intervalsOf = (stats: AggregateStatistics) => Object.fromEntries(Object.entries(stats.metrics).map(([name, m]) => [name, m.interval]));
const allValues = (subject: StatisticsSubject) => new Map(STATISTICS_METRICS.map((m) => [m.name, scheduleValues(subject, m)]));

describe('aggregate statistics against the Python reference', () => {
  // Computed with the python3 script of docs/statistics.md section 11 (fractions.Fraction,
  // hashlib.sha256, hashlib.shake_256): one seed over every metric's values, one stream, and
  // per resample one draw structure over the committed episodes shared by every metric.
  it('derives one seed from the exact values of every metric in manifest order, null for undefined and uncommitted', () => {
    const subject = subjectX();
    const values = allValues(subject);
    expect(values.get('evacuation_steps_mean')!.map((v) => v?.toFraction() ?? null)).toEqual(['7/2', '4/1', null, '5/1', null, '13/3', '2/1', '9/4', null]);
    expect(values.get('evacuation_rate')!.map((v) => v?.toFraction() ?? null)).toEqual(['1/1', '3/4', '0/1', '1/2', null, '2/3', '1/1', '1/5', null]);
    expect(bytesToHex(aggregateSeed(subject, values))).toBe('f559e174316e30ff3bfcecb2a78a6baa43a01c4dc21bb46e86bee320fbf7cd97');
    // Any value of any metric changes the seed.
    const changed = new Map(values);
    changed.set('hotspot_cells', values.get('hotspot_cells')!.map((v, i) => (i === 0 ? Rational.of(1) : v)));
    expect(bytesToHex(aggregateSeed(subject, changed))).not.toBe('f559e174316e30ff3bfcecb2a78a6baa43a01c4dc21bb46e86bee320fbf7cd97');
  });

  it('reproduces every interval with the default 2000 resamples', () => {
    expect(intervalsOf(aggregateStatistics(subjectX()))).toEqual(AGG_X_2000);
  });

  it('reproduces every interval with 300 resamples', () => {
    expect(intervalsOf(aggregateStatistics(subjectX(), 300))).toEqual(AGG_X_300);
  });

  it('reproduces a wider case: 3 families, 10 scenarios, many denominators, uncommitted episodes (200 resamples)', () => {
    const subject = wideSubject('wide-a', 3);
    expect(bytesToHex(aggregateSeed(subject, allValues(subject)))).toBe('67edcda49a3fed5afa17de21848e6da95e51b890fc40e208413c916baecd5301');
    expect(intervalsOf(aggregateStatistics(subject, 200))).toEqual(AGG_WIDE_200);
  });

  it('takes an interval over the resamples that have a statistic (a sparse metric, 300 resamples)', () => {
    // evacuation_steps_mean is defined in scenario s0 only: about a third of the resamples draw no s0.
    const stats = aggregateStatistics(sparseSubject(), 300);
    expect(stats.metrics.evacuation_steps_mean!.coverage).toEqual({ defined: 5, total: 12 });
    expect(intervalsOf(stats)).toEqual(AGG_SPARSE_300);
  });
});

describe('hierarchy summary', () => {
  it('equals the hierarchy.ts means on random hierarchies', () => {
    const unit = fc.record({
      family: fc.constantFrom('b', 'a', 'c'),
      scenarioId: fc.constantFrom('s1', 's2', 's3', 's4'),
      value: fc.option(fc.tuple(fc.bigInt({ min: -(1n << 40n), max: 1n << 40n }), fc.bigInt({ min: 1n, max: 1n << 20n })).map(([n, d]) => Rational.of(n, d))),
    });
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 30 }), (units) => {
        const h = buildHierarchy(units);
        const s = summarize(h);
        const text = (r: Rational | null) => r?.toFraction() ?? null;
        expect([text(s.familyBalanced), text(s.scenarioBalanced), text(s.micro)]).toEqual([text(familyBalancedMean(h)), text(scenarioBalancedMean(h)), text(microMean(h))]);
        expect(s.families.map((f) => [f.family, f.mean.toFraction()])).toEqual(familyMeans(h).map((f) => [f.family, f.mean.toFraction()]));
        expect(s.scenarios.map((x) => [x.family, x.scenarioId, x.mean.toFraction()])).toEqual(scenarioMeans(h).map((x) => [x.family, x.scenarioId, x.mean.toFraction()]));
        expect(s.defined).toBe(units.filter((u) => u.value !== null).length);
      }),
      { numRuns: 200 },
    );
  });
});

describe('aggregate statistics of a real result', () => {
  let suite: Suite;
  let text: string;

  beforeAll(async () => {
    suite = loadSuiteDir(TINY_SUITE);
    text = await tinyResultText(suite, { modelId: 'greedy', agent: 'nearest-exit-greedy-v1', seeds: ['1', '2', '3'], missing: [2], failed: [6] });
  });

  it('covers the committed episodes only, and every micro mean is the plain mean of their values', () => {
    const auth = authenticateResult(text, 'result.json', suite);
    const stats = aggregateStatistics(statisticsSubject(auth), 100);
    expect(stats.episodes).toEqual({ scheduled: 9, committed: 7, failed: 1 });
    expect(stats.result_digest).toBe(auth.digest);
    expect(stats.manifest_hash).toBe(auth.manifestHash);
    for (const m of STATISTICS_METRICS) {
      const defined = auth.episodes.map((e) => m.value(e.metrics)).filter((v): v is Rational => v !== null);
      const entry = stats.metrics[m.name]!;
      expect(entry.coverage, m.name).toEqual({ defined: defined.length, total: 7 });
      expect(entry.micro, m.name).toBe(defined.length === 0 ? null : mean(defined).toFraction());
      expect(entry.families.map((f) => f.family)).toEqual(defined.length === 0 ? [] : ['single_exit_low_density', 'uneven_exit_choice']);
    }
  });

  it('is deterministic: the same result gives byte-identical artifact text and digest', () => {
    const one = statisticsText(aggregateStatistics(statisticsSubject(authenticateResult(text, 'a.json', suite))));
    const two = statisticsText(aggregateStatistics(statisticsSubject(authenticateResult(text, 'b/other.json', suite))));
    expect(two).toBe(one);
    expect(one.endsWith('}\n')).toBe(true);
    expect(one.split('\n')).toHaveLength(2);
    expect(statisticsDigest(one)).toBe(statisticsDigest(two));
    expect(statisticsDigest(one)).toMatch(/^[0-9a-f]{64}$/);
  });
});
