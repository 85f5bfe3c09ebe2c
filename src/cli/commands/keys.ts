/** `emberbench keys create` and `keys show`: operator signing keys (docs/bundles.md, "Keys"). */

import { newKeyFileText, readKeyFile, SCRYPT_PARAMS, writeKeyFile, type KeyFile } from '../../node/front-door/keys.js';
import { FORCE_OPTION } from '../arguments.js';
import type { CommandModule, ParsedArgs, Report } from '../command.js';
import { PASSPHRASE_ENV_OPTION, passphraseArgument } from '../signing-options.js';

/** Public facts only: the secret never reaches a report, a log or the terminal. */
function keyReport(key: Pick<KeyFile, 'publicKey' | 'fingerprint' | 'sealed'>): Report {
  return { algorithm: 'ed25519', public_key: key.publicKey, fingerprint: key.fingerprint, sealed: key.sealed };
}

async function keysCreate(args: ParsedArgs): Promise<Report> {
  const out = args.required('out');
  const { text } = newKeyFileText(passphraseArgument(args));
  await writeKeyFile(out, text, args.flag('force'));
  return keyReport(readKeyFile(out));
}

function keysShow(args: ParsedArgs): Promise<Report> {
  return Promise.resolve(keyReport(readKeyFile(args.positional(0))));
}

export const keysModule: CommandModule = {
  group: 'keys',
  summary: 'operator signing keys (Ed25519) for signed bundles and results',
  commands: [
    {
      words: ['keys', 'create'],
      summary: 'make a new Ed25519 signing key file (mode 0600)',
      description:
        `Makes an Ed25519 key pair from the operating system's random source and writes it as a key file, created with mode 0600 (readable by you only). With --passphrase-env the secret is sealed: scrypt (N=${SCRYPT_PARAMS.n}, r=${SCRYPT_PARAMS.r}, p=${SCRYPT_PARAMS.p}) of the passphrase keys XChaCha20-Poly1305. Prints the public key and its fingerprint, never the secret. An existing file is not replaced without --force (and then only a regular file).`,
      positionals: [],
      options: [
        { name: 'out', kind: 'value', required: true, valueName: 'FILE', description: 'the new key file; its directory must exist' },
        PASSPHRASE_ENV_OPTION,
        FORCE_OPTION,
      ],
      examples: ['emberbench keys create --out operator.key', 'emberbench keys create --out operator.key --passphrase-env EMBER_KEY_PASSPHRASE'],
      run: (args) => keysCreate(args),
    },
    {
      words: ['keys', 'show'],
      summary: 'print a key file\'s public key and fingerprint',
      description:
        'Reads a key file strictly and prints its public key (64 hex digits, what others put on their trust list), its fingerprint (the first 16 bytes of the SHA-256 of the raw public key, in groups of four hex digits) and whether its secret is sealed. The secret is not unsealed or shown.',
      positionals: [{ name: 'FILE', description: 'a key file (emberbench keys create)' }],
      options: [],
      examples: ['emberbench keys show operator.key', 'emberbench keys show operator.key --json'],
      run: (args) => keysShow(args),
    },
  ],
};
