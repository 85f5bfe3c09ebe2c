/**
 * `emberbench evaluation merge SHARD... --out FILE` (docs/sharding.md): the
 * shard results of `evaluation run --shard I/N` merged into the result an
 * unsharded run writes, byte for byte. A module of its own in the
 * `evaluation` group (registry.ts), so that the run command's file stays
 * about running.
 */

import { EVALUATION_RESULT_VERSION } from '../../core/eval/result.js';
import { mergeShardFiles } from '../../node/front-door/merge.js';
import { FORCE_OPTION, OUT_OPTION } from '../arguments.js';
import type { CommandContext, CommandModule, ParsedArgs, Report } from '../command.js';
import { SUITE_OPTIONS, suiteDirArgument, suiteFields } from '../options.js';
import { withProgress } from '../progress.js';

async function evaluationMerge(args: ParsedArgs, context: CommandContext): Promise<Report> {
  const suiteDir = suiteDirArgument(args);
  const options = {
    suiteDir,
    shardPaths: args.positionals,
    manifestPath: args.value('manifest'),
    out: args.required('out'),
    force: args.flag('force'),
    // Human mode only: with --json a failure is one stderr line (cli-v1.0.md).
    ...(args.flag('json') ? {} : { onNotice: (text: string) => context.io.stderr(`emberbench: ${text}\n`) }),
  };
  const merged = await withProgress(context.io, args.flag('json'), (onProgress) => mergeShardFiles({ ...options, onProgress }));
  const { result } = merged;
  return {
    model_id: result.model_id,
    result_version: EVALUATION_RESULT_VERSION,
    manifest_hash: result.manifest_hash,
    ...suiteFields(merged.suite),
    result_digest: merged.digest,
    scheduled_episodes: result.manifest.episodes.length,
    completed_episodes: result.episodes.length,
    failed_episodes: result.failures.length,
    complete: merged.complete,
    shard_count: args.positionals.length,
  };
}

export const evaluationMergeModule: CommandModule = {
  group: 'evaluation',
  // The group's help line: the same as evaluation.ts's, whichever module registers last.
  summary: 'evaluation manifests, runs and results',
  commands: [
    {
      words: ['evaluation', 'merge'],
      summary: 'merge the shard results of evaluation run --shard I/N into one result',
      description:
        'Authenticates every shard result against the suite from scratch (exit 3, or 5 for a replay mismatch), requires them to be results of one manifest and model ID, each scheduled episode in exactly one shard, and writes the merged result: byte-identical to the result of the unsharded run. A foreign shard (another manifest or model), an episode in two shards and an episode in none (a missing or unfinished shard) are refused naming the shard (exit 3). --manifest also requires this exact manifest (exit 5). Like evaluation run it holds OUT.lock while it works: a second process writing the same --out is refused (exit 6) naming the holder.',
      positionals: [{ name: 'SHARD...', description: 'the shard result files (any order)', variadic: true }],
      options: [
        ...SUITE_OPTIONS,
        { name: 'manifest', kind: 'value', valueName: 'FILE', description: 'require this exact evaluation manifest (exit 5 if a shard embeds another)' },
        OUT_OPTION,
        FORCE_OPTION,
      ],
      examples: ['emberbench evaluation merge shard-1.json shard-2.json shard-3.json shard-4.json --generated-suite batch --manifest manifest.json --out result.json'],
      run: (args, context) => evaluationMerge(args, context),
    },
  ],
};
