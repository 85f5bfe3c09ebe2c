/**
 * Operator signing keys on disk (docs/bundles.md, "Keys"): one Ed25519 key
 * pair per JSON file, created with mode 0600 (the bits are given when the
 * file is created, never chmod'ed after, so no other user can ever read it),
 * its 32-byte secret seed either in the clear or sealed with a passphrase:
 *
 *   {"algorithm":"ed25519","format":"emberbench-signing-key","public_key":HEX64,
 *    "secret":{"sealed":false,"seed":HEX64},"version":1}
 *   "secret":{"sealed":true,"kdf":"scrypt","n":131072,"r":8,"p":1,"salt":HEX32,
 *             "cipher":"xchacha20poly1305","nonce":HEX48,"ciphertext":HEX96}
 *
 * Sealing: key = scrypt(UTF-8 passphrase, salt, N, r, p, 32 bytes);
 * ciphertext = XChaCha20-Poly1305(key, nonce, seed, AAD), the AAD being
 * "EMBER-KEY-SEAL-v1\n" + public_key + "\n", so a file whose public key was
 * swapped does not open. Salt, nonce and seed come from the OS CSPRNG (a key
 * is never part of a scored artifact). The secret leaves this module only as
 * bytes handed to the signer: it is never printed, logged or archived.
 */

import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { scrypt } from '@noble/hashes/scrypt.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { randomBytes } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { OutputError, UsageError, ValidationError } from '../../core/errors.js';
import { HEX64 } from '../../core/hash.js';
import { canonicalJson, type JsonValue } from '../../core/json/canonical.js';
import { FieldReader } from '../../core/json/fields.js';
import { parseJsonInput } from '../../core/json/strict-parse.js';
import { keyFingerprint } from '../../core/signing/signatures.js';
import { writeOutputFile } from '../files.js';
import { readTextInput } from '../inputs.js';

export const KEY_FILE_FORMAT = 'emberbench-signing-key';
export const KEY_FILE_VERSION = 1;
/** scrypt cost for new sealed keys: N = 2^17, r = 8, p = 1 (128 MiB, about a second or two). */
export const SCRYPT_PARAMS = { n: 131072, r: 8, p: 1 } as const;
/** The largest N a key file may ask for (2^20: 1 GiB): a hostile file cannot make opening it exhaust memory. */
const MAX_SCRYPT_N = 1 << 20;
const SEAL_AAD_PREFIX = 'EMBER-KEY-SEAL-v1\n';

type SealedSecret = { readonly sealed: true; readonly n: number; readonly r: number; readonly p: number; readonly salt: string; readonly nonce: string; readonly ciphertext: string };
type Secret = { readonly sealed: false; readonly seed: string } | SealedSecret;

export interface KeyFile {
  readonly publicKey: string;
  readonly fingerprint: string;
  readonly sealed: boolean;
  readonly secret: Secret;
}

function sealKey(passphrase: string, salt: Uint8Array, params: { n: number; r: number; p: number }): Uint8Array {
  return scrypt(passphrase, salt, { N: params.n, r: params.r, p: params.p, dkLen: 32, maxmem: 2 ** 31 });
}

function aad(publicKey: string): Uint8Array {
  return new TextEncoder().encode(`${SEAL_AAD_PREFIX}${publicKey}\n`);
}

/** The raw public key of a 32-byte secret seed. */
export function ed25519PublicKey(seed: Uint8Array): Uint8Array {
  return ed25519.getPublicKey(seed);
}

/** A new key pair as key-file text; `passphrase` non-null seals the secret. */
export function newKeyFileText(passphrase: string | null): { readonly text: string; readonly publicKey: string } {
  const seed = new Uint8Array(randomBytes(32));
  const publicKey = bytesToHex(ed25519.getPublicKey(seed));
  return { text: keyFileText(publicKey, seed, passphrase), publicKey };
}

/** The key-file text of a seed (sealed when `passphrase` is non-null, with a fresh salt and nonce). */
export function keyFileText(publicKey: string, seed: Uint8Array, passphrase: string | null): string {
  let secret: Record<string, JsonValue>;
  if (passphrase === null) {
    secret = { sealed: false, seed: bytesToHex(seed) };
  } else {
    const salt = new Uint8Array(randomBytes(16));
    const nonce = new Uint8Array(randomBytes(24));
    const ciphertext = xchacha20poly1305(sealKey(passphrase, salt, SCRYPT_PARAMS), nonce, aad(publicKey)).encrypt(seed);
    secret = { sealed: true, kdf: 'scrypt', ...SCRYPT_PARAMS, salt: bytesToHex(salt), cipher: 'xchacha20poly1305', nonce: bytesToHex(nonce), ciphertext: bytesToHex(ciphertext) };
  }
  return canonicalJson({ format: KEY_FILE_FORMAT, version: KEY_FILE_VERSION, algorithm: 'ed25519', public_key: publicKey, secret }) + '\n';
}

