/**
 * The joint stratified two-stage bootstrap of the statistics artifacts
 * (statistics_version 1.0; docs/statistics.md section 5): ONE stream and
 * ONE draw structure per resample, shared by every metric.
 *
 * The units (committed episodes, or paired episodes) form the hierarchy:
 * families sorted, scenarios in manifest order, episodes in manifest order.
 * Per resample: for each family, draw k scenario positions in [0, k); then,
 * for each drawn scenario in draw order, draw n episode positions in
 * [0, n) (k scenarios in the family, n units in the scenario). A metric's
 * statistic of the resample is the family-balanced mean over the DEFINED
 * values of the drawn units: a drawn scenario with no defined drawn value
 * is left out of its family's mean, a family with no scenario left is left
 * out of the overall mean, and a resample with nothing defined has no
 * statistic for that metric.
 *
 * Exact and integer-only. Per metric, every statistic is N / T over one
 * fixed T = D * C * K * F: D the lcm of the value denominators, and C, K, F
 * the lcm of every count that a drawn scenario (defined draws), a family
 * (scenarios left) and the overall mean (families left) can have, so that
 * dividing by a count is multiplying by a precomputed BigInt and no gcd is
 * ever taken. Values over D are split into limbs of B bits held in Numbers:
 * the per-draw work is Number additions whose sums stay below 2^53 (exact),
 * and limb sums become BigInt once per resample and bucket.
 */

import { lcm } from '../bigint-math.js';
import type { Interval } from './interval.js';
import { LOWER_QUANTILE, UPPER_QUANTILE, quantileOfOrder } from './quantile.js';
import { Rational } from './rational.js';
import { BootstrapStream } from './stream.js';
import { STEP_WORK, runSteps, type Steps } from '../steps.js';

export interface BootstrapUnit {
  readonly family: string;
  readonly scenarioId: string;
}

/** One metric's resample statistics: numerators[b] / denominator, null where resample b has no statistic. */
export interface JointStatistics {
  readonly denominator: bigint;
  readonly numerators: readonly (bigint | null)[];
}

function bitLength(v: bigint): number {
  return v === 0n ? 0 : (v < 0n ? -v : v).toString(2).length;
}

/** Adds the counts a mean over up to n items can divide by: 1..n when some may be left out, else just n. */
function possibleCounts(varies: boolean, n: number, into: Set<number>): void {
  if (varies) for (let c = 1; c <= n; c++) into.add(c);
  else into.add(n);
}

/** The resample layout: units reordered into hierarchy order, as index ranges. */
export interface Design {
  /** Unit positions (indices into the caller's units) in hierarchy order. */
  readonly order: readonly number[];
  /** Per family (sorted): its scenarios as [start, start + size) ranges over `order`. */
  readonly families: readonly { readonly starts: Int32Array; readonly sizes: Int32Array }[];
  readonly maxScenarioSize: number;
  /** The largest k * n of a family (k scenarios, n its largest scenario's size): bounds k' * c. */
  readonly maxFamilyDraws: number;
  /** The most unit draws a resample can make: the sum of those products. */
  readonly maxResampleDraws: number;
  /** The largest k, and the sum of all k. */
  readonly maxFamilyScenarios: number;
  readonly scenarioCount: number;
}

export function designOf(units: readonly BootstrapUnit[]): Design {
  const byFamily = new Map<string, Map<string, number[]>>();
  units.forEach((u, i) => {
    let scenarios = byFamily.get(u.family);
    if (!scenarios) byFamily.set(u.family, (scenarios = new Map()));
    let members = scenarios.get(u.scenarioId);
    if (!members) scenarios.set(u.scenarioId, (members = []));
    members.push(i);
  });
  const order: number[] = [];
  let maxScenarioSize = 0;
  let maxFamilyDraws = 0;
  let maxResampleDraws = 0;
  // Sorted like buildHierarchy (hierarchy.ts): default sort, UTF-16 code unit order.
  const families = [...byFamily.keys()].sort().map((family) => {
    const scenarios = [...byFamily.get(family)!.values()];
    const starts = new Int32Array(scenarios.length);
    const sizes = new Int32Array(scenarios.length);
    let largest = 0;
    scenarios.forEach((members, j) => {
      starts[j] = order.length;
      sizes[j] = members.length;
      for (const m of members) order.push(m);
      largest = Math.max(largest, members.length);
    });
    maxScenarioSize = Math.max(maxScenarioSize, largest);
    maxFamilyDraws = Math.max(maxFamilyDraws, scenarios.length * largest);
    maxResampleDraws += scenarios.length * largest;
    return { starts, sizes };
  });
  const maxFamilyScenarios = Math.max(1, ...families.map((f) => f.starts.length));
  const scenarioCount = families.reduce((n, f) => n + f.starts.length, 0);
  return { order, families, maxScenarioSize, maxFamilyDraws, maxResampleDraws, maxFamilyScenarios, scenarioCount: Math.max(1, scenarioCount) };
}

