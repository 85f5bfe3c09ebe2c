/**
 * The joint bootstrap intervals (joint-bootstrap.ts) without exact
 * arithmetic on every resample: the same draws, the same exact quantiles.
 *
 * An interval reads only four order statistics of the resample statistics
 * (the type-7 2.5% and 97.5% quantiles each read two neighbours). So:
 *
 * 1. One pass over the stream computes every resample's statistic of every
 *    metric in double arithmetic (one Number addition per metric and draw,
 *    units laid out unit-major so a draw reads one row), and records where
 *    in the stream each resample starts. Which resamples have a statistic
 *    is decided by integer counts, so exactly.
 * 2. Each approximation a_b is within delta of the exact x_b. delta bounds
 *    the rounding of an average of averages of averages of the values
 *    (each level's error is at most gamma_m = m u / (1 - m u) times the
 *    largest |value|, u = 2^-53; delta takes 8 times their sum, with the
 *    conversion of each value to a double). Then, for the order statistic
 *    i (and its neighbour j = i + 1) of the sorted approximations A: every
 *    resample with a_b < A[i] - 2 delta has x_b < x_(i), every one with
 *    a_b > A[j] + 2 delta has x_b > x_(j) (order statistics move by at most
 *    delta when every value does). The rest, usually a handful, are the
 *    uncertain set U: x_(i) and x_(j) are U's exact values sorted, at ranks
 *    i - below and j - below.
 * 3. The uncertain resamples are replayed from their stream positions with
 *    the exact accumulator (MetricAccumulator), which gives their
 *    numerators over the very denominator of jointBootstrapStatistics.
 *
 * A metric whose values' doubles overflow or underflow goes the exact way
 * (jointBootstrapStatistics); one whose defined values are all equal has
 * that value as every statistic (every resample would be uncertain).
 * filtered-intervals.test.ts checks the result against jointInterval of
 * jointBootstrapStatistics.
 */

import type { Interval } from './interval.js';
import { MetricAccumulator, ResampleScratch, designOf, drawResample, jointBootstrapStatisticSteps, jointInterval, type BootstrapUnit, type Design } from './joint-bootstrap.js';
import { LOWER_QUANTILE, UPPER_QUANTILE, quantileIndex, quantileOfOrder } from './quantile.js';
import { Rational } from './rational.js';
import { BootstrapStream } from './stream.js';
import { STEP_WORK, runSteps, type Steps } from '../steps.js';

const WHAT = 'bootstrap resamples';

/** Per metric, the approximate statistic of every resample (NaN: none), and the stream position of each resample. */
interface Approximations {
  readonly values: Float64Array[];
  readonly positions: Float64Array;
}

/** Step 1: one pass over the stream, doubles only. `rows[e * M + m]` is metric m's value of unit e (hierarchy order, 0 if undefined). */
function* approximate(design: Design, rows: Float64Array, defined: Uint8Array, full: Uint8Array, metrics: number, seed32: Uint8Array, resamples: number): Steps<Approximations> {
  const M = metrics;
  const stream = new BootstrapStream(seed32);
  const values = Array.from({ length: M }, () => new Float64Array(resamples));
  const positions = new Float64Array(resamples);
  const picks = new Int32Array(Math.max(1, design.maxScenarioSize));
  const familySum = new Float64Array(M);
  const familyCount = new Int32Array(M);
  const resampleSum = new Float64Array(M);
  const resampleCount = new Int32Array(M);
  const drawn = new Int32Array(design.maxFamilyScenarios);
  let scenarioBase = 0;
  // About the draws of one resample, for every metric: the work between two yields.
  const workPerResample = Math.max(1, design.maxResampleDraws * M);
  let work = 0;
  for (let b = 0; b < resamples; b++) {
    work += workPerResample;
    if (work >= STEP_WORK) {
      work = 0;
      yield { what: WHAT, done: b, total: resamples };
    }
    positions[b] = stream.position;
    resampleSum.fill(0);
    resampleCount.fill(0);
    scenarioBase = 0;
    for (const family of design.families) {
      const k = family.starts.length;
      stream.fillUniform(drawn, k, k);
      familySum.fill(0);
      familyCount.fill(0);
      for (let j = 0; j < k; j++) {
        const scenario = drawn[j]!;
        const n = family.sizes[scenario]!;
        const start = family.starts[scenario]!;
        // The draws first (as row offsets), then one metric at a time with its sum in a register.
        stream.fillUniform(picks, n, n);
        for (let i = 0; i < n; i++) picks[i] = (start + picks[i]!) * M;
        if (full[scenarioBase + scenario] === 1) {
          // Every unit of the scenario is defined for every metric: c = n for all. Four metrics per
          // pass share each pick's load (their values sit side by side in the unit's row).
          let m = 0;
          for (; m + 4 <= M; m += 4) {
            let s0 = 0;
            let s1 = 0;
            let s2 = 0;
            let s3 = 0;
            for (let i = 0; i < n; i++) {
              const row = picks[i]! + m;
              s0 += rows[row]!;
              s1 += rows[row + 1]!;
              s2 += rows[row + 2]!;
              s3 += rows[row + 3]!;
            }
            familySum[m] += s0 / n;
            familySum[m + 1] += s1 / n;
            familySum[m + 2] += s2 / n;
            familySum[m + 3] += s3 / n;
          }
          for (; m < M; m++) {
            let sum = 0;
            for (let i = 0; i < n; i++) sum += rows[picks[i]! + m]!;
            familySum[m] += sum / n;
          }
          for (m = 0; m < M; m++) familyCount[m]++;
        } else {
          for (let m = 0; m < M; m++) {
            let sum = 0;
            let c = 0;
            for (let i = 0; i < n; i++) {
              sum += rows[picks[i]! + m]!;
              c += defined[picks[i]! + m]!;
            }
            if (c === 0) continue;
            familySum[m] += sum / c;
            familyCount[m]++;
          }
        }
      }
      for (let m = 0; m < M; m++) {
        if (familyCount[m] === 0) continue;
        resampleSum[m] += familySum[m]! / familyCount[m]!;
        resampleCount[m]++;
      }
      scenarioBase += k;
    }
    for (let m = 0; m < M; m++) values[m]![b] = resampleCount[m] === 0 ? Number.NaN : resampleSum[m]! / resampleCount[m]!;
  }
  return { values, positions };
}

