/**
 * Sharded evaluation (docs/sharding.md): `evaluation run --shard I/N` runs
 * the episodes of a manifest whose index i has i mod N = I - 1 (round
 * robin, so every shard gets a similar mix of scenarios from a
 * scenario-major manifest), and writes an ordinary, incomplete result of
 * the whole manifest holding only those episodes. Merging authenticated
 * shard results gives the result an unsharded run writes, byte for byte:
 * a result's bytes depend only on its manifest, model ID, committed
 * episodes and failure declarations, never on the order or place they ran.
 *
 * mergeShardResults refuses, naming the shard: a shard of another manifest
 * or model (foreign), an episode in two shards (overlap), and a scheduled
 * episode in no shard (missing).
 */

import { UsageError, ValidationError, fieldError } from '../errors.js';
import type { AuthenticatedResult } from './authenticate.js';
import { buildResult, type EvaluationResult, type FailureDeclaration, type ResultEpisode } from './result.js';

/** Shard `index` (1-based) of `count`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** The most shards of one run. */
export const MAX_SHARDS = 1_000_000;

/** `I/N`: canonical decimal integers with 1 <= I <= N <= MAX_SHARDS (a usage error of field `shard` otherwise). */
export function parseShard(text: string): Shard {
  const match = /^([1-9][0-9]{0,6})\/([1-9][0-9]{0,6})$/.exec(text);
  const index = match === null ? Number.NaN : Number(match[1]);
  const count = match === null ? Number.NaN : Number(match[2]);
  if (!(index >= 1 && index <= count && count <= MAX_SHARDS)) {
    throw fieldError('shard', `must be I/N with 1 <= I <= N <= ${MAX_SHARDS} (shard I of N, e.g. 2/4), not ${JSON.stringify(text)}`);
  }
  return { index, count };
}

/** True when manifest episode `episodeIndex` belongs to the shard (always true without one). */
export function inShard(episodeIndex: number, shard: Shard | undefined): boolean {
  return shard === undefined || episodeIndex % shard.count === shard.index - 1;
}

export interface ShardInput {
  /** Names the shard in messages (its path). */
  readonly source: string;
  /** The authenticated shard: its result and manifest hash (all a merge reads). */
  readonly auth: Pick<AuthenticatedResult, 'result' | 'manifestHash'>;
}

/** Merges authenticated shard results of one manifest and model into the complete-coverage result. */
export function mergeShardResults(shards: readonly ShardInput[]): EvaluationResult {
  if (shards.length === 0) throw new UsageError('give at least one shard result');
  const [first] = shards;
  const { manifest } = first!.auth.result;
  const hash = first!.auth.manifestHash;
  const modelId = first!.auth.result.model_id;
  const owner = new Map<number, string>();
  const episodes: ResultEpisode[] = [];
  const failures: FailureDeclaration[] = [];
  for (const { source, auth } of shards) {
    if (auth.manifestHash !== hash) {
      throw new ValidationError(`${source}: foreign shard: a result of manifest ${auth.manifestHash}, not of ${hash} (the manifest of ${first!.source})`);
    }
    if (auth.result.model_id !== modelId) {
      throw new ValidationError(`${source}: foreign shard: a result of model ${JSON.stringify(auth.result.model_id)}, not ${JSON.stringify(modelId)} (the model of ${first!.source})`);
    }
    const claim = (index: number): void => {
      const other = owner.get(index);
      if (other !== undefined) throw new ValidationError(`${source}: overlapping shard: episode ${index} is also in ${other}`);
      owner.set(index, source);
    };
    for (const episode of auth.result.episodes) {
      claim(episode.index);
      episodes.push(episode);
    }
    for (const failure of auth.result.failures) {
      claim(failure.index);
      failures.push(failure);
    }
  }
  const missing = manifest.episodes.map((e) => e.index).filter((i) => !owner.has(i));
  if (missing.length > 0) {
    const shown = missing.slice(0, 10).join(', ') + (missing.length > 10 ? `, ... (${missing.length} in all)` : '');
    const named = missingShards(shards, manifest.episodes.length);
    const which = named === null || named.length === 0 ? '' : ` (not given: shard${named.length > 1 ? 's' : ''} ${named.join(', ')})`;
    throw new ValidationError(
      `missing shard: scheduled episodes ${shown} are in none of the ${shards.length} shard results${which}; give every shard, each run to completion (under --shard I/N, episode i belongs to shard (i mod N) + 1)`,
    );
  }
  return buildResult(manifest, hash, modelId, episodes, failures);
}

/**
 * The shards `I/N` that are not given, for the smallest N under which every
 * given result holds exactly one whole residue class of the episodes (the
 * shards of a --shard I/N run); null when no N fits (a shard that did not
 * run to completion, or results that are not --shard slices).
 */
function missingShards(shards: readonly ShardInput[], scheduled: number): string[] | null {
  const sets = shards.map(({ auth }) => [...auth.result.episodes.map((e) => e.index), ...auth.result.failures.map((f) => f.index)].sort((a, b) => a - b));
  for (let n = shards.length + 1; n <= scheduled; n++) {
    const residues = new Set<number>();
    const fits = sets.every((indices) => {
      const r = indices[0];
      if (r === undefined || r >= n || residues.has(r)) return false;
      residues.add(r);
      // Exactly the class r, r + n, r + 2n, ... below `scheduled`.
      return indices.length === Math.ceil((scheduled - r) / n) && indices.every((i, k) => i === r + k * n);
    });
    if (fits) return Array.from({ length: n }, (_, r) => r).filter((r) => !residues.has(r)).map((r) => `${r + 1}/${n}`);
  }
  return null;
}
