import { describe, expect, test } from 'vitest';
import { createBlockedReason, seedsProblem, splitSeeds } from './seeds.js';

describe('seeds box', () => {
  test('spaces, commas and lines separate items', () => {
    expect(splitSeeds(' 1, 2;3\n0..4 ')).toEqual(['1', '2', '3', '0..4']);
  });

  test('a word is refused with its position, in the hint’s words, never “no spaces”', () => {
    const message = seedsProblem('1 abc');
    expect(message).toContain('“abc” (item 2) is not a seed or a range');
    expect(message).toContain('separated by commas or spaces');
    expect(message).not.toMatch(/no spaces/);
    expect(seedsProblem('0..29 7')).toBeNull();
    expect(seedsProblem('0...2')).toContain('item 1');
  });

  test('the disabled Create button says why', () => {
    expect(createBlockedReason(false, '1')).toMatch(/Add a suite first/);
    expect(createBlockedReason(true, '  ')).toMatch(/at least one seed/);
    expect(createBlockedReason(true, 'x')).toMatch(/not a seed/);
    expect(createBlockedReason(true, '0..3')).toBeNull();
  });
});
