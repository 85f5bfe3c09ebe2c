import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pureSha256, type Sha256 } from '../core/hash.js';
import { nativeSha256 } from './native-hash.js';

const hex = (h: Sha256): string => Buffer.from(h.digest()).toString('hex');

describe('native SHA-256', () => {
  it('gives the pure digests for bytes and text, whole or in pieces', () => {
    expect(hex(nativeSha256())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(nativeSha256().update('abc'))).toBe(hex(pureSha256().update('abc')));
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ unit: 'binary' }), fc.uint8Array({ maxLength: 300 })), { maxLength: 6 }), (pieces) => {
        const native = nativeSha256();
        const pure = pureSha256();
        for (const piece of pieces) {
          native.update(piece);
          pure.update(piece);
        }
        expect(hex(native)).toBe(hex(pure));
      }),
      { numRuns: 300, seed: 256 },
    );
  });

  it('hashes a lone surrogate as U+FFFD, as the pure one does', () => {
    expect(hex(nativeSha256().update('a\ud800b'))).toBe(hex(pureSha256().update('a\ufffdb')));
    expect(hex(pureSha256().update('a\ud800b'))).toBe(hex(pureSha256().update('a\ufffdb')));
  });
});
