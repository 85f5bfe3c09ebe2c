/**
 * Exact rationals on BigInt: every mean, quantile and bootstrap statistic
 * after the episode score is one (evaluation.md section 6). Always reduced,
 * denominator positive.
 */

import { gcd } from '../bigint-math.js';

export class Rational {
  readonly num: bigint;
  readonly den: bigint;

  private constructor(num: bigint, den: bigint) {
    this.num = num;
    this.den = den;
  }

  static of(num: bigint | number, den: bigint | number = 1n): Rational {
    let n = BigInt(num);
    let d = BigInt(den);
    if (d === 0n) throw new RangeError('rational with zero denominator');
    if (d < 0n) {
      n = -n;
      d = -d;
    }
    const g = gcd(n, d);
    return g === 1n || g === 0n ? new Rational(n, d) : new Rational(n / g, d / g);
  }

  static readonly ZERO = Rational.of(0n);
  static readonly ONE = Rational.of(1n);

  /** Parses a decimal string ("12.5", "-0.001", "3") or a fraction ("3/4") exactly. */
  static parse(text: string): Rational {
    const fraction = /^(-?[0-9]+)\/([0-9]+)$/.exec(text);
    if (fraction) return Rational.of(BigInt(fraction[1]!), BigInt(fraction[2]!));
    const decimal = /^(-?)([0-9]+)(?:\.([0-9]+))?$/.exec(text);
    if (!decimal) throw new RangeError(`not a decimal or fraction: ${JSON.stringify(text)}`);
    const frac = decimal[3] ?? '';
    const n = BigInt(decimal[2]! + frac) * (decimal[1] === '-' ? -1n : 1n);
    return Rational.of(n, 10n ** BigInt(frac.length));
  }

  add(o: Rational): Rational {
    return this.den === o.den ? Rational.of(this.num + o.num, this.den) : Rational.of(this.num * o.den + o.num * this.den, this.den * o.den);
  }

  sub(o: Rational): Rational {
    return this.add(o.neg());
  }

  neg(): Rational {
    return new Rational(-this.num, this.den);
  }

  mul(o: Rational): Rational {
    return Rational.of(this.num * o.num, this.den * o.den);
  }

  div(o: Rational): Rational {
    if (o.num === 0n) throw new RangeError('division by zero');
    return Rational.of(this.num * o.den, this.den * o.num);
  }

  cmp(o: Rational): number {
    const l = this.num * o.den;
    const r = o.num * this.den;
    return l < r ? -1 : l > r ? 1 : 0;
  }

  eq(o: Rational): boolean {
    return this.num === o.num && this.den === o.den;
  }

  isZero(): boolean {
    return this.num === 0n;
  }

  /** The exact form used in artifacts: "num/den". */
  toFraction(): string {
    return `${this.num}/${this.den}`;
  }

  /** Rounded half-even to `places` decimals, for text only (never hashed). */
  toFixed(places: number): string {
    const scale = 10n ** BigInt(places);
    const scaled = this.num * scale;
    let q = scaled / this.den;
    const r = scaled % this.den;
    const twice = 2n * (r < 0n ? -r : r);
    if (twice > this.den || (twice === this.den && q % 2n !== 0n)) q += scaled < 0n ? -1n : 1n;
    // A value that rounds to zero prints without a sign.
    const negative = q < 0n;
    const digits = (q < 0n ? -q : q).toString().padStart(places + 1, '0');
    const body = places > 0 ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
    return (negative ? '-' : '') + body;
  }
}

/** The mean of a non-empty list of rationals. */
export function mean(values: readonly Rational[]): Rational {
  if (values.length === 0) throw new RangeError('mean of no values');
  let sum = Rational.ZERO;
  for (const v of values) sum = sum.add(v);
  return sum.div(Rational.of(values.length));
}
