/** Greatest common divisors and least common multiples of BigInts: the exact fractions and rationals of metrics and statistics. */

/** gcd(|a|, |b|): never negative; gcd(0, b) = |b|. */
export function gcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  while (b !== 0n) {
    // A plain swap: the destructuring form allocates an array per step.
    const r = a % b;
    a = b;
    b = r;
  }
  return a;
}

/** The least common multiple of positive values (1 for none). */
export function lcm(values: Iterable<bigint>): bigint {
  let out = 1n;
  for (const v of values) out = (out / gcd(out, v)) * v;
  return out;
}
