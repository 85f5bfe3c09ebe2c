import { shake256 } from '@noble/hashes/sha3.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Bytes } from '../hash.js';
import { wasmBlocks } from '../hash/keccak-wasm.js';
import { BootstrapStream } from './stream.js';

const TWO_64 = 1n << 64n;

/** The stream's definition on @noble/hashes (the test oracle): block i = shake256(seed32 || uint64_be(i), 64 bytes). */
class OracleStream {
  private block: Uint8Array = new Uint8Array(0);
  private offset = 0;
  private counter: bigint;

  constructor(
    private readonly seed32: Uint8Array,
    firstBlock = 0,
  ) {
    this.counter = BigInt(firstBlock);
  }

  static block(seed32: Uint8Array, i: bigint): Uint8Array {
    const input = new Uint8Array(40);
    input.set(seed32);
    new DataView(input.buffer).setBigUint64(32, i, false);
    return shake256(input, { dkLen: 64 });
  }

  nextUint64(): bigint {
    if (this.offset >= 64) this.offset = 0;
    if (this.offset === 0) this.block = OracleStream.block(this.seed32, this.counter++);
    const v = new DataView(this.block.buffer, this.block.byteOffset).getBigUint64(this.offset, false);
    this.offset += 8;
    return v;
  }

  uniformBig(n: bigint): bigint {
    const limit = (TWO_64 / n) * n;
    for (;;) {
      const v = this.nextUint64();
      if (v < limit) return v % n;
    }
  }
}

/** The 64 bytes of the stream's next block, read through nextUint64. */
function nextBlock(stream: BootstrapStream): Uint8Array {
  const out = new Uint8Array(64);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) view.setBigUint64(8 * i, stream.nextUint64(), false);
  return out;
}

// Vectors from Python:
//   seed = hashlib.sha256(b"ember-test-seed").digest()
//   block(i) = hashlib.shake_256(seed + struct.pack(">Q", i)).digest(64)
//   uniform(n): v = int.from_bytes(next 8 bytes, "big"); reject v >= (2**64 // n) * n; v % n
const SEED = sha256Bytes('ember-test-seed');

