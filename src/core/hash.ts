/** SHA-256 digests as lowercase hex, of bytes, ASCII text or a value's canonical JSON. */

import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { canonicalJson, type CanonicalInput } from './json/canonical.js';

export function sha256Hex(data: Uint8Array | string): string {
  return bytesToHex(sha256(typeof data === 'string' ? utf8ToBytes(data) : data));
}

export function sha256Bytes(data: Uint8Array | string): Uint8Array {
  return sha256(typeof data === 'string' ? utf8ToBytes(data) : data);
}

/** The digest of a value: SHA-256 of its canonical JSON. */
export function digestOf(value: CanonicalInput): string {
  return sha256Hex(canonicalJson(value));
}

/** The digest of an artifact file's text: SHA-256 of the text without its final LF. */
export function fileDigest(text: string): string {
  return sha256Hex(text.endsWith('\n') ? text.slice(0, -1) : text);
}

export const HEX64 = /^[0-9a-f]{64}$/;
