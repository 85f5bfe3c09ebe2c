import { describe, expect, it } from 'vitest';
import { addSignature, checkSignatureSet, parseSignatureSetText, signatureSetText, signDigest, signedAtProblem } from './signatures.js';

const SHA = 'ab'.repeat(32);
const seed = (n: number) => new Uint8Array(32).fill(n);

describe('signature sets', () => {
  it('reads only valid UTC times', () => {
    expect(signedAtProblem('2028-02-29T23:59:59Z')).toBeNull();
    expect(signedAtProblem('2026-02-29T00:00:00Z')).toMatch(/no such date/);
    expect(signedAtProblem('2026-12-02T09:30:00+01:00')).toMatch(/must be a UTC time/);
    expect(signedAtProblem('2026-12-02T24:00:00Z')).toMatch(/no such date or time/);
  });

  it('round-trips canonically, sorted by key, one signature per key; a bundle signature is no result signature', () => {
    let set = addSignature(null, 'bundle', SHA, signDigest('bundle', SHA, '2026-12-02T09:30:00Z', seed(2)), 's');
    set = addSignature(set, 'bundle', SHA, signDigest('bundle', SHA, '2026-12-02T09:31:00Z', seed(1)), 's');
    const text = signatureSetText(set);
    expect(parseSignatureSetText(text, 's')).toEqual(set);
    expect(set.signatures[0]!.public_key < set.signatures[1]!.public_key).toBe(true);
    expect(() => addSignature(set, 'bundle', SHA, signDigest('bundle', SHA, '2026-12-03T00:00:00Z', seed(1)), 's')).toThrow(/a key signs once/);
    expect(() => addSignature(set, 'bundle', 'cd'.repeat(32), signDigest('bundle', 'cd'.repeat(32), '2026-12-03T00:00:00Z', seed(3)), 's')).toThrow(/remove it before signing/);
    expect(checkSignatureSet(set, 'bundle', SHA, new Set([set.signatures[0]!.public_key]), 's').map((c) => c.trusted)).toEqual([true, false]);
    // The same digest signed as a bundle does not verify as a result.
    const asResult = { ...set, subject: 'result' as const };
    expect(() => checkSignatureSet(asResult, 'result', SHA, new Set(), 's')).toThrow(/is invalid/);
  });

  it('refuses a non-canonical or unsorted file, and an empty one (exit 3 kinds)', () => {
    const set = addSignature(null, 'result', SHA, signDigest('result', SHA, '2026-12-02T09:30:00Z', seed(1)), 's');
    const text = signatureSetText(set);
    expect(() => parseSignatureSetText(text.replace('\n', ' \n'), 's')).toThrow(/canonical/);
    expect(() => parseSignatureSetText(text.replace(/"signatures":\[.*\]/, '"signatures":[]'), 's')).toThrow(/at least one signature/);
    const two = addSignature(set, 'result', SHA, signDigest('result', SHA, '2026-12-02T09:30:00Z', seed(2)), 's');
    const swapped = signatureSetText({ ...two, signatures: [...two.signatures].reverse() });
    expect(() => parseSignatureSetText(swapped, 's')).toThrow(/sorted by public key/);
  });
});