/** Keys up to this index slots directly; larger ones (rare shapes) go through a Map. */
const DIRECT_KEYS = 1 << 16;

/**
 * Limb sums by integer key (Numbers only): slot t holds the key keys[t]
 * and its limbs at sums[t * limbCount ...]; slots are taken in first-use
 * order and given back all at once by clear().
 */
class Buckets {
  readonly sums: Float64Array;
  readonly keys: Int32Array;
  count = 0;
  /** key -> slot + 1 (0: no slot), or a Map for large keys. */
  private readonly direct: Int32Array | null;
  private readonly map: Map<number, number> | null;

  /** `maxKey` bounds the keys, `capacity` the distinct keys between two clear() calls. */
  constructor(maxKey: number, capacity: number, limbCount: number) {
    this.sums = new Float64Array(capacity * limbCount);
    this.keys = new Int32Array(capacity);
    this.direct = maxKey < DIRECT_KEYS ? new Int32Array(maxKey + 1) : null;
    this.map = this.direct === null ? new Map() : null;
  }

  /** The slot of `key`, taken on first use. */
  slot(key: number): number {
    if (this.direct !== null) {
      const s = this.direct[key]!;
      if (s !== 0) return s - 1;
      this.direct[key] = this.count + 1;
    } else {
      const s = this.map!.get(key);
      if (s !== undefined) return s;
      this.map!.set(key, this.count);
    }
    this.keys[this.count] = key;
    return this.count++;
  }

  /** Gives back every slot (the caller has zeroed their sums). */
  clear(): void {
    if (this.direct !== null) for (let t = 0; t < this.count; t++) this.direct[this.keys[t]!] = 0;
    else this.map!.clear();
    this.count = 0;
  }
}

/**
 * One metric's exact accumulator. With D, C, K, F as in the module comment,
 * a drawn scenario with c defined draws summing to S (over D) in a family
 * with k' scenarios left adds (K C / (k' c)) * S to the resample's
 * numerator before the final F / f' (f' families left). So each drawn
 * scenario's limb sums go to a family bucket by c; at the family's end they
 * move to a resample bucket by p = k' * c; and only at the resample's end
 * does each used bucket become one BigInt times KC / p. Per draw the work
 * is Number additions; BigInt work is per resample and distinct p.
 */
export class MetricAccumulator {
  readonly denominator: bigint;
  readonly numerators: (bigint | null)[] = [];
  private readonly limbCount: number;
  private readonly limbShifts: bigint[];
  /** Limbs of each unit's value over D, in hierarchy order (0 where undefined). */
  private readonly limbs: Float64Array;
  private readonly defined: Uint8Array;
  /** K C, and KC / p per product p = k' c (filled on first use). */
  private readonly kc: bigint;
  private readonly productFactors = new Map<number, bigint>();
  /** F / f' per possible f'. */
  private readonly overallFactors: bigint[];
  private readonly family: Buckets;
  private readonly resample: Buckets;
  private readonly scratch: Float64Array;
  private familyScenarios = 0;
  private resampleFamilies = 0;

