/**
 * The episode score (scoring-v1.0.md sections 4, 4.1-4.5):
 *
 *   EMBER = 100 * Safety * Quality ^ beta * Severity
 *
 * from exact integers. Every decimal operation below is one call of
 * ./decimal.js (Python `decimal`, 50 digits, ROUND_HALF_EVEN), in exactly
 * this order; test/python/score_reference.py performs the same operations
 * with Python's `decimal` and the tests compare every digit. With
 * M = Decimal(M*), and `a ** b` Python's Decimal power:
 *
 *   E          = (Decimal(evacuated) / M) ** kE
 *   log2(1+n)  = Decimal(1 + n).ln() / Decimal(2).ln()
 *   P_casualty = (alpha_c ** log2(1+c)) * ((1 - Decimal(c) / M) ** k_c)
 *   P_stranding= (alpha_s ** log2(1+s)) * ((1 - Decimal(s) / M) ** k_s)
 *   Safety     = (E * P_casualty) * P_stranding, or 0 at the gate
 *   T, P, R    = Decimal(bound) / Decimal(actual)
 *   H          = (1 - Decimal(D - D*) / Decimal(sum A_i)) ** kH     (D - D* an exact integer)
 *   Quality    = exp(acc), acc = 0 + (w_k / W) * ln(q_k) added in the order
 *                time, hazard, path, replanning over the defined components,
 *                W = 0 + w_k added in the same order; 0 when a defined q_k is 0
 *   beta       = min(1, alpha_c.ln() / q_min.ln()), q_min the smallest severe threshold
 *   Severity   = 1 * (phi * ((q_k / q_k_severe) ** gamma)) for each severe k, in order
 *   score      = ((100 * Safety) * (Quality ** beta)) * Severity
 *   ceiling    = (100 * Safety) * Severity
 *
 * The score and ceiling are computed from the unrounded 50-digit values;
 * only the reported strings are rounded (half-even): components, Safety,
 * Quality, Severity and beta to 1e-12, the score and ceiling to 1e-9 points.
 *
 * Exact decisions are made on the integers, never on rounded decimals:
 * the catastrophic gate (c + s) / M* >= 1/2 is 2(c + s) >= M*, and a
 * component is severe when its exact rational value is strictly below its
 * threshold: T < 1/2, H < 3/4 (with kH = 1: an avoidable danger-zone rate
 * (D - D*) / sum A_i above 1/4), P < 1/2, R < 1/2.
 *
 * Quality when no component is defined: every savable person is evacuated,
 * an avoidable casualty or avoidable stranded (evacuated + c + s = M*), so
 * without an evacuee c + s = M* and the gate makes the episode catastrophic.
 * Quality is then reported as null (undefined), not 1, and the score is 0.
 * `failed` is decided by the caller (no authenticated result, score 0).
 */

import { ValidationError } from '../errors.js';
import { Rational } from '../stats/rational.js';
import { COMPONENT_PLACES, SCORE_PLACES, SCORING_CONSTANTS as K } from './constants.js';
import { add, cmp, dec, div, exp, ln, mul, pow, sub, toExact, toPlain, type D } from './decimal.js';

export type Count = number | bigint;

/** A component bound / actual, e.g. Q_cut / sum(A_i). */
export interface RatioInput {
  readonly bound: Count;
  readonly actual: Count;
}

/** Hazard: (1 - (D - D*) / sum(A_i)) ^ kH. */
export interface HazardInput {
  /** D: the evacuees' danger-zone person-states. */
  readonly dangerStates: Count;
  /** D* = sum(D*_i). */
  readonly fewestDangerStates: Count;
  /** sum(A_i) over the evacuees. */
  readonly evacuationSteps: Count;
}

