/** SHA-256 digests as lowercase hex, of bytes, ASCII text or a value's canonical JSON. */

import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { canonicalJson, type CanonicalShape } from './json/canonical.js';

/** An incremental SHA-256; a string is hashed as its UTF-8 bytes. */
export interface Sha256 {
  update(data: Uint8Array | string): Sha256;
  /** The digest of everything given (once). */
  digest(): Uint8Array;
}

/** The core's own SHA-256: @noble/hashes, pure JavaScript (about 150 MB/s), so the core runs anywhere. */
export function pureSha256(): Sha256 {
  const hash = sha256.create();
  const self: Sha256 = {
    update(data) {
      hash.update(typeof data === 'string' ? utf8ToBytes(data) : data);
      return self;
    },
    digest: () => hash.digest(),
  };
  return self;
}

let newSha256: () => Sha256 = pureSha256;

/**
 * Lets a platform supply a faster SHA-256 (src/node/native-hash.ts: Node's
 * own, several times faster, for the CLI, the app and their workers). A
 * digest is the same whichever computes it, so no output depends on it;
 * native-hash.test.ts holds the two to the same answers.
 */
export function useSha256(create: () => Sha256): void {
  newSha256 = create;
}

export function createSha256(): Sha256 {
  return newSha256();
}

export function sha256Hex(data: Uint8Array | string): string {
  return bytesToHex(createSha256().update(data).digest());
}

export function sha256Bytes(data: Uint8Array | string): Uint8Array {
  return createSha256().update(data).digest();
}

/** The digest of a value: SHA-256 of its canonical JSON. */
export function digestOf<T>(value: T & CanonicalShape<T>): string {
  return sha256Hex(canonicalJson(value));
}

/** The digest of an artifact file's text: SHA-256 of the text without its final LF. */
export function fileDigest(text: string): string {
  return sha256Hex(text.endsWith('\n') ? text.slice(0, -1) : text);
}

export const HEX64 = /^[0-9a-f]{64}$/;