  constructor(design: Design, values: readonly (Rational | null)[]) {
    const ordered = design.order.map((i) => values[i] ?? null);
    const den = lcm(new Set(ordered.flatMap((v) => (v === null ? [] : [v.den]))));
    const ints = ordered.map((v) => (v === null ? 0n : v.num * (den / v.den)));

    // The counts that can occur: a scenario whose units are all defined always has c = n, a family
    // whose scenarios are all so always has k' = k, and if every family is so, f' = F.
    const scenarioCounts = new Set<number>();
    const familyCounts = new Set<number>();
    let everyFamilyFull = true;
    for (const family of design.families) {
      let familyFull = true;
      family.starts.forEach((start, j) => {
        const n = family.sizes[j]!;
        let definedHere = 0;
        for (let e = start; e < start + n; e++) if (ordered[e] !== null) definedHere++;
        if (definedHere > 0) possibleCounts(definedHere < n, n, scenarioCounts);
        if (definedHere < n) familyFull = false;
      });
      possibleCounts(!familyFull, family.starts.length, familyCounts);
      if (!familyFull) everyFamilyFull = false;
    }
    const overallCounts = new Set<number>();
    possibleCounts(!everyFamilyFull, design.families.length, overallCounts);
    const c = lcm([...scenarioCounts].map(BigInt));
    const k = lcm([...familyCounts].map(BigInt));
    const f = lcm([...overallCounts].map(BigInt));
    this.kc = k * c;
    this.overallFactors = new Array<bigint>(design.families.length + 1).fill(0n);
    for (const count of overallCounts) this.overallFactors[count] = f / BigInt(count);
    this.denominator = den * c * k * f;

    // Limb width B: a resample bucket sums at most maxResampleDraws limbs of |limb| < 2^B, below 2^52.
    const bits = Math.max(1, 52 - Math.max(1, design.maxResampleDraws).toString(2).length);
    // The widest value is the one of largest magnitude: one bitLength (a toString) instead of one per value.
    const largest = ints.reduce((m, v) => (v > m ? v : -v > m ? -v : m), 0n);
    const widest = bitLength(largest);
    const count = Math.max(1, Math.ceil((widest + 1) / bits));
    this.limbCount = count;
    this.limbShifts = Array.from({ length: count }, (_, i) => BigInt(i * bits));
    this.limbs = new Float64Array(ints.length * count);
    this.defined = new Uint8Array(ints.length);
    const mask = (1n << BigInt(bits)) - 1n;
    ints.forEach((v, e) => {
      this.defined[e] = ordered[e] === null ? 0 : 1;
      // Low limbs in [0, 2^B); the top limb keeps the sign (>> floors), |top| <= 2^(B-1).
      for (let i = 0; i < count - 1; i++) {
        this.limbs[e * count + i] = Number(v & mask);
        v >>= BigInt(bits);
      }
      this.limbs[e * count + count - 1] = Number(v);
    });
    // A family has at most k distinct counts c (one per drawn scenario), a resample at most sum k distinct p.
    this.family = new Buckets(design.maxScenarioSize, design.maxFamilyScenarios, count);
    this.resample = new Buckets(design.maxFamilyDraws, design.scenarioCount, count);
    this.scratch = new Float64Array(count);
  }

  /** Adds one drawn scenario: its units start at `start`, and `picks[0..n)` are the drawn positions. */
  addScenario(start: number, picks: Int32Array, n: number): void {
    const defined = this.defined;
    const limbs = this.limbs;
    const count = this.limbCount;
    const buckets = this.family;
    let c = 0;
    if (count === 1) {
      let sum = 0;
      for (let i = 0; i < n; i++) {
        const e = start + picks[i]!;
        c += defined[e]!;
        sum += limbs[e]!;
      }
      if (c === 0) return;
      buckets.sums[buckets.slot(c)] += sum;
    } else {
      const scratch = this.scratch;
      scratch.fill(0);
      for (let i = 0; i < n; i++) {
        const e = start + picks[i]!;
        c += defined[e]!;
        const base = e * count;
        for (let l = 0; l < count; l++) scratch[l] += limbs[base + l]!;
      }
      if (c === 0) return;
      const base = buckets.slot(c) * count;
      for (let l = 0; l < count; l++) buckets.sums[base + l] += scratch[l]!;
    }
    this.familyScenarios++;
  }

  /** Closes the current family of the resample: its buckets move to the resample's, by p = k' c. */
  endFamily(): void {
    const k = this.familyScenarios;
    if (k === 0) return;
    const count = this.limbCount;
    const from = this.family;
    const to = this.resample;
    for (let t = 0; t < from.count; t++) {
      const base = to.slot(k * from.keys[t]!) * count;
      for (let l = 0; l < count; l++) {
        to.sums[base + l] += from.sums[t * count + l]!;
        from.sums[t * count + l] = 0;
      }
    }
    from.clear();
    this.familyScenarios = 0;
    this.resampleFamilies++;
  }

