/** The signing and trust options shared by `keys`, `bundle` and `result` commands (docs/bundles.md, "Signatures"). */

import { UsageError } from '../core/errors.js';
import type { CheckedSignature } from '../core/signing/signatures.js';
import { readKeyFile, trustedKeyOf, unlockKey } from '../node/signing/key-file.js';
import { signedAtArgument, type Signer, type TrustOptions } from '../node/signing/signature-files.js';
import type { OptionSpec, ParsedArgs, Report } from './command.js';

export const PASSPHRASE_ENV_OPTION: OptionSpec = {
  name: 'passphrase-env',
  kind: 'value',
  valueName: 'VAR',
  description: 'the environment variable holding the key\'s passphrase (never a passphrase on the command line)',
};

const SIGNED_AT_OPTION: OptionSpec = {
  name: 'signed-at',
  kind: 'value',
  valueName: 'TIME',
  description: 'the signing time, signed with the digest: YYYY-MM-DDTHH:MM:SSZ, or "now" to read the clock',
};

/** --sign-key (optional, or required as --key), --passphrase-env, --signed-at. */
export function signOptions(keyOption: 'sign-key' | 'key'): readonly OptionSpec[] {
  return [
    {
      name: keyOption,
      kind: 'value',
      required: keyOption === 'key',
      valueName: 'FILE',
      description: keyOption === 'key' ? 'the operator\'s signing key (emberbench keys create)' : 'sign with this operator key (emberbench keys create); needs --signed-at',
    },
    PASSPHRASE_ENV_OPTION,
    { ...SIGNED_AT_OPTION, description: `${SIGNED_AT_OPTION.description}${keyOption === 'sign-key' ? ' (with --sign-key)' : ''}`, required: keyOption === 'key' },
  ];
}

export const TRUST_OPTIONS: readonly OptionSpec[] = [
  { name: 'trust', kind: 'repeatable', valueName: 'KEY', description: 'a trusted public key: 64 hex digits, or a key file or file holding one (repeat)' },
  { name: 'require-signature', kind: 'flag', description: 'fail (exit 5) unless a valid signature is by a trusted key' },
];

/** The passphrase from the variable --passphrase-env names, or null when the option is absent. */
export function passphraseArgument(args: ParsedArgs): string | null {
  const name = args.value('passphrase-env');
  if (name === undefined) return null;
  const value = process.env[name];
  if (value === undefined || value === '') throw new UsageError(`--passphrase-env: the environment variable ${name} is not set (or empty); set it to the passphrase`);
  return value;
}

/** The unlocked signer of --sign-key/--key and --signed-at, or null when no key is given. */
export function signerArgument(args: ParsedArgs, keyOption: 'sign-key' | 'key'): Signer | null {
  const keyPath = args.value(keyOption);
  const signedAt = args.value('signed-at');
  if (keyPath === undefined) {
    if (signedAt !== undefined || args.value('passphrase-env') !== undefined) throw new UsageError('--signed-at and --passphrase-env go with --sign-key FILE');
    return null;
  }
  if (signedAt === undefined) throw new UsageError(`--signed-at: required with --${keyOption}: the signing time YYYY-MM-DDTHH:MM:SSZ, or "now"`);
  const time = signedAtArgument(signedAt);
  const key = readKeyFile(keyPath);
  const secretKey = unlockKey(key, passphraseArgument(args), keyPath);
  return { secretKey, signedAt: time };
}

export function trustArgument(args: ParsedArgs): TrustOptions {
  return { trusted: new Set(args.list('trust').map((k) => trustedKeyOf(k))), requireSignature: args.flag('require-signature') };
}

/** The report field of checked signatures. */
export function signaturesReport(checked: readonly CheckedSignature[]): Report[string] {
  return checked.map((c) => ({ public_key: c.publicKey, fingerprint: c.fingerprint, signed_at: c.signedAt, valid: true, trusted: c.trusted }));
}
