/**
 * The content-addressed store: every artifact is kept as its exact bytes
 * under the SHA-256 of those bytes. Run records (the bulk of a result) are
 * deflated; the digest is of the uncompressed bytes and is checked on every
 * read, so a bit flipped on disk or a row edited by hand is a
 * ValidationError, never a silently different export.
 */

import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createDeflateRaw, createInflateRaw, deflateRaw, deflateRawSync, inflateRaw, inflateRawSync } from 'node:zlib';
import { ValidationError } from '../../core/errors.js';
import { statement, type Archive } from './archive.js';

export type ArtifactKind =
  | 'suite-file'
  | 'manifest'
  | 'pack-file'
  | 'result'
  | 'record'
  | 'metrics'
  | 'score-report'
  | 'summary'
  | 'statistics'
  | 'operational'
  | 'generation-record'
  | 'signatures';

/** Kinds stored deflated: large, repetitive JSON. */
const COMPRESSED: ReadonlySet<ArtifactKind> = new Set<ArtifactKind>(['record', 'result']);

export function sha256OfBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function utf8(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}

/** Marks a PackedArtifact whose stored bytes were read back (verifyPacked): only this module makes one. */
declare const readBack: unique symbol;

/**
 * An artifact ready to store: its digest taken, its bytes compressed, and
 * those stored bytes read back (inflated and digest-checked), all outside
 * any transaction. putPacked takes nothing else, so what cannot be read back
 * is never stored.
 */
export interface PackedArtifact extends UnverifiedArtifact {
  readonly [readBack]: true;
}