describe('bootstrap stream', () => {
  it('reads SHAKE-256 counter-mode blocks as big-endian uint64', () => {
    const stream = new BootstrapStream(SEED);
    expect([stream.nextUint64(), stream.nextUint64(), stream.nextUint64()]).toEqual([
      15840495334868430773n,
      10561665139956277304n,
      14817543239102771138n,
    ]);
  });

  it('draws uniform integers across block boundaries like Python', () => {
    const stream = new BootstrapStream(SEED);
    const bounds = [10, 3, 7, 1000, 2 ** 53 - 1, 2, 30, 30, 30, 30, ...Array<number>(12).fill(5)];
    expect(bounds.map((n) => stream.uniform(n))).toEqual([3, 2, 6, 87, 730122139425486, 0, 29, 25, 28, 29, 2, 3, 3, 1, 4, 4, 3, 0, 3, 0, 2, 2]);
  });

  it('rejects values at or above floor(2^64 / n) * n (4 rejections in these 12 draws)', () => {
    const stream = new BootstrapStream(SEED);
    const n = 3n * 2n ** 62n;
    const draws = Array.from({ length: 12 }, () => stream.uniformBig(n));
    expect(draws).toEqual([
      10561665139956277304n, 9319303274251351087n, 3135235462789290354n, 8332615712667545842n, 6894810076018930289n,
      1189398339965820505n, 3220169402034865079n, 6687325337542613892n, 10915972082104636088n, 12672689326696228596n,
      12560645147841477999n, 4451342017195303719n,
    ]);
  });

  it('gives the bytes of @noble/hashes shake256 for many seeds and counters', () => {
    for (let k = 0; k < 16; k++) {
      const seed = sha256Bytes(`stream-seed-${k}`);
      const stream = new BootstrapStream(seed);
      for (let i = 0; i < 120; i++) expect(nextBlock(stream), `seed ${k} block ${i}`).toEqual(OracleStream.block(seed, BigInt(i)));
    }
    // Counters whose big-endian bytes fill every position of the counter lane, up to 2^53 - 1.
    const seed = sha256Bytes('large counters');
    for (const first of [255, 256, 65535, 2 ** 24 + 7, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 2 ** 33 + 5, 2 ** 53 - 3]) {
      const stream = new BootstrapStream(seed, first);
      for (let i = 0; i < 3; i++) expect(nextBlock(stream), `block ${first + i}`).toEqual(OracleStream.block(seed, BigInt(first) + BigInt(i)));
    }
  });

  it('computes the same bytes with WebAssembly and with the JS permutation (both checked against shake256)', () => {
    expect(new BootstrapStream(SEED).usesWasm).toBe(true);
    expect(new BootstrapStream(SEED, 0, false).usesWasm).toBe(false);
    const seed = sha256Bytes('both paths');
    for (const first of [0, 1, 2 ** 32 - 2, 2 ** 53 - 20]) {
      const wasm = new BootstrapStream(seed, first);
      const js = new BootstrapStream(seed, first, false);
      // 20 blocks cross the first batches (8, then 16 blocks).
      for (let i = 0; i < 20; i++) {
        const expected = OracleStream.block(seed, BigInt(first) + BigInt(i));
        expect(nextBlock(wasm), `wasm block ${first + i}`).toEqual(expected);
        expect(nextBlock(js), `js block ${first + i}`).toEqual(expected);
      }
    }
    // A long run through full batches, drawn with uniform (the bootstrap's reader).
    const wasm = new BootstrapStream(seed);
    const js = new BootstrapStream(seed, 0, false);
    for (let i = 0; i < 30_000; i++) expect(wasm.uniform(300)).toBe(js.uniform(300));
  });

  it('gives the bytes of shake256 from both WebAssembly modules (SIMD pairs and plain blocks)', () => {
    const seed = sha256Bytes('modules');
    const template = new Uint8Array(200);
    template.set(seed);
    template[40] = 0x1f;
    template[135] = 0x80;
    for (const simd of [true, false]) {
      const blocks = wasmBlocks(simd)!;
      blocks.setTemplate(template);
      for (const [first, count] of [[0, 1], [7, 5], [2 ** 32 - 3, 8], [2 ** 53 - 9, 9]] as const) {
        const words = blocks.run(first, count);
        expect(words.length).toBe(16 * count);
        for (let i = 0; i < count; i++) {
          const bytes = new Uint8Array(64);
          const view = new DataView(bytes.buffer);
          for (let k = 0; k < 8; k++) view.setBigUint64(8 * k, (BigInt(words[16 * i + 2 * k + 1]!) << 32n) | BigInt(words[16 * i + 2 * k]!), false);
          expect(bytes, `${simd ? 'simd' : 'plain'} block ${first + i}`).toEqual(OracleStream.block(seed, BigInt(first) + BigInt(i)));
        }
      }
    }
  });

  it('fills draws like the same number of uniform calls, across batches and bounds', () => {
    fc.assert(
      // Bounds up to 2^26 take the Number loop, larger ones (up to what an Int32Array holds) the uniform calls.
      fc.property(fc.string(), fc.array(fc.tuple(fc.oneof(fc.integer({ min: 1, max: 400 }), fc.constantFrom(2 ** 26, 2 ** 26 + 1, 2 ** 30)), fc.integer({ min: 0, max: 900 })), { minLength: 1, maxLength: 12 }), (seedText, runs) => {
        const seed = sha256Bytes(seedText);
        const filled = new BootstrapStream(seed);
        const called = new BootstrapStream(seed);
        for (const [n, count] of runs) {
          const out = new Int32Array(count);
          filled.fillUniform(out, count, n);
          expect(Array.from(out)).toEqual(Array.from({ length: count }, () => called.uniform(n)));
        }
        expect(filled.position).toBe(called.position);
      }),
      { numRuns: 100 },
    );
  });

  it('draws uniform(n) like the BigInt definition, for any n up to 2^53 - 1', () => {
    const bound = fc.oneof(
      fc.integer({ min: 1, max: 64 }),
      fc.integer({ min: 1, max: 2 ** 21 }),
      fc.integer({ min: 2 ** 21 + 1, max: 2 ** 26 }),
      fc.integer({ min: 2 ** 26 + 1, max: 2 ** 53 - 1 }),
      fc.integer({ min: 2 ** 53 - 1000, max: 2 ** 53 - 1 }),
      fc.constantFrom(1, 2, 3, 2 ** 21, 2 ** 26 - 1, 2 ** 26, 2 ** 26 + 1, 2 ** 32 - 1, 2 ** 32 + 1, 2 ** 53 - 1),
    );
    fc.assert(
      fc.property(fc.string(), fc.nat({ max: 2 ** 40 }), fc.array(fc.tuple(bound, fc.integer({ min: 1, max: 12 })), { minLength: 1, maxLength: 20 }), (seedText, first, runs) => {
        const seed = sha256Bytes(seedText);
        const fast = new BootstrapStream(seed, first);
        const oracle = new OracleStream(seed, first);
        for (const [n, times] of runs) {
          for (let i = 0; i < times; i++) expect(fast.uniform(n)).toBe(Number(oracle.uniformBig(BigInt(n))));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('draws uniformBig(n) like the definition for n up to 2^64', () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.bigInt({ min: 1n, max: TWO_64 }), { minLength: 1, maxLength: 30 }), (seedText, bounds) => {
        const seed = sha256Bytes(seedText);
        const fast = new BootstrapStream(seed);
        const oracle = new OracleStream(seed);
        for (const n of bounds) expect(fast.uniformBig(n)).toBe(oracle.uniformBig(n));
      }),
      { numRuns: 100 },
    );
  });

  it('needs a 32-byte seed and a positive bound', () => {
    expect(() => new BootstrapStream(new Uint8Array(16))).toThrow(RangeError);
    expect(() => new BootstrapStream(SEED).uniform(0)).toThrow(RangeError);
    expect(() => new BootstrapStream(SEED).uniform(2.5)).toThrow(RangeError);
    expect(() => new BootstrapStream(SEED).uniform(2 ** 53)).toThrow(RangeError);
    expect(() => new BootstrapStream(SEED, -1)).toThrow(RangeError);
  });
});
