/**
 * Operators' signatures of an imported trial's result (docs/bundles.md): the
 * signature set file stored as an artifact beside the trial. Checked against
 * the result before it is stored, and again whenever it is read, so a
 * damaged archive never shows a signature that does not verify.
 */

import { ValidationError } from '../../core/errors.js';
import { addSignature, checkSignatureSet, parseSignatureSetText, signatureSetText, type CheckedSignature, type SignatureSet } from '../../core/signing/signatures.js';
import { statement, type Archive } from './archive.js';
import { getText, putText } from './artifacts.js';

function storedSet(archive: Archive, trialId: number): SignatureSet | null {
  const row = statement<{ digest: string }>(archive, 'SELECT digest FROM trial_signatures WHERE trial_id = ?').get(trialId);
  return row === undefined ? null : parseSignatureSetText(getText(archive, row.digest), `archive: trial ${trialId} signatures`);
}

/**
 * Adds the signatures of a checked set to a trial (merged with those it has:
 * co-signatures imported later are kept, a key's signature once). Runs in
 * the caller's write transaction.
 */
export function storeTrialSignatures(archive: Archive, trialId: number, set: SignatureSet): void {
  let merged = storedSet(archive, trialId);
  for (const entry of set.signatures) {
    if (merged?.signatures.some((s) => s.public_key === entry.public_key)) continue;
    merged = addSignature(merged, 'result', set.sha256, entry, `trial ${trialId}`);
  }
  if (merged === null) return;
  const digest = putText(archive, 'signatures', signatureSetText(merged));
  statement(archive, 'INSERT INTO trial_signatures (trial_id, digest) VALUES (?, ?) ON CONFLICT (trial_id) DO UPDATE SET digest = excluded.digest').run(trialId, digest);
}

/** A trial's signatures checked against its stored result's digest; empty when it has none. Trust is the caller's. */
export function trialSignatures(archive: Archive, trialId: number, resultDigest: string | null, trusted: ReadonlySet<string>): CheckedSignature[] {
  const set = storedSet(archive, trialId);
  if (set === null) return [];
  if (resultDigest === null) throw new ValidationError(`archive: trial ${trialId} has signatures but no stored result digest to check them against (the archive is damaged)`);
  return checkSignatureSet(set, 'result', resultDigest, trusted, `archive: trial ${trialId} signatures`);
}

/** A trial's signatures checked against its stored result's digest (read only when it has signatures); empty when it has none. */
export function storedTrialSignatures(archive: Archive, trialId: number, trusted: ReadonlySet<string>): CheckedSignature[] {
  if (statement(archive, 'SELECT 1 FROM trial_signatures WHERE trial_id = ?').get(trialId) === undefined) return [];
  const row = statement<{ result_digest: string | null }>(archive, 'SELECT result_digest FROM trials WHERE trial_id = ?').get(trialId)!;
  return trialSignatures(archive, trialId, row.result_digest, trusted);
}
