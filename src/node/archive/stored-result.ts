/**
 * A trial's result as the archive rebuilds it from the stored episodes:
 * the bytes of resultText(buildResult(manifest, hash, model, episodes,
 * failures)) composed from the stored canonical texts of records and
 * metrics, never parsed and written again. A run's final result is stored
 * this way (archive-sink.ts), an unfinished trial is exported this way
 * (archive-io.ts), and the archive worker scores a result too large for one
 * string from these pieces (score-stored.ts).
 */

import { createHash } from 'node:crypto';
import { OutputError } from '../../core/errors.js';
import type { EvaluationManifest } from '../../core/eval/manifest.js';
import { buildResult, resultText } from '../../core/eval/result.js';
import { StreamingFileDigest } from '../../core/eval/result-stream.js';
import { describeBytes } from '../inputs.js';
import { deflateChunksInPool, getArtifact, getArtifactAsync, utf8, verifyPacked, type PackedArtifact } from './artifacts.js';
import type { Archive } from './archive.js';
import { countDoneEpisodes, entryRows, storedFailures } from './trials-store.js';

/**
 * The canonical JSON of each committed episode of a trial, in index order,
 * as UTF-8 chunks composed from its stored texts without parsing them:
 * canonicalJson of a ResultEpisode is {"index":N,"metrics":M,"record":R}
 * (its keys in that order), and M and R are stored as their canonical JSON
 * (each artifact digest-checked as it is read, and inflated in the thread
 * pool). One episode is read at a time.
 */
export async function* storedEpisodeChunks(archive: Archive, trialId: number): AsyncGenerator<readonly Buffer[], void, undefined> {
  for (const r of entryRows(archive, trialId)) {
    if (r.status !== 'done') continue;
    const [metrics, record] = await Promise.all([getArtifactAsync(archive, r.metrics_digest!), getArtifactAsync(archive, r.record_digest!)]);
    yield episodeJsonChunks(r.idx, metrics, record);
  }
}

/** canonicalJson of a ResultEpisode from its index and the canonical JSON of its metrics and record: {"index":N,"metrics":M,"record":R}. */
function episodeJsonChunks(index: number, metrics: Buffer, record: Buffer): Buffer[] {
  return [utf8(`{"index":${index},"metrics":`), metrics, RECORD_KEY, record, CLOSE_BRACE];
}

const RECORD_KEY = utf8(',"record":');
const CLOSE_BRACE = utf8('}');

/** A trial's result bytes composed from its stored entries (ComposedResult.chunks, in order), with both its digests. */
export interface ComposedResult {
  readonly chunks: readonly Buffer[];
  /** SHA-256 of the bytes: the result artifact's digest. */
  readonly digest: string;
  /** resultDigest: SHA-256 without the final LF (fileDigest). */
  readonly fileDigest: string;
  /** Its length in bytes. */
  readonly size: number;
  /** How many committed episodes it holds. */
  readonly episodes: number;
}

const EMPTY_EPISODES = '{"episodes":[]';
const COMMA = utf8(',');

/**
 * The bytes of resultText(buildResult(manifest, hash, model, stored
 * episodes, stored failures)) in order, composed from the stored canonical
 * texts (storedEpisodeChunks) without parsing them; the final LF is a
 * chunk of its own. The event loop gets a turn between episodes.
 */
export async function* storedResultChunks(archive: Archive, trialId: number, manifest: EvaluationManifest, manifestHash: string, modelId: string): AsyncGenerator<Buffer, void, undefined> {
  const head = storedResultHead(archive, trialId, manifest, manifestHash, modelId);
  yield utf8('{"episodes":[');
  let episodes = 0;
  for await (const episode of storedEpisodeChunks(archive, trialId)) {
    if (episodes++ > 0) yield COMMA;
    yield* episode;
  }
  // The head is the result without episodes: '{"episodes":[]' then everything after the array, ending in the LF.
  yield utf8(']' + head.slice(EMPTY_EPISODES.length, -1));
  yield utf8('\n');
}

