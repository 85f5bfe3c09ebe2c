/**
 * Decimal arithmetic equal digit for digit to Python's `decimal` (libmpdec,
 * CPython's `_decimal`) at 50 significant digits, ROUND_HALF_EVEN
 * (scoring-v1.0.md 4.5). decimal.js does `+ - * /` and rounding to places,
 * which are correctly rounded in both libraries. The rest follows mpdecimal.c:
 *
 * - ln, exp (mpd_qln, mpd_qexp with CPython's `allcr` flag) are correctly
 *   rounded: Ziv's loop at prec + 3, + 19, ... digits until result - ulp and
 *   result + ulp round alike. ln/exp of a rational (but ln 1, exp 0) is never
 *   a tie, so the correctly rounded value is unique. decimal.js's own ln/exp
 *   can misround near ties (and are slow), so here they run in binary fixed
 *   point on BigInt with a proven error bound, and the precision grows until
 *   the whole error interval rounds to one value.
 * - Integer powers (_mpd_qpow_int): left-to-right binary exponentiation at
 *   wp = prec + (digits of |y|) + 2 (+ 1, with base 1/x, for y < 0), every
 *   product rounded half-even to wp, then one rounding to prec. The double
 *   rounding can differ from the correctly rounded power in the last digit.
 * - Non-integer powers (_mpd_qpow_real): wp = max(digits of x, prec) + 4 + 19
 *   (MPD_EXPDIGITS, 64-bit builds); t = ln(x) correctly rounded to wp,
 *   t = t * y rounded to wp, r = exp(t) correctly rounded to wp, r rounded to
 *   prec. No exact-result detection (_mpd_qpow_exact is a TODO in libmpdec):
 *   an exact power that is a tie at prec digits rounds the way r falls.
 * Both power algorithms are reproduced exactly.
 */

import { Decimal } from 'decimal.js';

/** Significant digits of every scoring operation. */
export const SCORING_PRECISION = 50;

/** A decimal value. Use only the functions of this module on it: they fix the precision and rounding. */
export type D = Decimal;

const HALF_EVEN = Decimal.ROUND_HALF_EVEN;

// Plain notation in toString and a practically unbounded exponent range
// (libmpdec's default context allows exponents to +-999999; scores never
// come close).
const BASE = Decimal.clone({
  precision: SCORING_PRECISION,
  rounding: HALF_EVEN,
  toExpNeg: -9e15,
  toExpPos: 9e15,
  minE: -9e15,
  maxE: 9e15,
  crypto: false,
});

const contexts = new Map<number, Decimal.Constructor>([[SCORING_PRECISION, BASE]]);

/** The decimal.js constructor that rounds every operation half-even to `prec` digits. */
function at(prec: number): Decimal.Constructor {
  let ctor = contexts.get(prec);
  if (ctor === undefined) {
    ctor = BASE.clone({ precision: prec });
    contexts.set(prec, ctor);
  }
  return ctor;
}

const DECIMAL_LITERAL = /^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/;

/**
 * An exact decimal, like Python's `Decimal(x)`: a decimal string, a bigint or
 * a safe integer. Floats are refused (their value depends on binary
 * rounding). Not rounded to 50 digits.
 */
export function dec(x: string | bigint | number): D {
  if (typeof x === 'number') {
    if (!Number.isSafeInteger(x)) throw new RangeError(`dec: ${x} is not a safe integer; pass a decimal string`);
    return new BASE(x);
  }
  if (typeof x === 'bigint') return new BASE(x.toString());
  if (!DECIMAL_LITERAL.test(x)) throw new RangeError(`dec: not a decimal literal: ${JSON.stringify(x)}`);
  return new BASE(x);
}

export function add(a: D, b: D): D {
  return BASE.add(a, b);
}

export function sub(a: D, b: D): D {
  return BASE.sub(a, b);
}

export function mul(a: D, b: D): D {
  return BASE.mul(a, b);
}

export function div(a: D, b: D): D {
  if (b.isZero()) throw new RangeError('decimal division by zero');
  return BASE.div(a, b);
}

/** Compares two decimals exactly: -1, 0 or 1. */
export function cmp(a: D, b: D): number {
  return a.cmp(b);
}

/** Rounds half-even to `prec` significant digits (libmpdec's mpd_qfinalize). */
function roundTo(x: D, prec: number): D {
  return new BASE(x.toSignificantDigits(prec, HALF_EVEN));
}

// ---------------------------------------------------------------------------
// Correctly rounded ln and exp in binary fixed point: an integer V stands for
// V * 2^-F. Each evaluation returns an interval [lo, hi] * 2^shift that
// provably holds the exact value; the result is accepted when both ends
// round to the same `prec` digits.

