/**
 * Node's own primitives for the core, where they are faster than the
 * core's portable ones. Every Node entry point (the CLI, the app's main
 * process, the evaluation and archive workers, the module host) calls
 * useNativeCore() first. The answers are the same either way
 * (native-core.test.ts).
 *
 * - SHA-256: OpenSSL's, about 1 GB/s against 150 MB/s for the core's pure
 *   one; verifying or scoring a large result hashes every byte of it at
 *   least twice.
 * - ASCII bytes to a string: a Buffer's ASCII decoding, about ten times Node
 *   20's TextDecoder (0.4 ms against 4.5 ms for a 1.3 MB record).
 */

import { createHash } from 'node:crypto';
import { useAsciiDecoder } from '../core/ascii-text.js';
import { useSha256, type Sha256 } from '../core/hash.js';

export function nativeSha256(): Sha256 {
  const hash = createHash('sha256');
  const self: Sha256 = {
    update(data) {
      if (typeof data === 'string') hash.update(data, 'utf8');
      else hash.update(data);
      return self;
    },
    digest: () => new Uint8Array(hash.digest()),
  };
  return self;
}

/** The string of ASCII bytes (every byte below 0x80, as ascii-text.ts requires). */
export function nodeAsciiText(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('ascii');
}

export function useNativeCore(): void {
  useSha256(nativeSha256);
  useAsciiDecoder(nodeAsciiText);
}