/** Reads a key file strictly; a clear seed must give the stated public key. The secret stays sealed. */
export function parseKeyFileText(text: string, source: string): KeyFile {
  const r = new FieldReader(source);
  const o = r.object(parseJsonInput(text, source), '$', ['format', 'version', 'algorithm', 'public_key', 'secret']);
  if (o.format !== KEY_FILE_FORMAT) r.fail('format', `must be ${JSON.stringify(KEY_FILE_FORMAT)} (is this an emberbench key file?)`);
  if (o.version !== KEY_FILE_VERSION) r.fail('version', `is ${JSON.stringify(o.version)}; this tool reads version ${KEY_FILE_VERSION}`);
  r.literal(o.algorithm, 'algorithm', ['ed25519'] as const);
  const publicKey = r.string(o.public_key, 'public_key', HEX64);
  const s = o.secret;
  let secret: Secret;
  if (s !== null && typeof s === 'object' && !Array.isArray(s) && s.sealed === true) {
    const f = r.object(s, 'secret', ['sealed', 'kdf', 'n', 'r', 'p', 'salt', 'cipher', 'nonce', 'ciphertext']);
    r.literal(f.kdf, 'secret.kdf', ['scrypt'] as const);
    r.literal(f.cipher, 'secret.cipher', ['xchacha20poly1305'] as const);
    const n = r.integer(f.n, 'secret.n', 2, MAX_SCRYPT_N);
    if ((n & (n - 1)) !== 0) r.fail('secret.n', 'must be a power of two');
    secret = {
      sealed: true,
      n,
      r: r.integer(f.r, 'secret.r', 1, 32),
      p: r.integer(f.p, 'secret.p', 1, 16),
      salt: r.string(f.salt, 'secret.salt', /^[0-9a-f]{32,128}$/),
      nonce: r.string(f.nonce, 'secret.nonce', /^[0-9a-f]{48}$/),
      ciphertext: r.string(f.ciphertext, 'secret.ciphertext', /^[0-9a-f]{96}$/),
    };
  } else {
    const f = r.object(s, 'secret', ['sealed', 'seed']);
    if (f.sealed !== false) r.fail('secret.sealed', 'must be true or false');
    const seed = r.string(f.seed, 'secret.seed', HEX64);
    if (bytesToHex(ed25519.getPublicKey(hexToBytes(seed))) !== publicKey) r.fail('public_key', 'is not the public key of the file\'s secret (the file is damaged or was edited)');
    secret = { sealed: false, seed };
  }
  return { publicKey, fingerprint: keyFingerprint(publicKey), sealed: secret.sealed, secret };
}

/**
 * The 32-byte secret seed, unsealed with `passphrase` when the file is
 * sealed. Usage errors (exit 2) name `field` (the CLI's passphrase option).
 */
export function unlockKey(key: KeyFile, passphrase: string | null, source: string, field = 'passphrase'): Uint8Array {
  const secret = key.secret;
  if (!secret.sealed) return hexToBytes(secret.seed);
  if (passphrase === null) throw new UsageError(`${field}: ${source} is sealed with a passphrase; give it to unlock the key`, { field });
  let seed: Uint8Array;
  try {
    seed = xchacha20poly1305(sealKey(passphrase, hexToBytes(secret.salt), secret), hexToBytes(secret.nonce), aad(key.publicKey)).decrypt(hexToBytes(secret.ciphertext));
  } catch {
    throw new UsageError(`${field}: wrong passphrase for ${source} (or the key file was changed)`, { field });
  }
  if (bytesToHex(ed25519.getPublicKey(seed)) !== key.publicKey) throw new ValidationError(`${source}: public_key is not the public key of the sealed secret`);
  return seed;
}

export function readKeyFile(path: string): KeyFile {
  return parseKeyFileText(readTextInput(path, 'signing key'), path);
}

/**
 * Writes a key file with mode 0600 from its creation: a new file, or with
 * `force` one that replaces an existing regular file (never a directory,
 * link or device), atomically.
 */
export async function writeKeyFile(path: string, text: string, force: boolean): Promise<void> {
  if (force) {
    let kind: string | null = null;
    try {
      const st = lstatSync(path);
      kind = st.isFile() ? null : st.isSymbolicLink() ? 'a symbolic link' : st.isDirectory() ? 'a directory' : 'not a regular file';
    } catch {
      // absent: nothing to replace
    }
    if (kind !== null) throw new OutputError(`output ${path} is ${kind}; --force replaces only a regular file`);
  }
  await writeOutputFile(path, text, { force, inputs: [], mode: 0o600 });
}

/**
 * A public key given to trust: 64 hex digits, or a file holding them (alone
 * on a line) or a key file (only its public key is read; the secret is not
 * touched).
 */
export function trustedKeyOf(arg: string, field = 'trust'): string {
  if (HEX64.test(arg)) return arg;
  let text: string;
  try {
    text = readTextInput(arg, 'signing key');
  } catch (error) {
    if (error instanceof ValidationError) throw new UsageError(`${field}: ${JSON.stringify(arg)} is neither a public key (64 hex digits) nor a readable key file: ${error.message}`, { field });
    throw error;
  }
  if (HEX64.test(text.trim())) return text.trim();
  return parseKeyFileText(text, arg).publicKey;
}
