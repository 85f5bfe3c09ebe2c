/**
 * Node's own SHA-256 (OpenSSL: about 1 GB/s, against 150 MB/s for the
 * core's pure one) for the core's digests. Every Node entry point (the CLI,
 * the app's main process, the evaluation and archive workers, the module
 * host) calls useNativeHash() first: verifying or scoring a large result
 * hashes every byte of it at least twice. The digests are the same either
 * way (native-hash.test.ts).
 */

import { createHash } from 'node:crypto';
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

export function useNativeHash(): void {
  useSha256(nativeSha256);
}
