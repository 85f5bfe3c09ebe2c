/**
 * The seeded random streams (environment.md section 5): xoshiro128**
 * (Blackman and Vigna) keyed by SHA-256, uniform integers by rejection
 * sampling, and partial Fisher-Yates choice. No clock, no Math.random.
 */

import { sha256Bytes } from '../hash.js';
import { canonicalJson } from '../json/canonical.js';

export type StreamName = 'fire' | 'ignition' | 'people';

const TWO_32 = 0x1_0000_0000;

export class Xoshiro128ss {
  // The state words in a Uint32Array: uint32 values above 2^30 do not fit a
  // small integer, and as object fields every step would box them.
  private readonly s = new Uint32Array(4);

  /** Starts from four uint32 state words; they must not all be zero. */
  constructor(words: readonly [number, number, number, number]) {
    for (let w = 0; w < 4; w++) this.s[w] = words[w]! >>> 0;
    if ((this.s[0]! | this.s[1]! | this.s[2]! | this.s[3]!) === 0) throw new RangeError('xoshiro128** state must not be all zero');
  }

  /** Seeds from key bytes: the first 16 bytes as four little-endian words, or the next 16 if those are all zero. */
  static fromKey(key: Uint8Array): Xoshiro128ss {
    for (let offset = 0; offset + 16 <= key.length; offset += 16) {
      const words: [number, number, number, number] = [0, 0, 0, 0];
      for (let w = 0; w < 4; w++) {
        const b = offset + 4 * w;
        words[w] = (key[b]! | (key[b + 1]! << 8) | (key[b + 2]! << 16) | (key[b + 3]! << 24)) >>> 0;
      }
      if ((words[0] | words[1] | words[2] | words[3]) !== 0) return new Xoshiro128ss(words);
    }
    throw new RangeError('xoshiro128** key has no non-zero 16-byte block');
  }

  /** The next uint32. */
  next(): number {
    const s = this.s;
    const s0 = s[0]!;
    const s1 = s[1]!;
    const m = Math.imul(s1, 5);
    const result = Math.imul((m << 7) | (m >>> 25), 9) >>> 0; // rotl(s1 * 5, 7) * 9
    const s2 = s[2]! ^ s0;
    const s3 = s[3]! ^ s1;
    s[1] = s1 ^ s2;
    s[0] = s0 ^ s3;
    s[2] = s2 ^ (s1 << 9);
    s[3] = (s3 << 11) | (s3 >>> 21); // rotl(s3, 11)
    return result;
  }

  /** A uniform integer in [0, n) by rejection sampling: rejects u >= floor(2^32 / n) * n, returns u mod n. */
  uniform(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n > TWO_32) throw new RangeError(`uniform bound must be in [1, 2^32], got ${n}`);
    const limit = Math.floor(TWO_32 / n) * n;
    for (;;) {
      const u = this.next();
      if (u < limit) return u % n;
    }
  }

  /**
   * Chooses `count` items by partial Fisher-Yates over a copy of `items` in
   * its given order: for i in 0..count-1 swap item i with item i + uniform(len - i).
   * Returns the chosen items in draw order.
   */
  choose<T>(items: readonly T[], count: number): T[] {
    if (count > items.length) throw new RangeError(`cannot choose ${count} of ${items.length}`);
    const list = items.slice();
    for (let i = 0; i < count; i++) {
      const j = i + this.uniform(list.length - i);
      const tmp = list[i]!;
      list[i] = list[j]!;
      list[j] = tmp;
    }
    return list.slice(0, count);
  }
}

/** The key of stream `stream`: SHA-256 of canonical `{"scenario_hash", "seed", "stream"}`. */
export function streamKey(scenarioHash: string, seed: string, stream: StreamName): Uint8Array {
  return sha256Bytes(canonicalJson({ scenario_hash: scenarioHash, seed, stream }));
}

export function streamRng(scenarioHash: string, seed: string, stream: StreamName): Xoshiro128ss {
  return Xoshiro128ss.fromKey(streamKey(scenarioHash, seed, stream));
}
