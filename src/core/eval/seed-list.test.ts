import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { MAX_RANGE_SEEDS, expandSeedList } from './seed-list.js';

function problem(items: string[]): UsageError {
  try {
    expandSeedList(items);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('expected a UsageError');
}

describe('expandSeedList', () => {
  it('expands inclusive ranges in place, keeping the order of the items', () => {
    expect(expandSeedList(['0..3'])).toEqual(['0', '1', '2', '3']);
    expect(expandSeedList(['42', '5..7', '3', '9..9'])).toEqual(['42', '5', '6', '7', '3', '9']);
    expect(expandSeedList(['18446744073709551614..18446744073709551615'])).toEqual(['18446744073709551614', '18446744073709551615']);
  });

  it.each([
    [['1', '0..2'], 'seeds: the range given in position 2 repeats a seed given earlier (seeds must be distinct)'],
    [['0..5', '3..8'], 'seeds: the range given in position 2 repeats a seed given earlier (seeds must be distinct)'],
    [['0..5', '4'], 'seeds: the seed given in position 2 duplicates an earlier one (seeds must be distinct)'],
    [['3..1'], 'seeds: the range in position 1 ends before it starts (A..B needs A <= B)'],
    [['1', '0..'], 'seeds: the range in position 2 must be A..B with A and B each a decimal string in [0, 2^64 - 1] (digits only, no sign, spaces or leading zeros)'],
    [['..4'], 'seeds: the range in position 1 must be A..B with A and B each a decimal string in [0, 2^64 - 1] (digits only, no sign, spaces or leading zeros)'],
    [['1...3'], 'seeds: the range in position 1 must be A..B with A and B each a decimal string in [0, 2^64 - 1] (digits only, no sign, spaces or leading zeros)'],
    [['0..18446744073709551616'], 'seeds: the range in position 1 must be A..B with A and B each a decimal string in [0, 2^64 - 1] (digits only, no sign, spaces or leading zeros)'],
    [[`0..${MAX_RANGE_SEEDS}`], `seeds: the range in position 1 gives ${MAX_RANGE_SEEDS + 1} seeds; a range may give at most ${MAX_RANGE_SEEDS}`],
    [['07'], 'seeds: must be a decimal string in [0, 2^64 - 1] (digits only, no sign, spaces or leading zeros)'],
  ])('rejects %j with field seeds and a message naming the position, never a seed', (items, message) => {
    const error = problem(items);
    expect(error.field).toBe('seeds');
    expect(error.message).toBe(message);
  });

  it('checks every item before duplicates, as single seeds always were', () => {
    expect(problem(['1', '1', 'x']).message).toMatch(/^seeds: must be a decimal/);
  });
});
