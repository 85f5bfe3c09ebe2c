/**
 * Operator signatures of official artifacts (docs/bundles.md, "Signatures"):
 * a bundle's `signatures.json` and a result's detached `RESULT_STEM.sig.json`
 * hold one signature set each, Ed25519 signatures of one file's SHA-256:
 *
 *   signed message = DOMAIN "\n" SHA256_HEX "\n" SIGNED_AT "\n"   (ASCII)
 *
 * DOMAIN is `EMBER-BUNDLE-SIGNATURE-v1` (the file is the bundle's
 * bundle.json, which lists every other file's digest) or
 * `EMBER-RESULT-SIGNATURE-v1` (the result file's bytes); SIGNED_AT is the
 * operator's `YYYY-MM-DDTHH:MM:SSZ`. The domain keeps a bundle signature
 * from passing as a result signature; the digest ties the signature to one
 * file; the time is signed so it cannot be changed after.
 *
 * A signature set never changes the file it signs, so signatures may be
 * added (co-signing) without touching anything signed. Ed25519 signing is
 * deterministic: the same key, file and time give the same bytes.
 */

import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { MismatchError, ValidationError } from '../errors.js';
import { HEX64, sha256Bytes, sha256Hex } from '../hash.js';
import { canonicalJson } from '../json/canonical.js';
import { FieldReader } from '../json/fields.js';
import { parseJsonInput } from '../json/strict-parse.js';

export type SignedSubject = 'bundle' | 'result';
export const SIGNATURES_FORMAT = 'emberbench-signatures';
export const SIGNATURES_VERSION = 1;
export const SIGNATURE_ALGORITHM = 'ed25519';

const DOMAINS: Readonly<Record<SignedSubject, string>> = {
  bundle: 'EMBER-BUNDLE-SIGNATURE-v1',
  result: 'EMBER-RESULT-SIGNATURE-v1',
};
const SIGNED_FILE: Readonly<Record<SignedSubject, string>> = { bundle: 'bundle.json', result: 'result file' };
const HEX128 = /^[0-9a-f]{128}$/;
const SIGNED_AT = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})Z$/;

export interface SignatureEntry {
  readonly algorithm: typeof SIGNATURE_ALGORITHM;
  /** The signer's raw 32-byte Ed25519 public key, lowercase hex. */
  readonly public_key: string;
  /** When the operator says they signed, `YYYY-MM-DDTHH:MM:SSZ` (signed with the digest). */
  readonly signed_at: string;
  /** The 64-byte Ed25519 signature of signedMessage(), lowercase hex. */
  readonly signature: string;
}

export interface SignatureSet {
  readonly format: typeof SIGNATURES_FORMAT;
  readonly version: typeof SIGNATURES_VERSION;
  readonly subject: SignedSubject;
  /** SHA-256 of the signed file's bytes (bundle.json, or the result file). */
  readonly sha256: string;
  /** Sorted by public key, one per key. */
  readonly signatures: readonly SignatureEntry[];
}

/** One checked signature: valid, by this key; `trusted` when the key is on the caller's trust list. */
export interface CheckedSignature {
  readonly publicKey: string;
  readonly fingerprint: string;
  readonly signedAt: string;
  readonly trusted: boolean;
}

/** The exact bytes an Ed25519 signature signs. */
export function signedMessage(subject: SignedSubject, sha256: string, signedAt: string): Uint8Array {
  return utf8ToBytes(`${DOMAINS[subject]}\n${sha256}\n${signedAt}\n`);
}

/** A key's fingerprint: SHA-256 of the raw 32-byte public key, first 16 bytes, hex in 8 groups of 4 (`3f2a:9c0d:...`). */
export function keyFingerprint(publicKeyHex: string): string {
  const hex = bytesToHex(sha256Bytes(hexToBytes(publicKeyHex)).subarray(0, 16));
  return hex.match(/.{4}/g)!.join(':');
}

export function isPublicKeyHex(text: string): boolean {
  return HEX64.test(text);
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Null when `text` is a valid `YYYY-MM-DDTHH:MM:SSZ` UTC time, else what is wrong. */
export function signedAtProblem(text: string): string | null {
  const m = SIGNED_AT.exec(text);
  const wanted = `must be a UTC time YYYY-MM-DDTHH:MM:SSZ (e.g. 2026-12-02T09:30:00Z), not ${JSON.stringify(text)}`;
  if (m === null) return wanted;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) return `${wanted}: no such date or time`;
  return null;
}

/** Signs one file digest with a 32-byte Ed25519 secret key (seed). */
export function signDigest(subject: SignedSubject, sha256: string, signedAt: string, secretKey: Uint8Array): SignatureEntry {
  const problem = signedAtProblem(signedAt);
  if (problem !== null) throw new ValidationError(`signed_at: ${problem}`);
  const signature = ed25519.sign(signedMessage(subject, sha256, signedAt), secretKey);
  return { algorithm: SIGNATURE_ALGORITHM, public_key: bytesToHex(ed25519.getPublicKey(secretKey)), signed_at: signedAt, signature: bytesToHex(signature) };
}

/** Strict RFC 8032 verification (no ZIP-215 leniency), so any Ed25519 library gives the same answer. */
export function signatureIsValid(subject: SignedSubject, sha256: string, entry: SignatureEntry): boolean {
  try {
    return ed25519.verify(hexToBytes(entry.signature), signedMessage(subject, sha256, entry.signed_at), hexToBytes(entry.public_key), { zip215: false });
  } catch {
    return false; // a public key that is no curve point
  }
}

export function signatureSetText(set: SignatureSet): string {
  return canonicalJson(set as never) + '\n';
}

/**
 * Adds one signature to a set (a new set when `set` is null). The set must
 * be of the same file; a key signs a file once (sign again with another
 * time by removing its signature first).
 */