/** A packed artifact before its stored bytes were read back. */
export interface UnverifiedArtifact {
  readonly kind: ArtifactKind;
  /** SHA-256 of the uncompressed bytes. */
  readonly digest: string;
  /** The uncompressed size in bytes. */
  readonly size: number;
  readonly encoding: 'raw' | 'deflate';
  /** The bytes as stored (compressed for the COMPRESSED kinds). */
  readonly stored: Uint8Array;
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Stored bytes that do not read back as the artifact they were packed from:
 * a fault of this machine or a bug, never the user's input. Nothing is
 * stored.
 */
function notReadBack(a: UnverifiedArtifact, problem: string): Error {
  return new Error(`archive: the ${a.kind} artifact ${a.digest} (${a.size} bytes) does not read back as written (${problem}); nothing was stored`);
}

function checkReadBack(a: UnverifiedArtifact, size: number, digest: string): PackedArtifact {
  if (size !== a.size) throw notReadBack(a, `${size} bytes read back`);
  if (digest !== a.digest) throw notReadBack(a, `read back as ${digest}`);
  return a as PackedArtifact;
}

/**
 * Reads an artifact's stored bytes back in this thread: inflated (deflate)
 * and digest-checked. A raw artifact's stored bytes are the very bytes its
 * digest was taken from, so only its length is checked.
 */
function verifyPackedSync(a: UnverifiedArtifact): PackedArtifact {
  if (a.encoding === 'raw') return checkReadBack(a, a.stored.byteLength, a.digest);
  let bytes: Buffer;
  try {
    bytes = inflateRawSync(a.stored);
  } catch (error) {
    throw notReadBack(a, (error as Error).message);
  }
  return checkReadBack(a, bytes.byteLength, sha256OfBytes(bytes));
}

/** Inflated in pieces of this many bytes: each piece's hash holds the event loop for tens of microseconds. */
const READ_BACK_PIECE_BYTES = 64 * 1024;

/**
 * verifyPackedSync off the event loop: the stored bytes inflate in the
 * thread pool as a stream, and each inflated piece is hashed as it arrives,
 * so neither the whole inflated artifact is held nor the loop is held for
 * more than one piece. Export it to pack an artifact outside this module
 * (stored-result.ts packStoredResult).
 */
export async function verifyPacked(a: UnverifiedArtifact): Promise<PackedArtifact> {
  if (a.encoding === 'raw') return checkReadBack(a, a.stored.byteLength, a.digest);
  const hash = createHash('sha256');
  let size = 0;
  try {
    await pipeline(Readable.from([asBuffer(a.stored)]), createInflateRaw({ chunkSize: READ_BACK_PIECE_BYTES }), async (pieces: AsyncIterable<Buffer>) => {
      for await (const piece of pieces) {
        hash.update(piece);
        size += piece.length;
      }
    });
  } catch (error) {
    throw notReadBack(a, (error as Error).message);
  }
  return checkReadBack(a, size, hash.digest('hex'));
}

/** Digests, compresses and reads back `bytes` in this thread. */
export function packArtifact(kind: ArtifactKind, bytes: Uint8Array): PackedArtifact {
  const compressed = COMPRESSED.has(kind);
  return verifyPackedSync({ kind, digest: sha256OfBytes(bytes), size: bytes.byteLength, encoding: compressed ? 'deflate' : 'raw', stored: compressed ? deflateRawSync(bytes) : asBuffer(bytes) });
}

const deflateRawInPool = promisify(deflateRaw);

/**
 * packArtifact with the compression and the read-back in libuv's thread
 * pool: deflating a large record or result takes seconds, which must not
 * hold up the app's main process (every IPC call waits on its event loop).
 */
export async function packArtifactAsync(kind: ArtifactKind, bytes: Uint8Array): Promise<PackedArtifact> {
  const digest = sha256OfBytes(bytes);
  if (!COMPRESSED.has(kind)) return verifyPacked({ kind, digest, size: bytes.byteLength, encoding: 'raw', stored: asBuffer(bytes) });
  return verifyPacked({ kind, digest, size: bytes.byteLength, encoding: 'deflate', stored: await deflateRawInPool(bytes) });
}

/**
 * Stores a packed artifact (read back when it was packed) and returns the
 * digest. Call inside the caller's transaction: the artifact and the rows
 * that name it commit together. A row already stored under the digest with
 * other bytes is replaced: these bytes were read back as the digest's
 * content, so the content stays the same and becomes readable if that row
 * was damaged (artifacts are shared by digest, and a damaged row must not
 * make every later identical artifact unreadable too).
 */
export function putPacked(archive: Archive, artifact: PackedArtifact): string {
  statement(
    archive,
    `INSERT INTO artifacts (digest, kind, encoding, size, bytes) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (digest) DO UPDATE SET encoding = excluded.encoding, size = excluded.size, bytes = excluded.bytes
     WHERE artifacts.bytes IS NOT excluded.bytes OR artifacts.encoding IS NOT excluded.encoding OR artifacts.size IS NOT excluded.size`,
  ).run(artifact.digest, artifact.kind, artifact.encoding, artifact.size, asBuffer(artifact.stored));
  return artifact.digest;
}

/** Stores bytes (packArtifact, then putPacked) inside the caller's transaction; returns the digest. */
export function putArtifact(archive: Archive, kind: ArtifactKind, bytes: Uint8Array): string {
  return putPacked(archive, packArtifact(kind, bytes));
}

export function putText(archive: Archive, kind: ArtifactKind, text: string): string {
  return putArtifact(archive, kind, utf8(text));
}

/** The uncompressed size of a stored artifact, without reading it. */
export function artifactSize(archive: Archive, digest: string): number {
  const row = statement<{ size: number }>(archive, 'SELECT size FROM artifacts WHERE digest = ?').get(digest);
  if (row === undefined) throw new ValidationError(`archive: artifact ${digest} is missing (the archive is damaged)`);
  return row.size;
}

export function hasArtifact(archive: Archive, digest: string): boolean {
  return statement(archive, 'SELECT 1 FROM artifacts WHERE digest = ?').get(digest) !== undefined;
}

/** Every artifact's digest, in digest order (archive check). */
export function artifactDigests(archive: Archive): string[] {
  return statement<{ digest: string }>(archive, 'SELECT digest FROM artifacts ORDER BY digest').all().map((r) => r.digest);
}

/** The kind an artifact was stored as, or undefined when it is missing. */
export function artifactKind(archive: Archive, digest: string): string | undefined {
  return statement<{ kind: string }>(archive, 'SELECT kind FROM artifacts WHERE digest = ?').get(digest)?.kind;
}

interface ArtifactRow {
  encoding: string;
  size: number;
  bytes: Buffer;
}

function artifactRow(archive: Archive, digest: string): ArtifactRow {
  const row = statement<ArtifactRow>(archive, 'SELECT encoding, size, bytes FROM artifacts WHERE digest = ?').get(digest);
  if (row === undefined) throw new ValidationError(`archive: artifact ${digest} is missing (the archive is damaged)`);
  return row;
}

function undecompressable(digest: string): ValidationError {
  return new ValidationError(`archive: artifact ${digest} cannot be decompressed (the archive is damaged)`);
}

function mismatch(digest: string): ValidationError {
  return new ValidationError(`archive: artifact ${digest} does not match its digest (the archive is damaged or was edited)`);
}

function checked(digest: string, row: ArtifactRow, bytes: Buffer): Buffer {
  if (bytes.byteLength !== row.size || sha256OfBytes(bytes) !== digest) throw mismatch(digest);
  return bytes;
}

/** The exact bytes of an artifact, after checking them against their digest. */
export function getArtifact(archive: Archive, digest: string): Buffer {
  const row = artifactRow(archive, digest);
  let bytes: Buffer;
  try {
    bytes = row.encoding === 'deflate' ? inflateRawSync(row.bytes) : row.bytes;
  } catch {
    throw undecompressable(digest);
  }
  return checked(digest, row, bytes);
}

const inflateRawInPool = promisify(inflateRaw);

/** getArtifact with the decompression in the thread pool (a large record takes tens of ms to inflate). */
export async function getArtifactAsync(archive: Archive, digest: string): Promise<Buffer> {
  const row = artifactRow(archive, digest);
  let bytes: Buffer;
  try {
    bytes = row.encoding === 'deflate' ? await inflateRawInPool(row.bytes) : row.bytes;
  } catch {
    throw undecompressable(digest);
  }
  return checked(digest, row, bytes);
}

/** A raw artifact is hashed in pieces of this many bytes, the event loop getting a turn between them. */
const RAW_PIECE_BYTES = 1 << 20;

/**
 * getArtifactAsync for a large artifact (an exported result): inflated in
 * the thread pool as a stream and hashed piece by piece, so the event loop
 * (a Ctrl+C handler) never waits for the whole of it; `onBytes` is told the
 * bytes read so far and the artifact's size. The same bytes and the same
 * errors as getArtifactAsync.
 */
export async function getArtifactInPieces(archive: Archive, digest: string, onBytes?: (done: number, total: number) => void): Promise<Buffer> {
  const row = artifactRow(archive, digest);
  const hash = createHash('sha256');
  const pieces: Buffer[] = [];
  let size = 0;
  const take = (piece: Buffer): void => {
    hash.update(piece);
    pieces.push(piece);
    size += piece.length;
    onBytes?.(size, row.size);
  };
  if (row.encoding === 'deflate') {
    try {
      await pipeline(Readable.from([row.bytes]), createInflateRaw({ chunkSize: READ_BACK_PIECE_BYTES }), async (inflated: AsyncIterable<Buffer>) => {
        for await (const piece of inflated) take(piece);
      });
    } catch {
      throw undecompressable(digest);
    }
  } else {
    for (let at = 0; at < row.bytes.length; at += RAW_PIECE_BYTES) {
      take(row.bytes.subarray(at, at + RAW_PIECE_BYTES));
      await nextTurn();
    }
  }
  if (size !== row.size || hash.digest('hex') !== digest) throw mismatch(digest);
  return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, size);
}

