/** Who signed an official artifact, and whether the app's trust list trusts them: "signed by a trusted key" apart from "unsigned". */

import type { SignerView } from '../../shared/api/contract.js';

/** One line per state: trusted signers first by name, else valid but untrusted keys, else unsigned. */
export function signerText(signers: readonly SignerView[] | null): string {
  if (signers === null || signers.length === 0) return 'unsigned';
  const trusted = signers.filter((s) => s.trusted);
  if (trusted.length > 0) return `signed by trusted key ${trusted.map((s) => (s.label !== null && s.label !== '' ? `${s.label} (${s.fingerprint})` : s.fingerprint)).join(', ')}`;
  return `signed by untrusted key ${signers.map((s) => s.fingerprint).join(', ')}`;
}

export function SignerBadge({ signers, official = true }: { signers: readonly SignerView[] | null; official?: boolean }) {
  if (!official) return null;
  const trusted = signers?.some((s) => s.trusted) ?? false;
  const signed = signers !== null && signers.length > 0;
  const state = trusted ? 'trusted' : signed ? 'untrusted' : 'unsigned';
  return (
    <span className={`signer-badge signer-${state}`} data-testid="signer-badge" data-state={state} title={signed ? signers.map((s) => `${s.fingerprint} · ${s.publicKey} · signed at ${s.signedAt}`).join('\n') : 'No operator signature: anyone could have made it'}>
      {trusted ? 'Official, signed by a trusted key' : signed ? 'Official, signed by an untrusted key' : 'Official, unsigned'}
    </span>
  );
}
