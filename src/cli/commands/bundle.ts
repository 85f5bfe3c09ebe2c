/** `emberbench bundle create` and `bundle verify`: official bundles (docs/bundles.md). */

import type { BundleIndex } from '../../core/bundle/bundle-index.js';
import { DEFAULT_RESAMPLES, MAX_RESAMPLES } from '../../core/stats/bootstrap.js';
import { keyFingerprint } from '../../core/signing/signatures.js';
import { createBundle, signBundle, verifyBundleCooperatively } from '../../node/front-door/bundle.js';
import type { CommandContext, CommandModule, ParsedArgs, Report } from '../command.js';
import { withProgress } from '../progress.js';
import { resamplesArgument } from '../options.js';
import { signaturesReport, signerArgument, signOptions, TRUST_OPTIONS, trustArgument } from '../signing-options.js';

function bundleReport(index: BundleIndex, files: number): Report {
  return {
    bundle_version: index.bundle_version,
    pack_id: index.pack_id,
    pack_digest: index.pack_digest,
    manifest_hash: index.manifest_hash,
    models: index.models.map((m) => ({ model_id: m.model_id, dir: m.dir, trials: m.trials, score: m.score, official: m.official, report_digest: m.report_digest })),
    comparison_outcome: index.comparison_outcome,
    files,
  };
}

async function bundleCreate(args: ParsedArgs, context: CommandContext): Promise<Report> {
  // The key is unlocked before any work: a wrong passphrase costs nothing.
  const signer = signerArgument(args, 'sign-key');
  const options = {
    packDir: args.required('pack'),
    resultPaths: args.list('result'),
    operationalPaths: args.list('operational'),
    resamples: resamplesArgument(args.value('resamples')) ?? DEFAULT_RESAMPLES,
    out: args.required('out'),
    signers: signer === null ? [] : [signer],
  };
  const index = await withProgress(context.io, args.flag('json'), (onProgress) => createBundle({ ...options, onProgress }));
  const report = bundleReport(index, index.files.length + 1);
  return signer === null ? report : { ...report, signed: true };
}

/** Reports signatures only for a signed bundle or when trust was asked about: an unsigned bundle reports as it always did. */
async function bundleVerify(args: ParsedArgs, context: CommandContext): Promise<Report> {
  const trust = trustArgument(args);
  const dir = args.positional(0);
  const verified = await withProgress(context.io, args.flag('json'), (onProgress) => verifyBundleCooperatively(dir, trust, onProgress));
  const report = { verified: true, ...bundleReport(verified.index, verified.files) };
  if (verified.signatures === null && trust.trusted.size === 0 && !trust.requireSignature) return report;
  return { ...report, signatures: signaturesReport(verified.signatures ?? []) };
}

async function bundleSignCommand(args: ParsedArgs): Promise<Report> {
  const signer = signerArgument(args, 'key')!;
  const { verified, set } = await signBundle(args.required('bundle'), signer);
  return {
    ...bundleReport(verified.index, verified.files),
    bundle_json_sha256: set.sha256,
    signers: set.signatures.map((s) => ({ public_key: s.public_key, fingerprint: keyFingerprint(s.public_key), signed_at: s.signed_at })),
  };
}

export const bundleModule: CommandModule = {
  group: 'bundle',
  summary: 'official bundles: results, scores, statistics and comparison with a digest index',
  commands: [
    {
      words: ['bundle', 'create'],
      summary: 'score results against a pack and write an official bundle',
      description:
        'Authenticates every result against the environment pack, scores each model (one or two models; several results of a model are its trials), computes the statistics of every trial and, for two models, their paired comparison (the first model given is A), and writes everything with the pack into a new folder, with bundle.json listing the SHA-256 of every file. The files are byte-identical to what `score`, `statistics aggregate` and `score compare` write. The folder is written whole or not at all and never replaces an existing one.',
      positionals: [],
      options: [
        { name: 'pack', kind: 'value', required: true, valueName: 'DIR', description: 'the environment pack the results ran' },
        { name: 'result', kind: 'repeatable', required: true, valueName: 'FILE', description: 'an evaluation result (repeat: the trials of one model, or of two models to compare)' },
        { name: 'operational', kind: 'repeatable', valueName: 'FILE', description: 'an operational record of one of the models (at most one per model)' },
        { name: 'resamples', kind: 'value', valueName: 'N', description: `bootstrap resamples, an integer in [1, ${MAX_RESAMPLES}] (default ${DEFAULT_RESAMPLES})` },
        { name: 'out', kind: 'value', required: true, valueName: 'DIR', description: 'the new bundle folder (must not exist)' },
        ...signOptions('sign-key'),
      ],
      examples: [
        'emberbench bundle create --pack pack --result congestion.json --out bundle-congestion',
        'emberbench bundle create --pack pack --result a.json --result b.json --out bundle-a-vs-b --json',
        'emberbench bundle create --pack pack --result a.json --out bundle-a --sign-key operator.key --signed-at 2026-12-02T09:30:00Z',
      ],
      run: (args, context) => bundleCreate(args, context),
    },
    {
      words: ['bundle', 'verify'],
      summary: 'authenticate an official bundle from disk',
      description:
        'Checks the signatures of signatures.json, when the bundle has one: each must be valid for this bundle.json (a signature of another bundle, a changed bundle.json or an invalid signature fails, exit 5) and is reported with its key\'s fingerprint and whether --trust lists it; --require-signature fails (exit 5) without a valid signature by a trusted key. Then checks that the folder holds exactly the files bundle.json lists, each with its digest (a changed, missing or extra file is named; exit 3), replays every result against the bundled pack and recomputes every score report, summary, statistics file and the comparison, which must equal the bundled bytes (exit 5 otherwise).',
      positionals: [{ name: 'DIR', description: 'the bundle folder' }],
      options: [...TRUST_OPTIONS],
      examples: ['emberbench bundle verify bundle-congestion', 'emberbench bundle verify bundle-a-vs-b --json', 'emberbench bundle verify bundle-a --trust operator.pub --require-signature'],
      run: (args, context) => bundleVerify(args, context),
    },
    {
      words: ['bundle', 'sign'],
      summary: 'add an operator\'s signature to an official bundle',
      description:
        'Verifies the bundle whole (as `bundle verify` does), then signs the SHA-256 of its bundle.json, which lists every other file\'s digest, with the signing time, and adds the signature to signatures.json beside it (co-signing: several operators may sign one bundle). No signed file changes.',
      positionals: [],
      options: [{ name: 'bundle', kind: 'value', required: true, valueName: 'DIR', description: 'the bundle folder' }, ...signOptions('key')],
      examples: ['emberbench bundle sign --bundle bundle-a --key operator.key --signed-at 2026-12-02T09:30:00Z'],
      run: (args) => bundleSignCommand(args),
    },
  ],
};
