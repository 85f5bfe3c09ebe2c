import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { authenticateResult } from '../eval/authenticate.js';
import { ValidationError } from '../errors.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { loadSuiteDir } from '../../node/inputs.js';
import type { Suite } from '../world/suite.js';
import {
  STATISTICS_METRICS,
  aggregateSeed,
  aggregateStatistics,
  hierarchyOf,
  metricInterval,
  scheduleValues,
  statisticsDigest,
  statisticsSubject,
  statisticsText,
  } from './aggregate.js';
import { bootstrapInterval } from './bootstrap.js';
import { sha256Bytes } from '../hash.js';
import { Rational, mean } from './rational.js';
import { EPISODES_X, SYNTHETIC_MANIFEST_HASH as MANIFEST_HASH, SYNTHETIC_SCHEDULE as SCHEDULE, subjectX, syntheticSubject, tinyResultText } from './test-results.js';

const TINY_SUITE = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'suites', 'tiny');

const metric = (name: string) => STATISTICS_METRICS.find((m) => m.name === name)!;
const r = (text: string) => Rational.parse(text);

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

  it('takes the constant shortcut only where drawing would give the same interval', () => {
    const subject = subjectX();
    const constant = hierarchyOf(subject.schedule, subject.schedule.map(() => r('3/7')));
    const seed = sha256Bytes('constant');
    const drawn = bootstrapInterval(constant, seed, 50)!;
    const shortcut = metricInterval(constant, seed, 50)!;
    expect([shortcut.lower.toFraction(), shortcut.upper.toFraction()]).toEqual([drawn.lower.toFraction(), drawn.upper.toFraction()]);
    const varied = hierarchyOf(subject.schedule, scheduleValues(subject, metric('evacuation_rate')));
    expect(metricInterval(varied, seed, 50)).toEqual(bootstrapInterval(varied, seed, 50));
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

describe('aggregate statistics against the Python reference', () => {
  // Computed with python3 (fractions.Fraction, hashlib.sha256, hashlib.shake_256): the seed JSON
  // {"manifest_hash","metric","model_id","statistics_version","values"} and the stratified
  // two-stage bootstrap with type-7 quantiles (the script is in docs/statistics.md).
  it('derives the seed from the exact values in manifest order, null for undefined and uncommitted', () => {
    const subject = subjectX();
    const values = scheduleValues(subject, metric('evacuation_steps_mean'));
    expect(values.map((v) => v?.toFraction() ?? null)).toEqual(['7/2', '4/1', null, '5/1', null, '13/3', '2/1', '9/4', null]);
    expect(bytesToHex(aggregateSeed(subject, 'evacuation_steps_mean', values))).toBe('3de87180f548c6f9b550f81f794449a5246813d2e4282ffa3b1effd491e93e8c');
  });

  it('reproduces the interval with the default 2000 resamples', () => {
    expect(aggregateStatistics(subjectX()).metrics.evacuation_steps_mean!.interval).toEqual({ lower: '155/48', upper: '35/8' });
  });

  it('reproduces the interval of another metric with 300 resamples', () => {
    const values = scheduleValues(subjectX(), metric('evacuation_rate'));
    expect(values.map((v) => v?.toFraction() ?? null)).toEqual(['1/1', '3/4', '0/1', '1/2', null, '2/3', '1/1', '1/5', null]);
    expect(bytesToHex(aggregateSeed(subjectX(), 'evacuation_rate', values))).toBe('c02e007c53082df576843fa37e258f43629b332c49e547ecbe5dbdadf996add0');
    expect(aggregateStatistics(subjectX(), 300).metrics.evacuation_rate!.interval).toEqual({ lower: '23/60', upper: '3/4' });
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