  /** Closes the resample: its numerator over `denominator`, or null with nothing defined. */
  endResample(): void {
    if (this.resampleFamilies === 0) {
      this.numerators.push(null);
      return;
    }
    const count = this.limbCount;
    const buckets = this.resample;
    let total = 0n;
    for (let t = 0; t < buckets.count; t++) {
      const p = buckets.keys[t]!;
      let sum = 0n;
      for (let l = 0; l < count; l++) {
        const limb = buckets.sums[t * count + l]!;
        if (limb !== 0) sum += BigInt(limb) << this.limbShifts[l]!;
        buckets.sums[t * count + l] = 0;
      }
      let factor = this.productFactors.get(p);
      if (factor === undefined) this.productFactors.set(p, (factor = this.kc / BigInt(p)));
      total += sum * factor;
    }
    buckets.clear();
    this.numerators.push(total * this.overallFactors[this.resampleFamilies]!);
    this.resampleFamilies = 0;
  }
}

/**
 * The resample statistics of every metric, from one stream seeded with
 * `seed32`. `metrics[m][i]` is metric m's value of `units[i]`, null where
 * undefined. `resamples` is checked by the caller.
 */
export function jointBootstrapStatistics(
  units: readonly BootstrapUnit[],
  metrics: readonly (readonly (Rational | null)[])[],
  seed32: Uint8Array,
  resamples: number,
): JointStatistics[] {
  return runSteps(jointBootstrapStatisticSteps(units, metrics, seed32, resamples));
}

/** jointBootstrapStatistics as steps (src/core/steps.ts): the same result, with progress between steps. */
export function* jointBootstrapStatisticSteps(
  units: readonly BootstrapUnit[],
  metrics: readonly (readonly (Rational | null)[])[],
  seed32: Uint8Array,
  resamples: number,
): Steps<JointStatistics[]> {
  const design = designOf(units);
  const accumulators = metrics.map((values) => new MetricAccumulator(design, values));
  const stream = new BootstrapStream(seed32);
  const scratch = new ResampleScratch(design);
  // Exact BigInt work per draw: count it heavier than the doubles of filtered-intervals.ts.
  const workPerResample = Math.max(1, design.maxResampleDraws * Math.max(1, metrics.length) * 8);
  let work = 0;
  for (let b = 0; b < resamples; b++) {
    work += workPerResample;
    if (work >= STEP_WORK) {
      work = 0;
      yield { what: 'bootstrap resamples', done: b, total: resamples };
    }
    drawResample(design, stream, accumulators, scratch);
  }
  return accumulators.map((acc) => ({ denominator: acc.denominator, numerators: acc.numerators }));
}

/** The draw arrays of one resample, reused from one to the next. */
export class ResampleScratch {
  readonly drawn: Int32Array;
  readonly picks: Int32Array;

  constructor(design: Design) {
    this.drawn = new Int32Array(design.maxFamilyScenarios);
    this.picks = new Int32Array(Math.max(1, design.maxScenarioSize));
  }
}

/**
 * One resample: per family, its scenarios drawn with replacement, then per
 * drawn scenario its episodes, every draw from `stream` in that order (the
 * order evaluation.md fixes), each into every accumulator.
 */
export function drawResample(design: Design, stream: BootstrapStream, accumulators: readonly MetricAccumulator[], scratch: ResampleScratch): void {
  const { drawn, picks } = scratch;
  for (const family of design.families) {
    const k = family.starts.length;
    for (let j = 0; j < k; j++) drawn[j] = stream.uniform(k);
    for (let j = 0; j < k; j++) {
      const scenario = drawn[j]!;
      const n = family.sizes[scenario]!;
      const start = family.starts[scenario]!;
      for (let i = 0; i < n; i++) picks[i] = stream.uniform(n);
      for (const acc of accumulators) acc.addScenario(start, picks, n);
    }
    for (const acc of accumulators) acc.endFamily();
  }
  for (const acc of accumulators) acc.endResample();
}

/** The statistics as reduced rationals, in resample order (for tests and diagnostics). */
export function statisticRationals(j: JointStatistics): (Rational | null)[] {
  return j.numerators.map((n) => (n === null ? null : Rational.of(n, j.denominator)));
}

function quantileOfSorted(sorted: readonly bigint[], den: bigint, p: Rational): Rational {
  return quantileOfOrder((i) => sorted[i]!, sorted.length, den, p);
}

/**
 * The type-7 2.5% and 97.5% quantiles over the resamples that have a
 * statistic; null when none has. The numerators share one positive
 * denominator, so they sort as integers and only the quantiles are reduced.
 */
export function jointInterval(j: JointStatistics): Interval | null {
  const sorted = j.numerators.filter((n): n is bigint => n !== null).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (sorted.length === 0) return null;
  return { lower: quantileOfSorted(sorted, j.denominator, LOWER_QUANTILE), upper: quantileOfSorted(sorted, j.denominator, UPPER_QUANTILE) };
}
