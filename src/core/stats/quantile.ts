/** Type-7 quantiles (Hyndman and Fan; R's default, numpy's "linear"), exact on rationals. */

import { Rational } from './rational.js';

/** Sorts ascending (a copy). */
export function sortRationals(values: readonly Rational[]): Rational[] {
  return values.slice().sort((a, b) => a.cmp(b));
}

/**
 * The type-7 quantile of already sorted values at probability p in [0, 1]:
 * h = (n - 1) p, q = x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]).
 */
export function quantileSorted(sorted: readonly Rational[], p: Rational): Rational {
  const n = sorted.length;
  if (n === 0) throw new RangeError('quantile of no values');
  if (p.cmp(Rational.ZERO) < 0 || p.cmp(Rational.ONE) > 0) throw new RangeError('quantile probability outside [0, 1]');
  const h = Rational.of(n - 1).mul(p);
  const lo = h.num / h.den; // floor: h >= 0
  const lower = sorted[Number(lo)]!;
  if (lo + 1n >= BigInt(n)) return lower;
  const frac = h.sub(Rational.of(lo));
  return lower.add(frac.mul(sorted[Number(lo) + 1]!.sub(lower)));
}

export function quantile(values: readonly Rational[], p: Rational): Rational {
  return quantileSorted(sortRationals(values), p);
}

/** The bounds of a 95% percentile interval. */
export const LOWER_QUANTILE = Rational.of(1n, 40n); // 2.5%
export const UPPER_QUANTILE = Rational.of(39n, 40n); // 97.5%

/** floor((n - 1) p): the first of the two order statistics a type-7 quantile reads. */
export function quantileIndex(n: number, p: Rational): number {
  const h = Rational.of(n - 1).mul(p);
  return Number(h.num / h.den); // floor: h >= 0
}

/**
 * The type-7 quantile (as quantileSorted) of n numerators over one denominator,
 * given the sorted order statistics it reads (`at(i)`: the i-th smallest).
 */
export function quantileOfOrder(at: (i: number) => bigint, n: number, den: bigint, p: Rational): Rational {
  const h = Rational.of(n - 1).mul(p);
  const lo = quantileIndex(n, p);
  const lower = Rational.of(at(lo), den);
  if (lo + 1 >= n) return lower;
  return lower.add(h.sub(Rational.of(lo)).mul(Rational.of(at(lo + 1) - at(lo), den)));
}