export interface EpisodeScoreInput {
  /** M*: people with a finite earliest evacuation step. */
  readonly maxEvacuated: Count;
  readonly population: Count;
  readonly evacuated: Count;
  /** c */
  readonly avoidableCasualties: Count;
  /** s */
  readonly avoidableStranded: Count;
  /** Q_cut / sum(A_i); null without an evacuee. */
  readonly time: RatioInput | null;
  readonly hazard: HazardInput | null;
  /** sum(m*_i) / sum(m_i); null without an evacuee. */
  readonly path: RatioInput | null;
  /** sum(L(x_e, t_e) - t_e) / sum(r_e - t_e); null without a recoverable route-invalidation event. */
  readonly replanning: RatioInput | null;
}

export const QUALITY_ORDER = ['time', 'hazard', 'path', 'replanning'] as const;
export type QualityComponent = (typeof QUALITY_ORDER)[number];

export type EpisodeScoreStatus = 'scored' | 'catastrophic' | 'not_applicable';

/** Decimal strings with fixed places (see the module comment); null = undefined. */
export interface EpisodeScoreResult {
  readonly status: EpisodeScoreStatus;
  readonly components: {
    readonly evacuation: string | null;
    readonly casualty: string | null;
    readonly stranding: string | null;
    readonly time: string | null;
    readonly hazard: string | null;
    readonly path: string | null;
    readonly replanning: string | null;
  };
  readonly safety: string | null;
  readonly quality: string | null;
  readonly beta: string;
  readonly severity: string | null;
  /** Severe components in QUALITY_ORDER. */
  readonly severe: readonly QualityComponent[];
  /** 100 * Safety * Severity, points. */
  readonly ceiling: string | null;
  /** Points; null for not_applicable (excluded from every mean). */
  readonly score: string | null;
}

function fail(problem: string): never {
  throw new ValidationError(`scoring input error: ${problem}`);
}

function count(value: Count, name: string): bigint {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) fail(`${name} must be a safe integer or a bigint, got ${value}`);
  const n = BigInt(value);
  if (n < 0n) fail(`${name} must not be negative, got ${n}`);
  return n;
}

const ONE = dec(1);
const HUNDRED = dec(100);
const LN2 = ln(dec(2));
const KE = dec(K.kE);
const ALPHA_C = dec(K.alpha_c);
const K_C = dec(K.k_c);
const ALPHA_S = dec(K.alpha_s);
const K_S = dec(K.k_s);
const KH = dec(K.kH);
const PHI = dec(K.phi);
const GAMMA = dec(K.gamma);
const KH_INTEGER = BigInt(K.kH);
const CATASTROPHIC = Rational.parse(K.catastrophic_loss_rate);
const THRESHOLDS = Object.fromEntries(QUALITY_ORDER.map((k) => [k, { decimal: dec(K.severe_thresholds[k]), exact: Rational.parse(K.severe_thresholds[k]) }])) as Record<
  QualityComponent,
  { decimal: D; exact: Rational }
>;
const WEIGHTS = Object.fromEntries(QUALITY_ORDER.map((k) => [k, dec(K.weights[k])])) as Record<QualityComponent, D>;

/** beta = min(1, ln(alpha_c) / ln(q_min)), q_min the smallest severe threshold (section 4.3). */
export const BETA: D = (() => {
  let qMin = THRESHOLDS.time.decimal;
  for (const k of QUALITY_ORDER) if (cmp(THRESHOLDS[k].decimal, qMin) < 0) qMin = THRESHOLDS[k].decimal;
  const ratio = div(ln(ALPHA_C), ln(qMin));
  return cmp(ratio, ONE) < 0 ? ratio : ONE;
})();

/** alpha ^ log2(1 + n) * (1 - n / M*) ^ k. */
function lossFactor(n: bigint, m: D, alpha: D, k: D): D {
  const incident = pow(alpha, div(ln(dec(1n + n)), LN2));
  const rate = pow(sub(ONE, div(dec(n), m)), k);
  return mul(incident, rate);
}

interface Component {
  readonly value: D;
  readonly exact: Rational;
}

