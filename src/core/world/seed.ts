/**
 * Episode seeds (environment.md section 2, evaluation.md section 1): a
 * 64-bit value written as a canonical decimal string, so that it survives
 * every JSON reader exactly and hashes to one byte form.
 */

import { ValidationError } from '../errors.js';

const CANONICAL_DECIMAL = /^(0|[1-9][0-9]*)$/;
const MAX_SEED = (1n << 64n) - 1n;
// 2^64 - 1 has 20 digits; a longer string is out of range without a BigInt.
const MAX_DIGITS = 20;

/** True for a canonical decimal string in [0, 2^64 - 1]: no sign, spaces or leading zeros. */
export function isSeed(text: unknown): text is string {
  return (
    typeof text === 'string' &&
    text.length <= MAX_DIGITS &&
    CANONICAL_DECIMAL.test(text) &&
    BigInt(text) <= MAX_SEED
  );
}

/**
 * Returns `text` when it is a seed, else throws a ValidationError naming
 * `what`. The rejected value is not echoed: seeds of an evaluation schedule
 * are not printed (cli-v1.0.md).
 */
export function parseSeed(text: string, what: string): string {
  if (!isSeed(text)) {
    throw new ValidationError(
      `${what}: must be a decimal string in [0, 2^64 - 1] (digits only, no sign, spaces or leading zeros)`,
    );
  }
  return text;
}
