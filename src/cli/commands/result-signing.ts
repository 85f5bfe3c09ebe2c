/** `emberbench result sign` and `result verify`: detached operator signatures of an evaluation result (docs/bundles.md). */

import { keyFingerprint } from '../../core/signing/signatures.js';
import { checkResultSignatures, resultSignaturePath, signResultFile } from '../../node/front-door/result-signing.js';
import type { CommandModule, ParsedArgs, Report } from '../command.js';
import { signaturesReport, signerArgument, signOptions, TRUST_OPTIONS, trustArgument } from '../signing-options.js';

async function resultSign(args: ParsedArgs): Promise<Report> {
  const signer = signerArgument(args, 'key')!;
  const { path, set } = await signResultFile(args.required('result'), signer);
  return { signature_file: path, sha256: set.sha256, signers: set.signatures.map((s) => ({ public_key: s.public_key, fingerprint: keyFingerprint(s.public_key), signed_at: s.signed_at })) };
}

function resultVerify(args: ParsedArgs): Promise<Report> {
  const result = args.required('result');
  const { path, signatures } = checkResultSignatures(result, trustArgument(args), args.value('signature') ?? resultSignaturePath(result));
  return Promise.resolve({ verified: true, signature_file: path, signed: signatures.length > 0, signatures: signaturesReport(signatures) });
}

export const resultSigningModule: CommandModule = {
  group: 'result',
  summary: 'operator signatures of evaluation results',
  commands: [
    {
      words: ['result', 'sign'],
      summary: 'sign a result file with an operator key (detached RESULT.sig.json)',
      description:
        'Signs the SHA-256 of the result file\'s bytes and the signing time with an Ed25519 key and adds the signature to the detached signature file beside the result (x.json gets x.sig.json), which several operators may co-sign; the result itself is never changed. A signature says who vouches for these bytes; `score` still authenticates the result itself by replay.',
      positionals: [],
      options: [{ name: 'result', kind: 'value', required: true, valueName: 'FILE', description: 'the evaluation result to sign' }, ...signOptions('key')],
      examples: ['emberbench result sign --result run.json --key operator.key --signed-at 2026-12-02T09:30:00Z'],
      run: (args) => resultSign(args),
    },
    {
      words: ['result', 'verify'],
      summary: 'check a result\'s detached signatures and their keys\' trust',
      description:
        'Checks every signature of the result\'s signature file against the result\'s bytes: a signature of another file, a changed result or an invalid signature fails (exit 5), a malformed signature file too (exit 3). Reports each signer\'s key, fingerprint, time and whether it is trusted (--trust); with --require-signature, fails (exit 5) unless one signature is by a trusted key. An unsigned result verifies with no signatures, unless a signature is required.',
      positionals: [],
      options: [
        { name: 'result', kind: 'value', required: true, valueName: 'FILE', description: 'the evaluation result' },
        { name: 'signature', kind: 'value', valueName: 'FILE', description: 'its signature file (default: beside the result, x.json -> x.sig.json)' },
        ...TRUST_OPTIONS,
      ],
      examples: ['emberbench result verify --result run.json --trust operator.pub --require-signature'],
      run: (args) => resultVerify(args),
    },
  ],
};