function ratioComponent(input: RatioInput, name: string): Component {
  const bound = count(input.bound, `${name} bound`);
  const actual = count(input.actual, `${name} actual value`);
  if (actual === 0n) fail(`${name} actual value must be positive`);
  if (bound > actual) fail(`${name} actual value ${actual} is below its privileged bound ${bound}`);
  return { value: div(dec(bound), dec(actual)), exact: Rational.of(bound, actual) };
}

function hazardComponent(input: HazardInput): Component {
  const d = count(input.dangerStates, 'hazard danger-zone states D');
  const dStar = count(input.fewestDangerStates, 'hazard bound D*');
  const steps = count(input.evacuationSteps, 'hazard evacuation steps');
  if (steps === 0n) fail('hazard evacuation steps must be positive');
  if (dStar > d) fail(`hazard danger-zone states ${d} are below their privileged bound ${dStar}`);
  const avoidable = d - dStar;
  if (avoidable > steps) fail(`hazard avoidable danger-zone states ${avoidable} exceed the evacuation steps ${steps}`);
  const value = pow(sub(ONE, div(dec(avoidable), dec(steps))), KH);
  const exact = Rational.of((steps - avoidable) ** KH_INTEGER, steps ** KH_INTEGER);
  return { value, exact };
}

interface Counts {
  readonly m: bigint;
  readonly evacuated: bigint;
  readonly c: bigint;
  readonly s: bigint;
}

function validateCounts(input: EpisodeScoreInput): Counts {
  const m = count(input.maxEvacuated, 'M* (max_evacuated)');
  const population = count(input.population, 'population');
  const evacuated = count(input.evacuated, 'evacuated');
  const c = count(input.avoidableCasualties, 'avoidable casualties');
  const s = count(input.avoidableStranded, 'avoidable stranded');
  if (m > population) fail(`M* ${m} exceeds the population ${population}`);
  if (evacuated + c + s !== m) {
    fail(`evacuated ${evacuated} + avoidable casualties ${c} + avoidable stranded ${s} must equal M* ${m} (every savable person is one of the three)`);
  }
  const evacuees = evacuated > 0n;
  for (const k of ['time', 'hazard', 'path'] as const) {
    if ((input[k] !== null) !== evacuees) fail(`${k} must be ${evacuees ? 'defined with' : 'undefined without'} an evacuee`);
  }
  if (m === 0n && input.replanning !== null) fail('replanning must be undefined when M* is 0 (no event is recoverable)');
  return { m, evacuated, c, s };
}

const NOT_APPLICABLE: EpisodeScoreResult = {
  status: 'not_applicable',
  components: { evacuation: null, casualty: null, stranding: null, time: null, hazard: null, path: null, replanning: null },
  safety: null,
  quality: null,
  beta: toPlain(BETA, COMPONENT_PLACES),
  severity: null,
  severe: [],
  ceiling: null,
  score: null,
};

function qualityOf(components: Partial<Record<QualityComponent, Component>>): D | null {
  const defined = QUALITY_ORDER.filter((k) => components[k] !== undefined);
  if (defined.length === 0) return null;
  if (defined.some((k) => components[k]!.value.isZero())) return dec(0);
  let total = dec(0);
  for (const k of defined) total = add(total, WEIGHTS[k]);
  let acc = dec(0);
  for (const k of defined) acc = add(acc, mul(div(WEIGHTS[k], total), ln(components[k]!.value)));
  return exp(acc);
}

/** The unrounded 50-digit values of one episode (undefined components absent). */
interface EpisodeValues {
  readonly catastrophic: boolean;
  readonly evacuation: D;
  readonly casualty: D;
  readonly stranding: D;
  readonly components: Partial<Record<QualityComponent, Component>>;
  readonly safety: D;
  readonly quality: D | null;
  readonly severity: D;
  readonly severe: readonly QualityComponent[];
  readonly ceiling: D;
  readonly score: D;
}