/** The result text of a trial's manifest, model and stored failures, without its episodes. */
export function storedResultHead(archive: Archive, trialId: number, manifest: EvaluationManifest, manifestHash: string, modelId: string): string {
  return resultText(buildResult(manifest, manifestHash, modelId, [], storedFailures(archive, trialId)));
}

/** storedResultChunks collected, with both digests from one pass of the hash. */
export async function composeStoredResult(archive: Archive, trialId: number, manifest: EvaluationManifest, manifestHash: string, modelId: string): Promise<ComposedResult> {
  const chunks: Buffer[] = [];
  const digest = new ResultBytesDigest();
  for await (const chunk of storedResultChunks(archive, trialId, manifest, manifestHash, modelId)) {
    chunks.push(chunk);
    digest.update(chunk);
  }
  return { chunks, ...digest.result(), episodes: countDoneEpisodes(archive, trialId) };
}

/**
 * The two digests of a result's bytes given in chunks: SHA-256 of all of
 * them (the artifact's digest) and of all but a final LF (fileDigest, the
 * result's digest, as the core's StreamingFileDigest takes it).
 */
export class ResultBytesDigest {
  private readonly whole = createHash('sha256');
  private readonly file = new StreamingFileDigest();
  private bytes = 0;

  update(chunk: Buffer): void {
    this.whole.update(chunk);
    this.file.update(chunk);
    this.bytes += chunk.length;
  }

  result(): { digest: string; fileDigest: string; size: number } {
    return { digest: this.whole.digest('hex'), fileDigest: this.file.hex(), size: this.bytes };
  }
}


/** The digests of a trial's committed episodes' record and metrics artifacts, in index order. */
export function storedEpisodeRefs(archive: Archive, trialId: number): { readonly index: number; readonly record: string; readonly metrics: string }[] {
  return entryRows(archive, trialId)
    .filter((r) => r.status === 'done')
    .map((r) => ({ index: r.idx, record: r.record_digest!, metrics: r.metrics_digest! }));
}

/** One committed episode's canonical JSON, composed from its stored texts (as storedEpisodeChunks, in this thread). */
export function storedEpisodeJson(archive: Archive, ref: { readonly index: number; readonly record: string; readonly metrics: string }): string {
  return Buffer.concat(episodeJsonChunks(ref.index, getArtifact(archive, ref.metrics), getArtifact(archive, ref.record))).toString('utf8');
}


/** The largest blob SQLite stores (SQLITE_MAX_LENGTH, 10^9 bytes): a compressed result must fit in one. */
export const MAX_STORED_BLOB_BYTES = 1_000_000_000;

/**
 * Packs a trial's result as it is composed: digested and deflated as one
 * stream in the thread pool, never held whole, for a result too large for
 * one string; the compressed bytes are then read back (verifyPacked). Throws an OutputError when even the compressed bytes do not
 * fit in one archive artifact.
 */
export async function packStoredResult(archive: Archive, trialId: number, manifest: EvaluationManifest, manifestHash: string, modelId: string): Promise<{ packed: PackedArtifact; fileDigest: string }> {
  const digest = new ResultBytesDigest();
  const chunks = storedResultChunks(archive, trialId, manifest, manifestHash, modelId);
  async function* digested(): AsyncGenerator<Buffer, void, undefined> {
    for await (const chunk of chunks) {
      digest.update(chunk);
      yield chunk;
    }
  }
  const { pieces, bytes: stored } = await deflateChunksInPool(digested());
  const whole = digest.result();
  if (stored > MAX_STORED_BLOB_BYTES) {
    throw new OutputError(`archive: trial ${trialId}: its result (${describeBytes(whole.size)}) compresses to ${describeBytes(stored)}, more than the ${describeBytes(MAX_STORED_BLOB_BYTES)} one archive artifact holds`);
  }
  const packed = await verifyPacked({ kind: 'result', digest: whole.digest, size: whole.size, encoding: 'deflate', stored: Buffer.concat(pieces) });
  return { packed, fileDigest: whole.fileDigest };
}
