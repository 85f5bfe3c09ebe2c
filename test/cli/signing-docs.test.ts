// The worked example of docs/bundles.md ("The signed bytes"), checked by an
// independent Ed25519 implementation (Node's crypto, OpenSSL underneath) and
// reproduced by the code that signs.
import { createHash, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyFingerprint, signDigest, signedMessage } from '../../src/core/signing/signatures.js';

const DOCS = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'bundles.md'), 'utf8');

function field(name: string): string {
  const m = new RegExp(`^${name} +(.+)$`, 'm').exec(DOCS);
  if (m === null) throw new Error(`docs/bundles.md has no "${name}" line in its worked example`);
  return m[1]!;
}

const b64url = (hex: string): string => Buffer.from(hex, 'hex').toString('base64url');

describe('the worked example of docs/bundles.md', () => {
  const seed = field('secret seed');
  const publicKey = field('public key');
  const sha256 = field('sha256');
  const signedAt = field('signed_at');
  const signature = field('signature');
  // The message as the docs write it: a JSON string literal.
  const message = Buffer.from(JSON.parse(field('message')) as string, 'utf8');

  it('verifies with Node\'s Ed25519 from the raw public key (JWK)', () => {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: b64url(publicKey) }, format: 'jwk' });
    expect(verify(null, message, key, Buffer.from(signature, 'hex'))).toBe(true);
    // Any other byte, time or digest fails.
    const other = Buffer.from(message);
    other[other.length - 2] ^= 1;
    expect(verify(null, other, key, Buffer.from(signature, 'hex'))).toBe(false);
  });

  it('is what Node signs with the published test seed, what the tool signs, and the stated length and fingerprint', () => {
    const priv = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: b64url(seed), x: b64url(publicKey) }, format: 'jwk' });
    expect(sign(null, message, priv).toString('hex')).toBe(signature);
    expect(Buffer.from(signedMessage('bundle', sha256, signedAt)).equals(message)).toBe(true);
    expect(message.length).toBe(Number(/The message is ([0-9]+) bytes/.exec(DOCS)![1]));
    const entry = signDigest('bundle', sha256, signedAt, Buffer.from(seed, 'hex'));
    expect(entry).toEqual({ algorithm: 'ed25519', public_key: publicKey, signed_at: signedAt, signature });
    expect(keyFingerprint(publicKey)).toBe(field('fingerprint'));
    expect(keyFingerprint(publicKey).replace(/:/g, '')).toBe(createHash('sha256').update(Buffer.from(publicKey, 'hex')).digest('hex').slice(0, 32));
  });
});
