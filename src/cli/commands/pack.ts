/** `emberbench pack build` and `pack verify`: environment packs (docs/packs.md). */

import type { EnvironmentPack } from '../../core/pack/pack.js';
import { buildPack, verifyPackCooperatively } from '../../node/front-door/pack.js';
import type { CommandContext, CommandModule, ParsedArgs, Report } from '../command.js';
import { withProgress } from '../progress.js';
import { SUITE_OPTIONS, suiteDirArgument } from '../options.js';

/** The fields both commands report: the pack's identity, never a path or a seed. */
function packReport(pack: EnvironmentPack): Report {
  const { value } = pack;
  return {
    pack_id: pack.packId,
    pack_digest: pack.digest,
    environment_pack_version: value.environment_pack_version,
    benchmark_revision: value.benchmark_revision,
    manifest_hash: value.manifest_hash,
    scoring_version: value.versions['scoring_version'] ?? null,
    scoring_constants_digest: value.scoring_constants_digest,
    suite_id: value.suite.suite_id,
    suite_version: value.suite.suite_version,
    suite_hash: value.suite.suite_hash,
    episode_count: value.episodes.length,
    not_applicable_count: value.episodes.filter((e) => e.not_applicable).length,
  };
}

async function packBuild(args: ParsedArgs, context: CommandContext): Promise<Report> {
  const suiteDir = suiteDirArgument(args);
  const manifest = args.required('manifest');
  const out = args.required('out');
  const pack = await withProgress(context.io, args.flag('json'), (onProgress) => buildPack(suiteDir, manifest, out, { onProgress }));
  return packReport(pack);
}

async function packVerify(args: ParsedArgs, context: CommandContext): Promise<Report> {
  const dir = args.positional(0);
  const pack = await withProgress(context.io, args.flag('json'), (onProgress) => verifyPackCooperatively(dir, onProgress));
  return { verified: true, ...packReport(pack) };
}

export const packModule: CommandModule = {
  group: 'pack',
  summary: 'environment packs: the frozen environment of an official score',
  commands: [
    {
      words: ['pack', 'build'],
      summary: 'build an environment pack from a suite and an evaluation manifest',
      description:
        'Loads the suite and the evaluation manifest (which must target the suite), computes every scheduled episode\'s fire world and M* once, and writes a new pack directory: pack.json, manifest.json and suite/ (byte-identical copies). The output directory must not exist; the pack is built beside it and renamed into place, and nothing is left behind on failure. Reports the pack ID (ember-pack- plus the first 16 hex digits of the pack digest) and the full digest.',
      positionals: [],
      options: [
        ...SUITE_OPTIONS,
        { name: 'manifest', kind: 'value', required: true, valueName: 'FILE', description: 'the evaluation manifest file (it must target the suite)' },
        { name: 'out', kind: 'value', required: true, valueName: 'DIR', description: 'the new pack directory; it must not exist, its parent must' },
      ],
      examples: ['emberbench pack build --suite scenarios/public/v1 --manifest manifest.json --out pack-v1'],
      run: (args, context) => packBuild(args, context),
    },
    {
      words: ['pack', 'verify'],
      summary: 'authenticate an environment pack and recompute every fire world and M*',
      description:
        'Loads the pack fail-closed: pack.json must be canonical with the running versions and the official scoring constants, the suite copy must load and match its pinned identity and byte digests, manifest.json must be a canonical manifest with the pinned hash that targets the suite, and every fire-world digest and M* must equal the recomputation. Any difference is exit 3 (a tampered input).',
      positionals: [{ name: 'DIR', description: 'the pack directory', option: 'pack' }],
      options: [],
      examples: ['emberbench pack verify pack-v1 --json'],
      run: (args, context) => packVerify(args, context),
    },
  ],
};