/** The statistics' order positions an interval reads: [i, j] pairs for both quantiles. */
function windows(n: number): [number, number][] {
  return [LOWER_QUANTILE, UPPER_QUANTILE].map((p) => {
    const i = quantileIndex(n, p);
    return [i, Math.min(i + 1, n - 1)];
  });
}

/** What step 2 leaves to step 3 for one metric: the uncertain resamples per window, and how many lie below each. */
interface MetricPlan {
  readonly n: number;
  readonly windows: { readonly i: number; readonly j: number; readonly below: number; readonly uncertain: number[] }[];
}

function plan(approx: Float64Array, delta: number): MetricPlan | null {
  const sorted = approx.filter((v) => !Number.isNaN(v)).sort();
  const n = sorted.length;
  if (n === 0) return null;
  return {
    n,
    windows: windows(n).map(([i, j]) => {
      const lowCut = sorted[i]! - 2 * delta;
      const highCut = sorted[j]! + 2 * delta;
      let below = 0;
      const uncertain: number[] = [];
      approx.forEach((v, b) => {
        if (Number.isNaN(v)) return;
        if (v < lowCut) below++;
        else if (v <= highCut) uncertain.push(b);
      });
      return { i, j, below, uncertain };
    }),
  };
}

/** A double of a rational, or NaN when it does not fit the filter (overflow, or so small that underflow matters). */
function approxOf(r: Rational): number {
  const v = Number(r.num) / Number(r.den);
  return Number.isFinite(v) && (v === 0 || Math.abs(v) > 2 ** -900) ? v : Number.NaN;
}

/**
 * The 95% intervals of jointInterval(jointBootstrapStatistics(...)) for
 * every metric (null where no resample has a statistic), computed as the
 * module comment says.
 */
export function jointBootstrapIntervals(
  units: readonly BootstrapUnit[],
  metrics: readonly (readonly (Rational | null)[])[],
  seed32: Uint8Array,
  resamples: number,
): (Interval | null)[] {
  return runSteps(jointBootstrapIntervalSteps(units, metrics, seed32, resamples));
}

