/**
 * The bootstrap stream (statistics_version 1.0, evaluation.md section 6):
 * block i = SHAKE-256(seed32 || uint64_be(i)), 64 bytes; the stream is
 * block 0, block 1, ... A uniform integer in [0, n) reads 8 bytes as a
 * big-endian uint64 v, rejects v >= floor(2^64 / n) * n, returns v mod n.
 */

import { shake256 } from '@noble/hashes/sha3.js';

const TWO_64 = 1n << 64n;

export class BootstrapStream {
  private readonly input: Uint8Array;
  private block = new Uint8Array(0);
  private offset = 0;
  private counter = 0n;

  constructor(seed32: Uint8Array) {
    if (seed32.length !== 32) throw new RangeError('the bootstrap seed must be 32 bytes');
    this.input = new Uint8Array(40);
    this.input.set(seed32, 0);
  }

  private refill(): void {
    new DataView(this.input.buffer).setBigUint64(32, this.counter, false);
    this.block = shake256(this.input, { dkLen: 64 });
    this.counter++;
    this.offset = 0;
  }

  /** The next 8 bytes of the stream as a big-endian uint64. */
  nextUint64(): bigint {
    if (this.offset >= this.block.length) this.refill();
    const v = new DataView(this.block.buffer, this.block.byteOffset).getBigUint64(this.offset, false);
    this.offset += 8;
    return v;
  }

  uniform(n: number): number {
    if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`uniform bound must be a positive integer, got ${n}`);
    return Number(this.uniformBig(BigInt(n)));
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