export function addSignature(set: SignatureSet | null, subject: SignedSubject, sha256: string, entry: SignatureEntry, source: string): SignatureSet {
  if (set !== null && (set.subject !== subject || set.sha256 !== sha256)) {
    throw new MismatchError(`${source}: signs ${set.subject === 'bundle' ? 'a bundle.json' : 'a result'} with sha256 ${set.sha256}, not this ${SIGNED_FILE[subject]} (sha256 ${sha256}); remove it before signing`);
  }
  const existing = set?.signatures ?? [];
  if (existing.some((s) => s.public_key === entry.public_key)) {
    throw new ValidationError(`${source}: already holds a signature by key ${keyFingerprint(entry.public_key)}; a key signs once`);
  }
  const signatures = [...existing, entry].sort((x, y) => (x.public_key < y.public_key ? -1 : 1));
  return { format: SIGNATURES_FORMAT, version: SIGNATURES_VERSION, subject, sha256, signatures };
}

/** Reads a signature set strictly: structure, canonical text, sorted keys, each time valid (exit 3 otherwise). */
export function parseSignatureSetText(text: string, source: string): SignatureSet {
  const r = new FieldReader(source);
  const o = r.object(parseJsonInput(text, source), '$', ['format', 'version', 'subject', 'sha256', 'signatures']);
  if (o.format !== SIGNATURES_FORMAT) r.fail('format', `must be ${JSON.stringify(SIGNATURES_FORMAT)}`);
  if (o.version !== SIGNATURES_VERSION) r.fail('version', `is ${JSON.stringify(o.version)}; this tool reads version ${SIGNATURES_VERSION}`);
  const subject = r.literal(o.subject, 'subject', ['bundle', 'result'] as const);
  const sha256 = r.string(o.sha256, 'sha256', HEX64);
  let previous = '';
  const signatures = r.array(o.signatures, 'signatures').map((item, k): SignatureEntry => {
    const path = `signatures[${k}]`;
    const s = r.object(item, path, ['algorithm', 'public_key', 'signed_at', 'signature']);
    r.literal(s.algorithm, `${path}.algorithm`, [SIGNATURE_ALGORITHM] as const);
    const publicKey = r.string(s.public_key, `${path}.public_key`, HEX64);
    if (publicKey <= previous) r.fail(`${path}.public_key`, 'signatures must be sorted by public key, one per key');
    previous = publicKey;
    const signedAt = r.string(s.signed_at, `${path}.signed_at`);
    const problem = signedAtProblem(signedAt);
    if (problem !== null) r.fail(`${path}.signed_at`, problem);
    return { algorithm: SIGNATURE_ALGORITHM, public_key: publicKey, signed_at: signedAt, signature: r.string(s.signature, `${path}.signature`, HEX128) };
  });
  if (signatures.length === 0) r.fail('signatures', 'must hold at least one signature');
  const set: SignatureSet = { format: SIGNATURES_FORMAT, version: SIGNATURES_VERSION, subject, sha256, signatures };
  if (signatureSetText(set) !== text) throw new ValidationError(`${source}: not in canonical form (canonical JSON plus one LF)`);
  return set;
}

/**
 * Checks every signature of a set against the file's actual digest: a set
 * of another file (a signature copied from another bundle, or the file
 * changed after signing) and any invalid signature are refused (exit 5),
 * naming the signature's key. Trust is the caller's list of public keys.
 */
export function checkSignatureSet(set: SignatureSet, subject: SignedSubject, actualSha256: string, trusted: ReadonlySet<string>, source: string): CheckedSignature[] {
  if (set.subject !== subject) throw new MismatchError(`${source}: holds ${set.subject} signatures, not ${subject} signatures`);
  if (set.sha256 !== actualSha256) {
    throw new MismatchError(
      `${source}: signs a ${SIGNED_FILE[subject]} with sha256 ${set.sha256}, but this ${SIGNED_FILE[subject]} has sha256 ${actualSha256} ` +
        `(the ${SIGNED_FILE[subject]} changed after signing, or the signatures belong to another ${subject})`,
    );
  }
  return set.signatures.map((entry) => {
    const fingerprint = keyFingerprint(entry.public_key);
    if (!signatureIsValid(subject, actualSha256, entry)) {
      throw new MismatchError(`${source}: the signature by key ${fingerprint} (signed_at ${entry.signed_at}) is invalid: it was not made by that key over this ${SIGNED_FILE[subject]} and time`);
    }
    return { publicKey: entry.public_key, fingerprint, signedAt: entry.signed_at, trusted: trusted.has(entry.public_key) };
  });
}

/** `--require-signature`: at least one valid signature by a trusted key (exit 5 otherwise). */
export function requireTrustedSignature(checked: readonly CheckedSignature[], trustedCount: number, source: string): void {
  if (checked.some((c) => c.trusted)) return;
  const why =
    checked.length === 0
      ? 'it is not signed'
      : trustedCount === 0
        ? `it is signed by ${checked.map((c) => c.fingerprint).join(', ')}, but no key is trusted (give --trust)`
        : `its signatures (by ${checked.map((c) => c.fingerprint).join(', ')}) are by keys not on the trust list`;
  throw new MismatchError(`${source}: no valid signature by a trusted key: ${why}`);
}

/**
 * A result's detached signature set (`result sign`), parsed and checked
 * against the result's text: every signature valid for exactly these
 * bytes, whatever its key (trust is applied when a view is built).
 */
export function checkedResultSignatures(setText: string, resultText: string, source: string): SignatureSet {
  const set = parseSignatureSetText(setText, source);
  checkSignatureSet(set, 'result', sha256Hex(resultText), new Set(), source);
  return set;
}
