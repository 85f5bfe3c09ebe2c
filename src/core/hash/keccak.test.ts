import { keccakP } from '@noble/hashes/sha3.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { interleaveLane, keccakF1600Interleaved, laneHigh, laneLow } from './keccak.js';

/** Runs the generated permutation on a state of 50 little-endian words (lane i = words 2i, 2i + 1). */
function permuteWords(words: Uint32Array): Uint32Array {
  const s = new Int32Array(50);
  for (let lane = 0; lane < 25; lane++) interleaveLane(s, lane, words[2 * lane]!, words[2 * lane + 1]!);
  keccakF1600Interleaved(s);
  const out = new Uint32Array(50);
  for (let lane = 0; lane < 25; lane++) {
    out[2 * lane] = laneLow(s, lane) >>> 0;
    out[2 * lane + 1] = laneHigh(s, lane) >>> 0;
  }
  return out;
}

describe('Keccak-f[1600] on interleaved lanes', () => {
  it('interleaving a lane and reading it back is the identity', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 0xffffffff }), (low, high) => {
        const s = new Int32Array(50);
        interleaveLane(s, 7, low, high);
        expect([laneLow(s, 7) >>> 0, laneHigh(s, 7) >>> 0]).toEqual([low, high]);
      }),
    );
  });

  it('equals @noble/hashes keccakP (24 rounds) on random states', () => {
    fc.assert(
      fc.property(fc.uint32Array({ minLength: 50, maxLength: 50 }), (words) => {
        const expected = Uint32Array.from(words);
        keccakP(expected, 24);
        expect(Array.from(permuteWords(words))).toEqual(Array.from(expected));
      }),
      { numRuns: 200 },
    );
  });

  it('maps the zero state to the FIPS 202 value (first lane 0xF1258F7940E1DDE7)', () => {
    const out = permuteWords(new Uint32Array(50));
    expect([out[1]!.toString(16), out[0]!.toString(16)]).toEqual(['f1258f79', '40e1dde7']);
  });
});