function bitLength(n: bigint): number {
  if (n < 0n) n = -n;
  if (n === 0n) return 0;
  const hex = n.toString(16);
  return (hex.length - 1) * 4 + (32 - Math.clz32(parseInt(hex[0]!, 16)));
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n) && ((a < 0n) !== (b < 0n)) ? q - 1n : q;
}

/** v / 2^bits rounded toward zero (a plain shift floors negatives and never reaches 0). */
function truncShift(v: bigint, bits: number): bigint {
  return v >= 0n ? v >> BigInt(bits) : -(-v >> BigInt(bits));
}

/** The value of a finite decimal as num / den (den a power of ten). */
function toRatio(x: D): { num: bigint; den: bigint } {
  const [mantissa, exponentText] = x.toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '').replace('-', '');
  const exp10 = Number(exponentText) - (digits.length - 1);
  const coefficient = BigInt(digits) * (x.isNeg() ? -1n : 1n);
  return exp10 >= 0 ? { num: coefficient * 10n ** BigInt(exp10), den: 1n } : { num: coefficient, den: 10n ** BigInt(-exp10) };
}

// ln 2 * 2^bits, error below 2 units: computed 64 bits wider and shifted.
let ln2Cached = { bits: 0, value: 0n };
function ln2Fixed(bits: number): bigint {
  if (ln2Cached.bits < bits + 64) {
    const g = 2 * bits + 128;
    // ln 2 = 2 atanh(1/3) = sum 2 / ((2n+1) 3^(2n+1)); truncation errors stay far below 2^64 units.
    let power = (2n << BigInt(g)) / 3n;
    let sum = 0n;
    for (let n = 0n; power !== 0n; n++) {
      sum += power / (2n * n + 1n);
      power /= 9n;
    }
    ln2Cached = { bits: g, value: sum };
  }
  return ln2Cached.value >> BigInt(ln2Cached.bits - bits);
}

/** The exact value lies in [lo, hi] * 2^shift. */
type Enclosure = { lo: bigint; hi: bigint; shift: number };

/** Rounds n * 10^exp10 (n > 0, with more than `prec` digits) half-even to `prec` digits; returns "coefEexp" without trailing zeros. */
function roundDigits(n: bigint, exp10: number, prec: number): string {
  const drop = n.toString().length - prec;
  const scale = 10n ** BigInt(drop);
  let q = n / scale;
  const twice = 2n * (n % scale);
  if (twice > scale || (twice === scale && (q & 1n) === 1n)) q += 1n;
  let e = exp10 + drop;
  while (q % 10n === 0n) {
    q /= 10n;
    e++;
  }
  return `${q}e${e}`;
}

/** The value rounded half-even to `prec` digits when the whole enclosure rounds alike, else null. */
function roundEnclosure(enc: Enclosure, prec: number): D | null {
  if (enc.lo <= 0n && enc.hi >= 0n) return null;
  const negative = enc.hi < 0n;
  const small = negative ? -enc.hi : enc.lo;
  const large = negative ? -enc.lo : enc.hi;
  // Decimal scale m so that small * 2^shift * 10^m keeps every digit the
  // fixed-point value resolves (and at least prec + 3), so that flooring and
  // ceiling to integers do not widen the enclosure.
  const bits = bitLength(small) + enc.shift; // small * 2^shift >= 2^(bits - 1)
  const resolved = Math.max(prec + 5, Math.ceil((bitLength(small) * 30103) / 100000) + 2);
  const m = resolved - Number(floorDiv(BigInt(bits - 1) * 30103n, 100000n));
  const p10 = m >= 0 ? 10n ** BigInt(m) : 1n;
  const d10 = m < 0 ? 10n ** BigInt(-m) : 1n;
  const scaleDown = (v: bigint, up: boolean): bigint => {
    let num = v * p10;
    let den = d10;
    if (enc.shift >= 0) num <<= BigInt(enc.shift);
    else den <<= BigInt(-enc.shift);
    return up ? -floorDiv(-num, den) : floorDiv(num, den);
  };
  const low = scaleDown(small, false);
  const high = scaleDown(large, true);
  if (low.toString().length < prec + 2) throw new RangeError('decimal: internal scale error');
  const a = roundDigits(low, -m, prec);
  if (a !== roundDigits(high, -m, prec)) return null;
  return new BASE((negative ? '-' : '') + a);
}

// log2(10) < 3.3220 and a few guard digits beyond the target.
function workingBits(prec: number): number {
  return Math.ceil(((prec + 6) * 33220) / 10000);
}

