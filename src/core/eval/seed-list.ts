/**
 * A list of seeds as a person writes it: single seeds and inclusive ranges
 * `A..B` (`0..29` is the 30 seeds 0, 1, ..., 29), in the order given; the
 * manifest keeps that order exactly. Errors name the field `seeds` and the
 * position of the item (1-based), never a seed value: the seeds of an
 * evaluation schedule are not printed (cli-v1.0.md).
 */

import { fieldError } from '../errors.js';
import { isSeed } from '../world/seed.js';

/** The most seeds one range may give: a manifest is read and hashed whole. */
export const MAX_RANGE_SEEDS = 100_000;

const SEED_FORM = 'a decimal string in [0, 2^64 - 1] (digits only, no sign, spaces or leading zeros)';

/** The seeds of one item: a seed, or every seed of an inclusive range, ascending. */
function itemSeeds(text: string, position: number): string[] {
  const dots = text.indexOf('..');
  if (dots < 0) {
    if (!isSeed(text)) throw fieldError('seeds', `must be ${SEED_FORM}`);
    return [text];
  }
  const first = text.slice(0, dots);
  const last = text.slice(dots + 2);
  const where = `the range in position ${position}`;
  if (!isSeed(first) || !isSeed(last)) {
    throw fieldError('seeds', `${where} must be A..B with A and B each ${SEED_FORM}`);
  }
  const from = BigInt(first);
  const to = BigInt(last);
  if (to < from) throw fieldError('seeds', `${where} ends before it starts (A..B needs A <= B)`);
  if (to - from + 1n > BigInt(MAX_RANGE_SEEDS)) {
    throw fieldError('seeds', `${where} gives ${to - from + 1n} seeds; a range may give at most ${MAX_RANGE_SEEDS}`);
  }
  const seeds: string[] = [];
  for (let seed = from; seed <= to; seed++) seeds.push(seed.toString());
  return seeds;
}

/**
 * Expands seed items (`7`, `0..29`) into the seed list, in order. A
 * malformed item, an empty or reversed range, or a seed given twice (also
 * through overlapping ranges) is a UsageError with field `seeds`.
 */
export function expandSeedList(items: readonly string[]): string[] {
  // Every item is checked before any duplicate, as for single seeds before ranges existed.
  const expanded = items.map((text, i) => itemSeeds(text, i + 1));
  const seeds: string[] = [];
  const seen = new Set<string>();
  expanded.forEach((group, i) => {
    for (const seed of group) {
      if (seen.has(seed)) {
        const what = items[i]!.includes('..')
          ? `the range given in position ${i + 1} repeats a seed given earlier`
          : `the seed given in position ${i + 1} duplicates an earlier one`;
        throw fieldError('seeds', `${what} (seeds must be distinct)`);
      }
      seen.add(seed);
      seeds.push(seed);
    }
  });
  return seeds;
}
