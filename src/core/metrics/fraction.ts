/**
 * Exact fractions as JSON strings. Metrics, diagnostics and reports carry
 * ratios as `"num/den"` strings instead of floats, so every platform writes
 * the same bytes and canonical JSON (which refuses floats) can hash them.
 *
 * The one form: `"num/den"`, reduced (gcd(|num|, den) = 1), `den >= 1`, the
 * sign on the numerator, decimal digits without leading zeros. Integers are
 * written with denominator 1 (`"0/1"`, `"1/1"`, `"7/1"`), so a reader never
 * has to handle two shapes.
 */

import { gcd } from '../bigint-math.js';

export interface Fraction {
  readonly num: bigint;
  readonly den: bigint;
}

function toBigInt(value: bigint | number, what: string): bigint {
  if (typeof value === 'bigint') return value;
  if (!Number.isSafeInteger(value)) throw new RangeError(`fraction ${what} must be a safe integer, got ${value}`);
  return BigInt(value);
}

/** The reduced fraction num/den with a positive denominator; den = 0 throws. */
export function reduceFraction(num: bigint | number, den: bigint | number): Fraction {
  let n = toBigInt(num, 'numerator');
  let d = toBigInt(den, 'denominator');
  if (d === 0n) throw new RangeError('fraction denominator is zero');
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const g = gcd(n, d);
  // g >= 1 here: d != 0, so gcd(n, d) >= 1 (gcd(0, d) = d).
  return { num: n / g, den: d / g };
}

/** `"num/den"`, reduced, den >= 1: formatFraction(6, 8) = "3/4", formatFraction(0, 5) = "0/1". */
export function formatFraction(num: bigint | number, den: bigint | number): string {
  const f = reduceFraction(num, den);
  return `${f.num}/${f.den}`;
}

/** Like formatFraction, but null when the denominator is 0 (an undefined ratio, e.g. a mean over nobody). */
export function fractionOrNull(num: bigint | number, den: bigint | number): string | null {
  const d = toBigInt(den, 'denominator');
  return d === 0n ? null : formatFraction(num, d);
}

const FRACTION_FORM = /^(-?)(0|[1-9][0-9]*)\/([1-9][0-9]*)$/;

/**
 * Parses a fraction string in the one form above. Anything else (unreduced,
 * zero or negative denominator, leading zeros, "-0/1", spaces) throws a
 * RangeError, so a stored value round-trips byte for byte.
 */
export function parseFraction(text: string): Fraction {
  const m = FRACTION_FORM.exec(text);
  if (m === null) throw new RangeError(`not a fraction "num/den": ${JSON.stringify(text)}`);
  const negative = m[1] === '-';
  const magnitude = BigInt(m[2]!);
  const den = BigInt(m[3]!);
  if (negative && magnitude === 0n) throw new RangeError(`not a canonical fraction: ${JSON.stringify(text)}`);
  if (gcd(magnitude, den) !== 1n) throw new RangeError(`fraction is not reduced: ${JSON.stringify(text)}`);
  return { num: negative ? -magnitude : magnitude, den };
}
