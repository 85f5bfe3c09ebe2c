/**
 * Signature sets on disk (docs/bundles.md, "Signatures"): a bundle's
 * `signatures.json` beside its bundle.json (not listed in it, so signing
 * never changes a signed file), and a result's detached
 * `RESULT_STEM.sig.json` beside the result. Adding a signature rewrites only
 * the signature file, atomically.
 */

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE_INDEX_FILE, BUNDLE_SIGNATURES_FILE } from '../../core/bundle/bundle-index.js';
import { UsageError } from '../../core/errors.js';
import { sha256Hex } from '../../core/hash.js';
import {
  addSignature,
  checkSignatureSet,
  parseSignatureSetText,
  requireTrustedSignature,
  signatureSetText,
  signDigest,
  signedAtProblem,
  type CheckedSignature,
  type SignatureSet,
  type SignedSubject,
} from '../../core/signing/signatures.js';
import { fileSha256 } from '../files.js';
import { writeOutputFile } from '../files.js';
import { inputFileSize, readTextInput } from '../inputs.js';

/** An unlocked key and the time the operator signs at: what a signer needs. */
export interface Signer {
  readonly secretKey: Uint8Array;
  readonly signedAt: string;
}

/** What the verifier trusts, and whether a trusted signature is required. */
export interface TrustOptions {
  readonly trusted: ReadonlySet<string>;
  readonly requireSignature: boolean;
}

export const NO_TRUST: TrustOptions = { trusted: new Set(), requireSignature: false };

/**
 * `--signed-at`: the operator's time, checked; `now` (only when asked for)
 * reads the clock, to the second. `field` names the input in errors.
 */
export function signedAtArgument(text: string, field = 'signedAt'): string {
  if (text === 'now') return new Date().toISOString().replace(/\.[0-9]{3}Z$/, 'Z');
  const problem = signedAtProblem(text);
  if (problem !== null) throw new UsageError(`${field}: ${problem} (or "now" for the current time)`, { field });
  return text;
}

/** The detached signature file of a result: `x.json` -> `x.sig.json`, else the name plus `.sig.json`. */
export function resultSignaturePath(resultPath: string): string {
  return resultPath.endsWith('.json') ? `${resultPath.slice(0, -'.json'.length)}.sig.json` : `${resultPath}.sig.json`;
}

function readSet(path: string): SignatureSet | null {
  return existsSync(path) ? parseSignatureSetText(readTextInput(path, 'signature file'), path) : null;
}

/** Adds one signature to a file's signature set (created when absent) and writes it atomically. */
async function addToSetFile(setPath: string, subject: SignedSubject, sha256: string, signer: Signer): Promise<SignatureSet> {
  const set = addSignature(readSet(setPath), subject, sha256, signDigest(subject, sha256, signer.signedAt, signer.secretKey), setPath);
  await writeOutputFile(setPath, signatureSetText(set), { force: true, inputs: [] });
  return set;
}

/** The signature set text of a bundle.json just written (bundle create signs in its temporary folder). */
export function bundleSignaturesText(indexText: string, signers: readonly Signer[]): string {
  const sha256 = sha256Hex(indexText);
  let set: SignatureSet | null = null;
  for (const signer of signers) set = addSignature(set, 'bundle', sha256, signDigest('bundle', sha256, signer.signedAt, signer.secretKey), BUNDLE_SIGNATURES_FILE);
  if (set === null) throw new TypeError('bundleSignaturesText needs at least one signer');
  return signatureSetText(set);
}

/** Signs a bundle folder's bundle.json (the caller has verified the bundle), adding to its signatures.json. */
export async function signBundleIndex(dir: string, signer: Signer): Promise<SignatureSet> {
  const sha256 = sha256Hex(readTextInput(join(dir, BUNDLE_INDEX_FILE), 'bundle index'));
  return addToSetFile(join(dir, BUNDLE_SIGNATURES_FILE), 'bundle', sha256, signer);
}

/**
 * The bundle's signatures checked against its bundle.json text (null when
 * it has no signatures.json), and the trust requirement applied.
 */
export function checkBundleSignatures(dir: string, indexText: string, trust: TrustOptions): CheckedSignature[] | null {
  const path = join(dir, BUNDLE_SIGNATURES_FILE);
  const set = readSet(path);
  const checked = set === null ? [] : checkSignatureSet(set, 'bundle', sha256Hex(indexText), trust.trusted, path);
  if (trust.requireSignature) requireTrustedSignature(checked, trust.trusted.size, dir);
  return set === null ? null : checked;
}

/** Signs a result file's bytes, adding to its detached signature file; returns that file's path. */
export async function signResultFile(resultPath: string, signer: Signer): Promise<{ readonly path: string; readonly set: SignatureSet }> {
  inputFileSize(resultPath, 'evaluation result');
  const path = resultSignaturePath(resultPath);
  return { path, set: await addToSetFile(path, 'result', fileSha256(resultPath), signer) };
}

/** A result's signatures (from `signaturePath`, default beside it) checked against its bytes, and the trust requirement applied. */
export function checkResultSignatures(resultPath: string, trust: TrustOptions, signaturePath = resultSignaturePath(resultPath)): { readonly path: string; readonly signatures: CheckedSignature[] } {
  inputFileSize(resultPath, 'evaluation result');
  const set = readSet(signaturePath);
  if (set === null && !trust.requireSignature) return { path: signaturePath, signatures: [] };
  const sha256 = fileSha256(resultPath);
  const checked = set === null ? [] : checkSignatureSet(set, 'result', sha256, trust.trusted, signaturePath);
  if (trust.requireSignature) requireTrustedSignature(checked, trust.trusted.size, resultPath);
  return { path: signaturePath, signatures: checked };
}
