/**
 * The stratified two-stage percentile bootstrap (scoring-v1.0.md section 7,
 * evaluation.md section 6). Strata are the primary families. In each
 * resample, inside each family (sorted), draw as many scenarios as it has,
 * with replacement; then for each drawn scenario, in draw order, draw as
 * many episodes as it has. The statistic is the family-balanced mean; the
 * bounds are its type-7 2.5% and 97.5% quantiles over the resamples.
 *
 * Exact and fast: values are brought to integers over one common
 * denominator, and each resample's family-balanced mean is accumulated as a
 * BigInt numerator over a fixed denominator, so the inner loop does no gcd.
 */

import { lcm } from '../bigint-math.js';
import type { Hierarchy } from './hierarchy.js';
import { jointBootstrapIntervalSteps } from './filtered-intervals.js';
import { runSteps, type Steps } from '../steps.js';
import { episodeCount } from './hierarchy.js';
import { quantileSorted, sortRationals } from './quantile.js';
import { Rational } from './rational.js';
import { BootstrapStream } from './stream.js';
import type { Interval } from './interval.js';

export const DEFAULT_RESAMPLES = 2000;
export const MAX_RESAMPLES = 1_000_000;
/** Fewer applicable episodes than this give no interval. */
export const MIN_INTERVAL_EPISODES = 5;

export type { Interval } from './interval.js';

/** The statistic of every resample, in resample order. */
export function bootstrapStatistics(h: Hierarchy, seed32: Uint8Array, resamples: number): Rational[] {
  if (!Number.isSafeInteger(resamples) || resamples < 1 || resamples > MAX_RESAMPLES) {
    throw new RangeError(`resamples must be an integer in [1, ${MAX_RESAMPLES}]`);
  }
  const den = lcm(h.flatMap((f) => f.scenarios.flatMap((s) => s.values.map((v) => v.den))));
  const scenarioSizes = lcm(h.flatMap((f) => f.scenarios.map((s) => BigInt(s.values.length))));
  const familySizes = lcm(h.map((f) => BigInt(f.scenarios.length)));
  const families = h.map((f) => ({
    k: f.scenarios.length,
    familyFactor: familySizes / BigInt(f.scenarios.length),
    scenarios: f.scenarios.map((s) => ({
      n: s.values.length,
      factor: scenarioSizes / BigInt(s.values.length),
      ints: s.values.map((v) => v.num * (den / v.den)),
    })),
  }));
  const totalDen = BigInt(h.length) * familySizes * scenarioSizes * den;

  const stream = new BootstrapStream(seed32);
  const out: Rational[] = [];
  const drawn: number[] = [];
  for (let b = 0; b < resamples; b++) {
    let total = 0n;
    for (const family of families) {
      drawn.length = 0;
      for (let j = 0; j < family.k; j++) drawn.push(stream.uniform(family.k));
      let familySum = 0n;
      for (const j of drawn) {
        const scenario = family.scenarios[j]!;
        let sum = 0n;
        for (let e = 0; e < scenario.n; e++) sum += scenario.ints[stream.uniform(scenario.n)]!;
        familySum += sum * scenario.factor;
      }
      total += familySum * family.familyFactor;
    }
    out.push(Rational.of(total, totalDen));
  }
  return out;
}

const LOWER_P = Rational.of(1n, 40n); // 2.5%
const UPPER_P = Rational.of(39n, 40n); // 97.5%

/**
 * The 95% percentile interval, or null with fewer than 5 applicable
 * episodes: the quantiles of bootstrapStatistics, computed by
 * jointBootstrapIntervals (the same draws: the hierarchy's episodes as
 * units in hierarchy order, every value defined), which reads doubles and
 * replays only the resamples near the quantiles exactly.
 */
export function bootstrapInterval(h: Hierarchy, seed32: Uint8Array, resamples: number = DEFAULT_RESAMPLES): Interval | null {
  return runSteps(bootstrapIntervalSteps(h, seed32, resamples));
}

/** bootstrapInterval as steps (src/core/steps.ts): the same interval, with progress between steps. */
export function* bootstrapIntervalSteps(h: Hierarchy, seed32: Uint8Array, resamples: number = DEFAULT_RESAMPLES): Steps<Interval | null> {
  if (episodeCount(h) < MIN_INTERVAL_EPISODES) return null;
  if (!Number.isSafeInteger(resamples) || resamples < 1 || resamples > MAX_RESAMPLES) {
    throw new RangeError(`resamples must be an integer in [1, ${MAX_RESAMPLES}]`);
  }
  const units = h.flatMap((f) => f.scenarios.flatMap((s) => s.values.map(() => ({ family: f.family, scenarioId: s.scenarioId }))));
  const values = h.flatMap((f) => f.scenarios.flatMap((s) => s.values));
  return (yield* jointBootstrapIntervalSteps(units, [values], seed32, resamples))[0]!;
}

/** The former bootstrapInterval, from every resample's exact statistic (the tests' oracle). */
export function exactBootstrapInterval(h: Hierarchy, seed32: Uint8Array, resamples: number = DEFAULT_RESAMPLES): Interval | null {
  if (episodeCount(h) < MIN_INTERVAL_EPISODES) return null;
  const sorted = sortRationals(bootstrapStatistics(h, seed32, resamples));
  return { lower: quantileSorted(sorted, LOWER_P), upper: quantileSorted(sorted, UPPER_P) };
}
