import { describe, expect, it } from 'vitest';
import type { AuthenticatedResult } from './authenticate.js';
import type { EvaluationManifest } from './manifest.js';
import type { ResultEpisode } from './result.js';
import { inShard, mergeShardResults, parseShard, type ShardInput } from './shard.js';

describe('parseShard', () => {
  it.each([
    ['1/1', { index: 1, count: 1 }],
    ['2/4', { index: 2, count: 4 }],
    ['4/4', { index: 4, count: 4 }],
  ])('reads %s', (text, shard) => expect(parseShard(text)).toEqual(shard));

  it.each(['0/4', '5/4', '1/0', '01/4', '1/4/2', '1-4', ' 1/4', '', '1/1000001'])('refuses %j as a usage error', (text) => {
    expect(() => parseShard(text)).toThrow(expect.objectContaining({ kind: 'usage' }) as Error);
  });
});

describe('inShard', () => {
  it('puts every episode in exactly one of N shards, round robin', () => {
    for (const count of [1, 2, 3, 7]) {
      for (let i = 0; i < 40; i++) {
        const owners = Array.from({ length: count }, (_, k) => k + 1).filter((index) => inShard(i, { index, count }));
        expect(owners).toEqual([(i % count) + 1]);
      }
    }
    expect(inShard(5, undefined)).toBe(true);
  });
});

// mergeShardResults reads only the manifest, its hash, the model ID, the episodes and the failures.
const MANIFEST = { episodes: Array.from({ length: 6 }, (_, index) => ({ index })) } as unknown as EvaluationManifest;

function shard(source: string, indices: readonly number[], opts: { hash?: string; model?: string; failed?: readonly number[] } = {}): ShardInput {
  const episodes = indices.map((index) => ({ index }) as unknown as ResultEpisode);
  const failures = (opts.failed ?? []).map((index) => ({ index, kind: 'timeout' as const, message: 'slow' }));
  const result = { manifest: MANIFEST, manifest_hash: opts.hash ?? 'h', model_id: opts.model ?? 'm', episodes, failures, evaluation_result_version: '1.0' };
  return { source, auth: { result, manifestHash: opts.hash ?? 'h' } as unknown as AuthenticatedResult };
}

describe('mergeShardResults', () => {
  it('merges disjoint shards covering the manifest into one result in index order', () => {
    const merged = mergeShardResults([shard('b', [1, 4]), shard('a', [0, 3], { failed: [] }), shard('c', [2], { failed: [5] })]);
    expect(merged.episodes.map((e) => e.index)).toEqual([0, 1, 2, 3, 4]);
    expect(merged.failures.map((f) => f.index)).toEqual([5]);
    expect(merged.model_id).toBe('m');
  });

  it('refuses a foreign shard, naming it', () => {
    expect(() => mergeShardResults([shard('a', [0, 2, 4]), shard('b', [1, 3, 5], { hash: 'other' })])).toThrow('b: foreign shard: a result of manifest other');
    expect(() => mergeShardResults([shard('a', [0, 2, 4]), shard('b', [1, 3, 5], { model: 'x' })])).toThrow('b: foreign shard: a result of model "x"');
  });

  it('refuses overlapping shards, naming both', () => {
    expect(() => mergeShardResults([shard('a', [0, 2, 4]), shard('b', [1, 2, 5])])).toThrow('b: overlapping shard: episode 2 is also in a');
  });

  it('refuses a missing shard and names it when the others are whole --shard slices', () => {
    expect(() => mergeShardResults([shard('s1', [0, 3]), shard('s3', [2, 5])])).toThrow(
      'missing shard: scheduled episodes 1, 4 are in none of the 2 shard results (not given: shard 2/3)',
    );
  });

  it('refuses an unfinished shard, listing the episodes no shard holds', () => {
    expect(() => mergeShardResults([shard('s1', [0, 2]), shard('s2', [1, 3, 5])])).toThrow('missing shard: scheduled episodes 4 are in none of the 2 shard results;');
  });
});
