/**
 * The app's signing key and trust list, two files in the app's data folder
 * (never in the archive, which may be shared or copied):
 *
 * - `signing-key.json`: an emberbench key file (docs/bundles.md, "Keys"),
 *   mode 0600 from its creation; its secret is read only to sign and never
 *   leaves the services (no procedure answers it);
 * - `trusted-keys.json`: public keys only, each with the user's label:
 *   `{"format":"emberbench-trust-list","keys":[{"label":..,"public_key":..}],"version":1}`.
 *
 * Trust is applied when a view is built, so removing a key from the list
 * (revocation) changes every view at once.
 */

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HEX64 } from '../../core/hash.js';
import { canonicalJson } from '../../core/json/canonical.js';
import { FieldReader } from '../../core/json/fields.js';
import { parseJsonInput } from '../../core/json/strict-parse.js';
import { keyFingerprint, type CheckedSignature } from '../../core/signing/signatures.js';
import type { Outputs, ParsedInput, SignerView, SigningStatus } from '../../shared/api/contract.js';
import type { Archive } from '../archive/archive.js';
import { storedTrialSignatures } from '../archive/trial-signatures.js';
import { writeOutputFile } from '../files.js';
import { readTextInput } from '../inputs.js';
import { newKeyFileText, parseKeyFileText, readKeyFile, unlockKey, writeKeyFile } from '../signing/key-file.js';
import { signedAtArgument, type Signer } from '../signing/signature-files.js';
import { ServiceError } from './dispatch.js';

export const SIGNING_KEY_FILE = 'signing-key.json';
export const TRUST_LIST_FILE = 'trusted-keys.json';
const TRUST_LIST_FORMAT = 'emberbench-trust-list';

export interface TrustedKey {
  readonly publicKey: string;
  readonly label: string;
}

function parseTrustList(text: string, source: string): TrustedKey[] {
  const r = new FieldReader(source);
  const o = r.object(parseJsonInput(text, source), '$', ['format', 'version', 'keys']);
  if (o.format !== TRUST_LIST_FORMAT || o.version !== 1) r.fail('format', `must be ${TRUST_LIST_FORMAT} version 1`);
  return r.array(o.keys, 'keys').map((item, k) => {
    const e = r.object(item, `keys[${k}]`, ['label', 'public_key']);
    return { publicKey: r.string(e.public_key, `keys[${k}].public_key`, HEX64), label: r.string(e.label, `keys[${k}].label`) };
  });
}

/** The signing key and trust list of one data folder. */
export class AppSigning {
  readonly keyFile: string;
  readonly trustFile: string;

  constructor(readonly dataDir: string) {
    this.keyFile = join(dataDir, SIGNING_KEY_FILE);
    this.trustFile = join(dataDir, TRUST_LIST_FILE);
  }

  trustList(): TrustedKey[] {
    return existsSync(this.trustFile) ? parseTrustList(readTextInput(this.trustFile, 'signature file'), this.trustFile) : [];
  }

  trustedSet(): Set<string> {
    return new Set(this.trustList().map((k) => k.publicKey));
  }

  status(): SigningStatus {
    const key = existsSync(this.keyFile) ? readKeyFile(this.keyFile) : null;
    return {
      key: key === null ? null : { publicKey: key.publicKey, fingerprint: key.fingerprint, sealed: key.sealed },
      keyFile: this.keyFile,
      dataDir: this.dataDir,
      trusted: this.trustList().map((k) => ({ publicKey: k.publicKey, fingerprint: keyFingerprint(k.publicKey), label: k.label })),
    };
  }

  private refuseExisting(replace: boolean): void {
    if (!replace && existsSync(this.keyFile)) {
      throw new ServiceError('output', `replace: the app already has a signing key (${this.keyFile}); tick Replace to make or import another (the old key is then gone)`, 'replace');
    }
  }

  async createKey(passphrase: string | null, replace: boolean): Promise<SigningStatus> {
    this.refuseExisting(replace);
    await writeKeyFile(this.keyFile, newKeyFileText(passphrase).text, replace);
    return this.status();
  }

  /** Imports a key file's text as it is, after checking it (a sealed one must open with `passphrase`). */
  async importKey(text: string, passphrase: string | null, replace: boolean): Promise<SigningStatus> {
    const key = parseKeyFileText(text, 'the imported key file');
    if (key.sealed) unlockKey(key, passphrase, 'the imported key file').fill(0);
    this.refuseExisting(replace);
    await writeKeyFile(this.keyFile, text, replace);
    return this.status();
  }

  /** The unlocked app key for one signing, at the operator's time (`now` reads the clock). */
  signer(signedAt: string, passphrase: string | null): Signer {
    if (!existsSync(this.keyFile)) throw new ServiceError('usage', 'sign: the app has no signing key; create or import one under Signing keys first', 'sign');
    const time = signedAtArgument(signedAt);
    return { secretKey: unlockKey(readKeyFile(this.keyFile), passphrase, this.keyFile), signedAt: time };
  }

  async addTrusted(publicKey: string, label: string): Promise<SigningStatus> {
    const list = this.trustList().filter((k) => k.publicKey !== publicKey);
    await this.writeTrust([...list, { publicKey, label }]);
    return this.status();
  }

  async removeTrusted(publicKey: string): Promise<SigningStatus> {
    const list = this.trustList();
    if (!list.some((k) => k.publicKey === publicKey)) throw new ServiceError('not_found', `publicKey: ${keyFingerprint(publicKey)} is not on the trust list`, 'publicKey');
    await this.writeTrust(list.filter((k) => k.publicKey !== publicKey));
    return this.status();
  }

  private async writeTrust(keys: readonly TrustedKey[]): Promise<void> {
    const sorted = [...keys].sort((x, y) => (x.publicKey < y.publicKey ? -1 : 1));
    const text = canonicalJson({ format: TRUST_LIST_FORMAT, version: 1, keys: sorted.map((k) => ({ label: k.label, public_key: k.publicKey })) }) + '\n';
    await writeOutputFile(this.trustFile, text, { force: true, inputs: [] });
  }

  /** A trial's signers (checked against its stored result) with trust as the list says now. */
  trialSigners(archive: Archive, trialId: number): SignerView[] {
    return this.views(storedTrialSignatures(archive, trialId, new Set()));
  }

  /** Checked signatures as the views show them: trust and label from the current list. */
  views(checked: readonly Pick<CheckedSignature, 'publicKey' | 'signedAt'>[]): SignerView[] {
    const list = new Map(this.trustList().map((k) => [k.publicKey, k.label]));
    return checked.map((c) => ({ publicKey: c.publicKey, fingerprint: keyFingerprint(c.publicKey), signedAt: c.signedAt, trusted: list.has(c.publicKey), label: list.get(c.publicKey) ?? null }));
  }
}

type SigningProcedures = 'signing.status' | 'signing.createKey' | 'signing.importKey' | 'trust.add' | 'trust.remove';

/** The settings procedures of the signing key and the trust list. */
export function signingHandlers(signing: AppSigning): { readonly [N in SigningProcedures]: (input: ParsedInput<N>) => Promise<Outputs[N]> } {
  return {
    'signing.status': () => Promise.resolve(signing.status()),
    'signing.createKey': ({ passphrase, replace }) => signing.createKey(passphrase ?? null, replace),
    'signing.importKey': ({ text, passphrase, replace }) => signing.importKey(text, passphrase ?? null, replace),
    'trust.add': ({ publicKey, label }) => signing.addTrusted(publicKey, label),
    'trust.remove': ({ publicKey }) => signing.removeTrusted(publicKey),
  };
}