/** jointBootstrapIntervals as steps (src/core/steps.ts): the same result, with progress between steps. */
export function* jointBootstrapIntervalSteps(
  units: readonly BootstrapUnit[],
  metrics: readonly (readonly (Rational | null)[])[],
  seed32: Uint8Array,
  resamples: number,
): Steps<(Interval | null)[]> {
  const design = designOf(units);
  const M = metrics.length;
  const count = design.order.length;
  const rows = new Float64Array(count * M);
  const defined = new Uint8Array(count * M);
  const exact: boolean[] = [];
  const constant: (Rational | null)[] = [];
  const maxAbs = new Float64Array(M);
  metrics.forEach((values, m) => {
    let fits = true;
    let first: Rational | null = null;
    let same = true;
    design.order.forEach((unit, e) => {
      const v = values[unit] ?? null;
      if (v === null) return;
      defined[e * M + m] = 1;
      if (first === null) first = v;
      else if (same && !v.eq(first)) same = false;
      const a = approxOf(v);
      if (Number.isNaN(a)) fits = false;
      rows[e * M + m] = a;
      maxAbs[m] = Math.max(maxAbs[m]!, Math.abs(a));
    });
    constant.push(first !== null && same ? first : null);
    exact.push(!fits);
  });
  // A scenario is full when every unit has every metric defined (the common case: no counting per draw).
  const full = new Uint8Array(design.scenarioCount);
  let s = 0;
  for (const family of design.families) {
    family.starts.forEach((start, j) => {
      let all = 1;
      for (let e = start; e < start + family.sizes[j]! && all === 1; e++) for (let m = 0; m < M; m++) if (defined[e * M + m] === 0) all = 0;
      full[s + j] = all;
    });
    s += family.starts.length;
  }

  const out: (Interval | null)[] = new Array<Interval | null>(M).fill(null);
  const filtered = metrics.map((_, m) => !exact[m]);
  // Metrics the filter cannot serve go the exact way (their draws do not depend on the metrics).
  const exactMetrics = metrics.flatMap((_, m) => (exact[m] ? [m] : []));
  if (exactMetrics.length > 0) {
    const stats = yield* jointBootstrapStatisticSteps(units, exactMetrics.map((m) => metrics[m]!), seed32, resamples);
    exactMetrics.forEach((m, i) => (out[m] = jointInterval(stats[i]!)));
  }
  if (!filtered.includes(true)) return out;

  const approx = yield* approximate(design, rows, defined, full, M, seed32, resamples);
  const levels = design.maxScenarioSize + design.maxFamilyScenarios + design.families.length + 16;
  const plans: (MetricPlan | null)[] = [];
  for (let m = 0; m < M; m++) {
    // A plan sorts one metric's approximations (about 0.1 s at a million resamples): one step each.
    yield { what: 'bootstrap quantiles', done: m, total: M };
    plans.push(metricPlan(m));
  }
  function metricPlan(m: number): MetricPlan | null {
    if (!filtered[m]) return null;
    const value = constant[m];
    if (value !== null && value !== undefined) {
      // Every resample with a statistic averages copies of the one value: the statistic is that value.
      if (approx.values[m]!.some((v) => !Number.isNaN(v))) out[m] = { lower: value, upper: value };
      return null;
    }
    return plan(approx.values[m]!, levels * 2 ** -50 * maxAbs[m]!);
  }

  // Step 3: replay each uncertain resample once, for every metric that needs it.
  const needs = new Map<number, Set<number>>();
  plans.forEach((p, m) => {
    for (const w of p?.windows ?? []) {
      for (const b of w.uncertain) {
        if (!needs.has(b)) needs.set(b, new Set());
        needs.get(b)!.add(m);
      }
    }
  });
  const accumulators = new Map<number, MetricAccumulator>();
  const accumulator = (m: number) => {
    if (!accumulators.has(m)) accumulators.set(m, new MetricAccumulator(design, metrics[m]!));
    return accumulators.get(m)!;
  };
  const numerators = new Map<number, Map<number, bigint | null>>();
  const scratch = new ResampleScratch(design);
  const replays = [...needs.keys()].sort((x, y) => x - y);
  for (const [r, b] of replays.entries()) {
    yield { what: 'exact quantile resamples', done: r, total: replays.length };
    const wanted = [...needs.get(b)!].map((m) => [m, accumulator(m)] as const);
    drawResample(design, BootstrapStream.at(seed32, approx.positions[b]!), wanted.map(([, acc]) => acc), scratch);
    for (const [m, acc] of wanted) {
      if (!numerators.has(m)) numerators.set(m, new Map());
      numerators.get(m)!.set(b, acc.numerators[acc.numerators.length - 1]!);
    }
  }
  plans.forEach((p, m) => {
    if (p === null) return;
    const den = accumulator(m).denominator;
    const exactOf = numerators.get(m)!;
    const order = new Map<number, bigint>();
    for (const w of p.windows) {
      const sorted = w.uncertain.map((b) => exactOf.get(b)!).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      const lower = sorted[w.i - w.below];
      const upper = sorted[w.j - w.below];
      // The filter's proof puts both in the uncertain set; anything else is a bug, not a result.
      if (lower === undefined || upper === undefined) throw new Error('bootstrap interval: an order statistic fell outside its uncertain set');
      order.set(w.i, lower);
      order.set(w.j, upper);
    }
    const at = (i: number) => order.get(i)!;
    out[m] = { lower: quantileOfOrder(at, p.n, den, LOWER_QUANTILE), upper: quantileOfOrder(at, p.n, den, UPPER_QUANTILE) };
  });
  return out;
}

