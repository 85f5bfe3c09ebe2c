/**
 * The bootstrap stream (statistics_version 1.0, evaluation.md section 6):
 * block i = SHAKE-256(seed32 || uint64_be(i)), 64 bytes; the stream is
 * block 0, block 1, ... A uniform integer in [0, n) reads 8 bytes as a
 * big-endian uint64 v, rejects v >= floor(2^64 / n) * n, returns v mod n.
 *
 * Speed (a bootstrap of 3,000 episodes reads ~750,000 blocks): SHAKE-256 of
 * a 40-byte input with a 64-byte output is exactly one Keccak-f[1600]
 * permutation (rate 136 bytes: the input, the 0x1F domain/pad byte and the
 * final 0x80 pad bit fit in one block, and the 64 output bytes are squeezed
 * from that block). Blocks are computed in batches (8 blocks first, then
 * doubling up to WASM_MAX_BLOCKS, so short streams waste little) by
 * WebAssembly (keccak-wasm.ts, about 3x the JS speed), or by keccak.ts
 * without allocation where WebAssembly is unavailable. Only the counter
 * lane changes between blocks. Draws with n <= 2^26 use exact double
 * arithmetic instead of BigInt. The bytes are those of @noble/hashes'
 * shake256 (stream.test.ts, on both paths).
 */

import { interleaveLane, keccakF1600Interleaved, laneHigh, laneLow } from '../hash/keccak.js';
import { WASM_MAX_BLOCKS, wasmBlocks, type WasmBlocks } from '../hash/keccak-wasm.js';

const TWO_32 = 0x100000000;
const TWO_64 = 1n << 64n;
/**
 * Bounds up to this use Number arithmetic: with h = hi mod n and
 * m = 2^32 mod n, both < n <= 2^26, h * m + lo < 2^52 + 2^32 < 2^53 is
 * exact, and so is its floor division by n.
 */
const NUMBER_BOUND = 1 << 26;

function bswap32(x: number): number {
  return ((x & 0xff) << 24) | ((x & 0xff00) << 8) | ((x >>> 8) & 0xff00) | (x >>> 24);
}

/** x mod n for an integer 0 <= x < 2^53 and 1 <= n <= 2^26, by floor division (no fmod call). */
function modSmall(x: number, n: number): number {
  const r = x - Math.floor(x / n) * n;
  // The quotient's rounding error is far below 1/n here; the guards only make that obvious.
  return r < 0 ? r + n : r >= n ? r - n : r;
}

/**
 * x mod n for an integer 0 <= x < 2^52 + 2^32 (what uniform passes) and
 * 1 <= n <= 2^26, with inverse = 1 / n rounded: a multiplication instead of
 * modSmall's division (several times slower), twice per draw. The product
 * x * inverse is within (x / n) * 2^-51 < 1 of x / n for n >= 2, so its
 * floor is the quotient or one off, which the two guards correct, and
 * q * n <= x + n < 2^53 is exact. For n = 1, x * inverse = x: 0.
 */
function modReciprocal(x: number, n: number, inverse: number): number {
  const r = x - Math.floor(x * inverse) * n;
  return r < 0 ? r + n : r >= n ? r - n : r;
}

export class BootstrapStream {
  /** The absorbed block with the counter lane zero, interleaved (keccak.ts), for the JS path. */
  private readonly template = new Int32Array(50);
  private readonly state = new Int32Array(50);
  /** The WebAssembly path (null: the JS path). */
  private readonly wasm: WasmBlocks | null;
  /** The current batch's big-endian uint64 values as (low, high) uint32 pairs, 16 words per block. */
  private words: Uint32Array = new Uint32Array(0);
  private offset = 0;
  /** The counter of the next batch's first block, and that batch's size. */
  private counter = 0;
  private batch = 8;
  /** The counter of the current batch's first block. */
  private batchStart = 0;
  /** The last Number bound, with 2^64 mod n (the rejection zone) and 2^32 mod n. */
  private lastBound = Number.NaN;
  private lastReject = 0;
  private lastTwo32 = 0;
  /** 1 / lastBound as a double, for modReciprocal. */
  private lastInverse = 0;

  /**
   * `firstBlock` skips to that block (for tests of large counters); the stream proper starts at 0.
   * `useWasm` false forces the JS permutation (tests of the fallback).
   */
  constructor(seed32: Uint8Array, firstBlock = 0, useWasm = true) {
    if (seed32.length !== 32) throw new RangeError('the bootstrap seed must be 32 bytes');
    if (!Number.isSafeInteger(firstBlock) || firstBlock < 0) throw new RangeError(`the first block must be a safe non-negative integer, got ${firstBlock}`);
    this.counter = firstBlock;
    this.batchStart = firstBlock;
    const view = new DataView(seed32.buffer, seed32.byteOffset, 32);
    // Lanes 0..3: the seed bytes as little-endian 64-bit lanes; lane 4: the counter (set per block).
    for (let lane = 0; lane < 4; lane++) interleaveLane(this.template, lane, view.getInt32(8 * lane, true), view.getInt32(8 * lane + 4, true));
    interleaveLane(this.template, 5, 0x1f, 0); // byte 40: SHAKE domain bits and the first pad bit
    interleaveLane(this.template, 16, 0, -0x80000000); // byte 135, the last byte of the rate: the final pad bit
    this.wasm = useWasm ? wasmBlocks() : null;
    if (this.wasm !== null) {
      const bytes = new Uint8Array(200);
      bytes.set(seed32);
      bytes[40] = 0x1f;
      bytes[135] = 0x80;
      this.wasm.setTemplate(bytes);
    }
  }