/** ln(num/den) (num, den > 0, not 1) enclosed at `bits` fractional bits beyond its magnitude. */
function lnEnclosure(num: bigint, den: bigint, bits: number): Enclosure {
  // x = y * 2^e with 3/4 <= y < 3/2, so |z| <= 1/5 for z = (y - 1)/(y + 1).
  let e = bitLength(num) - bitLength(den);
  const scaled = (k: number): [bigint, bigint] => (k >= 0 ? [num, den << BigInt(k)] : [num << BigInt(-k), den]);
  for (;;) {
    const [n, d] = scaled(e);
    if (4n * n < 3n * d) e--;
    else if (2n * n >= 3n * d) e++;
    else break;
  }
  const [n, d] = scaled(e);
  const zNum = n - d;
  const zDen = n + d;
  // When e = 0 the result is about 2z: add the bits z lacks.
  const lead = e === 0 ? Math.max(0, bitLength(zDen) - bitLength(zNum)) : 0;
  const F = bits + lead + 8;
  const z = (zNum << BigInt(F)) / zDen; // |error| < 1
  const z2 = (z * z) >> BigInt(F);
  let term = z;
  let sum = 0n;
  let terms = 0;
  for (let k = 1n; term !== 0n; k += 2n) {
    sum += term / k;
    term = truncShift(term * z2, F);
    terms++;
  }
  // Error analysis (units 2^-F): every term carries < 2 from z and z2 and
  // < 1 from its division, the tail after the last term < 2.1, times 2 for
  // 2 atanh; ln 2 errs < 2 per unit of e. Bound with margin.
  const value = 2n * sum + BigInt(e) * ln2Fixed(F);
  const err = BigInt(8 * terms + 2 * Math.abs(e) + 16);
  return { lo: value - err, hi: value + err, shift: -F };
}

// exp reduces r by 2^-SQUARINGS before the series and squares back.
const SQUARINGS = 8;

/** exp(num/den) enclosed at about `bits` significant bits. */
function expEnclosure(num: bigint, den: bigint, bits: number): Enclosure {
  const magnitude = (num < 0n ? -num : num) / den;
  const F = bits + SQUARINGS + bitLength(magnitude) + 24;
  const one = 1n << BigInt(F);
  const x = (num << BigInt(F)) / den; // |error| < 1
  const l2 = ln2Fixed(F); // |error| < 2
  const k = floorDiv(2n * x + l2, 2n * l2); // nearest integer to x / ln 2 (any near one works)
  const r = x - k * l2; // |r| < 0.35 * 2^F, error < 1 + 2|k|
  const rs = r >> BigInt(SQUARINGS);
  let sum = one;
  let term = one;
  let terms = 0;
  for (let n = 1n; term !== 0n; n++) {
    term = truncShift(term * rs, F) / n;
    sum += term;
    terms++;
  }
  for (let i = 0; i < SQUARINGS; i++) sum = (sum * sum) >> BigInt(F);
  // Relative error (units 2^-F): the series errs < 2.01 per term plus a tail
  // < 2, over a value >= 0.70, amplified 2^SQUARINGS by the squarings, each
  // adding < 1.43; the reduced argument errs < 1 + 2|k| + 2^SQUARINGS.
  // The value is < 1.42, so the absolute error is below 2 * relative.
  const absK = k < 0n ? -k : k;
  const relative = (1n << BigInt(SQUARINGS)) * BigInt(3 * terms + 8) + 2n * absK + (1n << BigInt(SQUARINGS)) + 4n;
  const err = 4n * relative;
  return { lo: sum - err, hi: sum + err, shift: Number(k) - F };
}

function correctlyRounded(enclose: (bits: number) => Enclosure, prec: number): D {
  for (let bits = workingBits(prec); bits < 1_000_000; bits += 64) {
    const rounded = roundEnclosure(enclose(bits), prec);
    if (rounded !== null) return rounded;
  }
  throw new RangeError('decimal: no correctly rounded result found');
}

// Guards against inputs that would build enormous integers; scoring uses |x| < 1000.
const EXP_LIMIT = new BASE('1e7');

function lnAt(x: D, prec: number): D {
  if (!x.isFinite() || x.lte(0)) throw new RangeError(`ln of a non-positive or non-finite value: ${x.toString()}`);
  if (x.eq(1)) return new BASE(0);
  const { num, den } = toRatio(x);
  return correctlyRounded((bits) => lnEnclosure(num, den, bits), prec);
}

function expAt(x: D, prec: number): D {
  if (!x.isFinite() || x.abs().gte(EXP_LIMIT)) throw new RangeError(`exp argument out of range: ${x.toString()}`);
  if (x.isZero()) return new BASE(1);
  const { num, den } = toRatio(x);
  return correctlyRounded((bits) => expEnclosure(num, den, bits), prec);
}

/** Natural logarithm, correctly rounded half-even to 50 digits (as mpd_qln). */
export function ln(x: D): D {
  return lnAt(x, SCORING_PRECISION);
}

/** e ** x, correctly rounded half-even to 50 digits (as mpd_qexp). */
export function exp(x: D): D {
  return expAt(x, SCORING_PRECISION);
}

