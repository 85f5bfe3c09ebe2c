/**
 * `evaluation merge`: the shard results of `evaluation run --shard I/N`
 * (core/eval/shard.ts), each authenticated from scratch against the suite
 * (exit 3, or 5 for a replay mismatch), merged into the result an unsharded
 * run writes, byte for byte, and written like any output (no overwrite
 * without --force; never over an input).
 */

import type { AuthenticatedEpisode } from '../../core/eval/authenticate.js';
import { resultPieces, streamedResultDigest } from '../../core/eval/result-stream.js';
import type { EvaluationManifest } from '../../core/eval/manifest.js';
import { buildResult, type EvaluationResult, type ResultEpisode } from '../../core/eval/result.js';
import { mergeShardResults, type ShardInput } from '../../core/eval/shard.js';
import { UsageError } from '../../core/errors.js';
import type { Suite } from '../../core/world/suite.js';
import { checkOutputPath, writeOutputFile, type OutputOptions } from '../files.js';
import { loadSuiteDir } from '../inputs.js';
import { withOutputLock } from '../output-lock.js';
import { loadManifestFile } from '../inputs.js';
import { authenticateResultFileSteps, resultEpisodeOf } from './result-reader.js';
import { driveSteps } from '../cooperative.js';
import type { StepProgress, Steps } from '../../core/steps.js';

export interface MergeShardsOptions {
  readonly suiteDir: string;
  readonly shardPaths: readonly string[];
  /** Require this manifest (exit 5 when a shard embeds another). */
  readonly manifestPath?: string;
  readonly out: string;
  readonly force: boolean;
  /** Told when the lock of a dead holder is taken over (output-lock.ts). */
  readonly onNotice?: (text: string) => void;
  /** Progress of the shards' reading and replay, reported between slices of work (cooperative.ts). */
  readonly onProgress?: (progress: StepProgress) => void;
}

export interface MergedShards {
  readonly suite: Suite;
  readonly result: EvaluationResult;
  readonly digest: string;
  readonly complete: boolean;
}

export async function mergeShardFiles(opts: MergeShardsOptions): Promise<MergedShards> {
  if (opts.shardPaths.length === 0) throw new UsageError('give at least one shard result file');
  const seen = new Set<string>();
  for (const path of opts.shardPaths) {
    if (seen.has(path)) throw new UsageError(`shard ${path} is given twice`);
    seen.add(path);
  }
  const inputs = [opts.suiteDir, ...opts.shardPaths, ...(opts.manifestPath === undefined ? [] : [opts.manifestPath])];
  const output = { force: opts.force, inputs };
  const suite = loadSuiteDir(opts.suiteDir);
  const requiredManifest = opts.manifestPath === undefined ? undefined : loadManifestFile(opts.manifestPath);
  await checkOutputPath(opts.out, output);
  // One writer per output (output-lock.ts): held from before the shards are read until the merged result is written.
  return withOutputLock(opts.out, opts.onNotice === undefined ? {} : { onNotice: opts.onNotice }, () => mergeLocked(opts, suite, requiredManifest, output));
}

async function mergeLocked(
  opts: MergeShardsOptions,
  suite: Suite,
  requiredManifest: EvaluationManifest | undefined,
  output: OutputOptions,
): Promise<MergedShards> {
  // One at a time, so the first bad shard is the one named.
  // Streamed (result-reader.ts), and written in pieces: shards and the merged result of any size.
  // In slices, so Ctrl+C stops it at once: the output is written only after.
  const shards = await driveSteps(
    (function* (): Steps<ShardInput[]> {
      const read: ShardInput[] = [];
      for (const source of opts.shardPaths) {
        const episodes: ResultEpisode[] = [];
        const onEpisode = (e: AuthenticatedEpisode): void => void episodes.push(resultEpisodeOf(e));
        const auth = yield* authenticateResultFileSteps(source, source, suite, requiredManifest === undefined ? { onEpisode } : { requiredManifest, onEpisode });
        read.push({ source, auth: { manifestHash: auth.manifestHash, result: buildResult(auth.manifest, auth.manifestHash, auth.modelId, episodes, auth.failures) } });
      }
      return read;
    })(),
    opts.onProgress === undefined ? {} : { onProgress: opts.onProgress },
  );
  const result = mergeShardResults(shards);
  await writeOutputFile(opts.out, { pieces: () => resultPieces(result) }, output);
  return { suite, result, digest: streamedResultDigest(result), complete: result.episodes.length === result.manifest.episodes.length };
}