  /** The index of the next uint64 the stream reads (8 per block), to come back to it with `at`. */
  get position(): number {
    return this.batchStart * 8 + this.offset / 2;
  }

  /** A stream of `seed32` positioned at `position` (a value of `position`). */
  static at(seed32: Uint8Array, position: number): BootstrapStream {
    if (!Number.isSafeInteger(position) || position < 0) throw new RangeError(`a stream position must be a safe non-negative integer, got ${position}`);
    const stream = new BootstrapStream(seed32, Math.floor(position / 8));
    for (let skip = position % 8; skip > 0; skip--) stream.nextUint64();
    return stream;
  }

  /** Whether the blocks come from WebAssembly (for tests and figures). */
  get usesWasm(): boolean {
    return this.wasm !== null;
  }

  private refill(): void {
    // Keep the counters of a batch safe integers when that is possible (tests start near 2^53).
    const count = Math.max(1, Math.min(this.batch, Number.MAX_SAFE_INTEGER - this.counter + 1));
    this.batch = Math.min(2 * this.batch, WASM_MAX_BLOCKS);
    this.words = this.wasm !== null ? this.wasm.run(this.counter, count) : this.jsBlocks(count);
    this.batchStart = this.counter;
    this.counter += count;
    this.offset = 0;
  }

  private jsBlocks(count: number): Uint32Array {
    const words = new Uint32Array(16 * count);
    const s = this.state;
    for (let i = 0; i < count; i++) {
      const counter = this.counter + i;
      s.set(this.template);
      // Bytes 32..39 are uint64_be(counter): its high word first, each word byte-swapped into the little-endian lane.
      interleaveLane(s, 4, bswap32(Math.floor(counter / TWO_32)), bswap32(counter >>> 0));
      keccakF1600Interleaved(s);
      // Output bytes 8k..8k+7 are lane k (little-endian); read big-endian, the high half is the byte-swapped low word.
      for (let k = 0; k < 8; k++) {
        words[16 * i + 2 * k] = bswap32(laneHigh(s, k)) >>> 0;
        words[16 * i + 2 * k + 1] = bswap32(laneLow(s, k)) >>> 0;
      }
    }
    return words;
  }

  /** The next 8 bytes of the stream as a big-endian uint64. */
  nextUint64(): bigint {
    if (this.offset >= this.words.length) this.refill();
    const v = (BigInt(this.words[this.offset + 1]!) << 32n) | BigInt(this.words[this.offset]!);
    this.offset += 2;
    return v;
  }

  /** A uniform integer in [0, n) for a safe integer n >= 1. */
  uniform(n: number): number {
    if (n !== this.lastBound) {
      if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`uniform bound must be a positive integer, got ${n}`);
      if (n > NUMBER_BOUND) return Number(this.uniformBig(BigInt(n)));
      // Draws alternate between bounds (scenario counts, scenario sizes), so this must be cheap:
      // 2^64 mod n = (2^32 mod n)^2 mod n, and (2^32 mod n)^2 < 2^52.
      this.lastBound = n;
      this.lastTwo32 = modSmall(TWO_32, n);
      this.lastReject = modSmall(this.lastTwo32 * this.lastTwo32, n);
      this.lastInverse = 1 / n;
    }
    const reject = this.lastReject;
    for (;;) {
      if (this.offset >= this.words.length) this.refill();
      const lo = this.words[this.offset]!;
      const hi = this.words[this.offset + 1]!;
      this.offset += 2;
      // v >= floor(2^64 / n) * n = 2^64 - reject, with reject < n < 2^32: hi is all ones and lo >= 2^32 - reject.
      if (reject !== 0 && hi === 0xffffffff && lo >= TWO_32 - reject) continue;
      // v mod n = ((hi mod n) * (2^32 mod n) + lo) mod n.
      const inverse = this.lastInverse;
      return modReciprocal(modReciprocal(hi, n, inverse) * this.lastTwo32 + lo, n, inverse);
    }
  }

  /**
   * Fills out[0..count) with count draws of uniform(n), the very values of
   * count calls (n < 2^31, what an Int32Array holds): for n <= 2^26, what a
   * bootstrap draws, the loop keeps the stream's position and the bound's
   * constants in locals.
   */
  fillUniform(out: Int32Array, count: number, n: number): void {
    if (count <= 0) return;
    // The first draw checks n and sets the bound's constants.
    out[0] = this.uniform(n);
    if (n > NUMBER_BOUND) {
      for (let i = 1; i < count; i++) out[i] = this.uniform(n);
      return;
    }
    const reject = this.lastReject;
    const two32 = this.lastTwo32;
    const inverse = this.lastInverse;
    let words = this.words;
    let offset = this.offset;
    for (let i = 1; i < count; ) {
      if (offset >= words.length) {
        this.refill();
        words = this.words;
        offset = 0;
      }
      const lo = words[offset]!;
      const hi = words[offset + 1]!;
      offset += 2;
      if (reject !== 0 && hi === 0xffffffff && lo >= TWO_32 - reject) continue;
      out[i++] = modReciprocal(modReciprocal(hi, n, inverse) * two32 + lo, n, inverse);
    }
    this.offset = offset;
  }

  /** A uniform integer in [0, n) for any n in [1, 2^64]. */
  uniformBig(n: bigint): bigint {
    if (n < 1n || n > TWO_64) throw new RangeError(`uniform bound must be in [1, 2^64], got ${n}`);
    const limit = (TWO_64 / n) * n;
    for (;;) {
      const v = this.nextUint64();
      if (v < limit) return v % n;
    }
  }
}