/**
 * Deflates bytes given as consecutive chunks (an array, or produced as they
 * are consumed) as one stream in the thread pool; the input is never
 * concatenated. Returns the compressed pieces and their total length.
 */
export async function deflateChunksInPool(chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<{ pieces: Buffer[]; bytes: number }> {
  const pieces: Buffer[] = [];
  let bytes = 0;
  // The collector is the pipeline's last stage, so the pipeline resolves only after the compressor's last piece reached it
  // (a 'data' listener beside the pipeline may still be owed the final pieces when it resolves: stored deflate streams were cut short).
  await pipeline(Readable.from(chunks), createDeflateRaw(), async (compressed: AsyncIterable<Buffer>) => {
    for await (const piece of compressed) {
      pieces.push(piece);
      bytes += piece.length;
    }
  });
  return { pieces, bytes };
}

/**
 * Packs an artifact given as consecutive chunks whose digest the caller
 * took as it made them (a result composed piece by piece): compressed as
 * one stream in the thread pool, never concatenated.
 */
export async function packChunksAsync(kind: ArtifactKind, chunks: readonly Uint8Array[], digest: string): Promise<PackedArtifact> {
  const size = chunks.reduce((n, c) => n + c.byteLength, 0);
  if (!COMPRESSED.has(kind)) {
    // The caller's digest of the chunks is checked here, as the read-back checks it for a compressed kind.
    const stored = Buffer.concat(chunks);
    return checkReadBack({ kind, digest, size, encoding: 'raw', stored }, stored.byteLength, sha256OfBytes(stored));
  }
  const { pieces } = await deflateChunksInPool(chunks);
  return verifyPacked({ kind, digest, size, encoding: 'deflate', stored: Buffer.concat(pieces) });
}

export function getText(archive: Archive, digest: string): string {
  return getArtifact(archive, digest).toString('utf8');
}
