import { describe, expect, it } from 'vitest';
import { sha256Bytes } from '../hash.js';
import { BootstrapStream } from './stream.js';

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

  it('needs a 32-byte seed and a positive bound', () => {
    expect(() => new BootstrapStream(new Uint8Array(16))).toThrow(RangeError);
    expect(() => new BootstrapStream(SEED).uniform(0)).toThrow(RangeError);
  });
});