// Powers as mpd_qpow. MPD_EXPDIGITS of libmpdec's 64-bit builds (CONFIG_64):
const MPD_EXPDIGITS = 19;
const MAX_UINT64 = (1n << 64n) - 1n;

/** _mpd_qpow_int: binary exponentiation, each product rounded to wp, then rounded to prec. */
function powInteger(base: D, y: D, prec: number): D {
  const negativeResult = base.isNeg() && !y.mod(2).isZero();
  // adjexp(y) + 1 = digits of the integer |y| (decimal.js's `e` is the adjusted exponent).
  let wp = prec + (y.e + 1) + 2;
  let factor = base.abs();
  if (y.isNeg()) {
    wp += 1;
    factor = at(wp).div(1, factor);
  }
  const n = BigInt(y.abs().toFixed(0));
  if (n > MAX_UINT64) throw new RangeError('decimal pow: an exponent beyond 2^64 - 1 is not supported');
  const ctor = at(wp);
  // The first factor is the operand itself, unrounded (mpd_qcopy).
  let result: D = factor;
  for (let bit = BigInt(n.toString(2).length - 2); bit >= 0n; bit--) {
    result = ctor.mul(result, result);
    if ((n >> bit) & 1n) result = ctor.mul(result, factor);
  }
  const rounded = roundTo(result, prec);
  return negativeResult ? rounded.neg() : rounded;
}

/** _mpd_qpow_real: exp(y * ln(x)) at wp = max(digits(x), prec) + 23, then rounded to prec. */
function powReal(base: D, y: D, prec: number): D {
  const wp = Math.max(base.sd(true), prec) + 4 + MPD_EXPDIGITS;
  const t = at(wp).mul(lnAt(base, wp), y);
  return roundTo(expAt(t, wp), prec);
}

/**
 * base ** y as Python's `Decimal.__pow__` (mpd_qpow) at 50 digits.
 *
 * Integer-valued y uses _mpd_qpow_int, any other y _mpd_qpow_real (see the
 * module comment). Special cases as mpd_qpow: 0 ** y (y > 0) = 0,
 * x ** 0 = 1, 1 ** y = 1, (-1) ** n = +-1. Refused (libmpdec raises
 * InvalidOperation or returns an infinity): 0 ** 0, 0 ** (y < 0), a negative
 * base with a non-integer y.
 *
 * Limits: libmpdec counts a base's digits with trailing zeros
 * (Decimal("0.50") has 2), decimal.js does not; the count matters only
 * above 50 digits, which no scoring operand has. Over- and underflow
 * shortcuts (_qcheck_pow_bounds, exponents beyond +-999999) are not modelled.
 */
export function pow(base: D, y: D): D {
  if (!base.isFinite() || !y.isFinite()) throw new RangeError('decimal pow of a non-finite value');
  const integerExponent = y.isInteger();
  if (base.isZero()) {
    if (y.isZero()) throw new RangeError('decimal pow: 0 ** 0 is undefined');
    if (y.isNeg()) throw new RangeError('decimal pow: 0 ** negative is infinite');
    return new BASE(0);
  }
  if (base.isNeg() && !integerExponent) throw new RangeError('decimal pow: negative base with a non-integer exponent');
  if (y.isZero()) return new BASE(1);
  if (base.abs().eq(1)) {
    // _qcheck_pow_one: exact +-1 (a negative base only reaches here with an integer y).
    return base.isNeg() && !y.mod(2).isZero() ? new BASE(-1) : new BASE(1);
  }
  return integerExponent ? powInteger(base, y, SCORING_PRECISION) : powReal(base, y, SCORING_PRECISION);
}

/**
 * Rounds half-even to `places` digits after the point, as Python's
 * `x.quantize(Decimal(10) ** -places)` under the scoring context (which
 * raises when the result needs more than 50 digits).
 */
export function quantize(x: D, places: number): D {
  if (!Number.isSafeInteger(places) || places < 0) throw new RangeError(`quantize: bad number of places ${places}`);
  const q = new BASE(x.toDecimalPlaces(places, HALF_EVEN));
  const digits = q.isZero() ? 1 : q.e + 1 + places;
  if (digits > SCORING_PRECISION) throw new RangeError(`quantize: ${x.toString()} needs ${digits} digits at ${places} places`);
  return q;
}

/**
 * The report form of a value: rounded half-even to `places` digits after the
 * point and written with exactly that many, no exponent; the same text as
 * Python's `format(x.quantize(Decimal(10) ** -places), "f")`.
 */
export function toPlain(x: D, places: number): string {
  return quantize(x, places).toFixed(places);
}

/** The exact value in plain notation without trailing zeros ("0.125", "2", "-3.5"). For tests and diagnostics. */
export function toExact(x: D): string {
  return x.toFixed();
}