function episodeValues(input: EpisodeScoreInput): EpisodeValues | null {
  const { m, evacuated, c, s } = validateCounts(input);
  const components: Partial<Record<QualityComponent, Component>> = {};
  if (input.time !== null) components.time = ratioComponent(input.time, 'time');
  if (input.hazard !== null) components.hazard = hazardComponent(input.hazard);
  if (input.path !== null) components.path = ratioComponent(input.path, 'path');
  if (input.replanning !== null) components.replanning = ratioComponent(input.replanning, 'replanning');
  if (m === 0n) return null;

  const mDec = dec(m);
  const evacuation = pow(div(dec(evacuated), mDec), KE);
  const casualty = lossFactor(c, mDec, ALPHA_C, K_C);
  const stranding = lossFactor(s, mDec, ALPHA_S, K_S);
  const catastrophic = Rational.of(c + s, m).cmp(CATASTROPHIC) >= 0;
  const safety = catastrophic ? dec(0) : mul(mul(evacuation, casualty), stranding);

  const quality = qualityOf(components);
  const severe = QUALITY_ORDER.filter((k) => components[k] !== undefined && components[k].exact.cmp(THRESHOLDS[k].exact) < 0);
  let severity = ONE;
  for (const k of severe) severity = mul(severity, mul(PHI, pow(div(components[k]!.value, THRESHOLDS[k].decimal), GAMMA)));

  const hundredSafety = mul(HUNDRED, safety);
  // quality is null only without an evacuee, which is always catastrophic (module comment).
  const score = catastrophic || quality === null ? dec(0) : mul(mul(hundredSafety, pow(quality, BETA)), severity);
  return { catastrophic, evacuation, casualty, stranding, components, safety, quality, severity, severe, ceiling: mul(hundredSafety, severity), score };
}

/** The episode score of one authenticated episode-trial (section 4). Throws ValidationError on an impossible input. */
export function scoreEpisode(input: EpisodeScoreInput): EpisodeScoreResult {
  const v = episodeValues(input);
  if (v === null) return NOT_APPLICABLE;
  const places = (x: D | null | undefined): string | null => (x === undefined || x === null ? null : toPlain(x, COMPONENT_PLACES));
  return {
    status: v.catastrophic ? 'catastrophic' : 'scored',
    components: {
      evacuation: places(v.evacuation),
      casualty: places(v.casualty),
      stranding: places(v.stranding),
      time: places(v.components.time?.value),
      hazard: places(v.components.hazard?.value),
      path: places(v.components.path?.value),
      replanning: places(v.components.replanning?.value),
    },
    safety: places(v.safety),
    quality: places(v.quality),
    beta: toPlain(BETA, COMPONENT_PLACES),
    severity: places(v.severity),
    severe: v.severe,
    ceiling: toPlain(v.ceiling, SCORE_PLACES),
    score: toPlain(v.score, SCORE_PLACES),
  };
}

/**
 * Every value of the episode score before rounding, at its full 50 digits
 * (plain, without trailing zeros; null when undefined or not applicable).
 * For audits and the digit-for-digit comparison with the Python reference,
 * which the rounded report values would hide.
 */
export function episodeScoreDigits(input: EpisodeScoreInput): Readonly<Record<string, string | null>> {
  const v = episodeValues(input);
  const digits = (x: D | null | undefined): string | null => (x === undefined || x === null ? null : toExact(x));
  return {
    evacuation: digits(v?.evacuation),
    casualty: digits(v?.casualty),
    stranding: digits(v?.stranding),
    time: digits(v?.components.time?.value),
    hazard: digits(v?.components.hazard?.value),
    path: digits(v?.components.path?.value),
    replanning: digits(v?.components.replanning?.value),
    safety: digits(v?.safety),
    quality: digits(v?.quality),
    beta: toExact(BETA),
    severity: digits(v?.severity),
    ceiling: digits(v?.ceiling),
    score: digits(v?.score),
  };
}
