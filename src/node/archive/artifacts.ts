/**
 * The content-addressed store: every artifact is kept as its exact bytes
 * under the SHA-256 of those bytes. Run records (the bulk of a result) are
 * deflated; the digest is of the uncompressed bytes and is checked on every
 * read, so a bit flipped on disk or a row edited by hand is a
 * ValidationError, never a silently different export.
 */

import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ValidationError } from '../../core/errors.js';
import { stmt, type Db } from './db.js';

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
  | 'generation-record';

/** Kinds stored deflated: large, repetitive JSON. */
const COMPRESSED: ReadonlySet<ArtifactKind> = new Set<ArtifactKind>(['record', 'result']);

export function sha256OfBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function utf8(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}

/**
 * Stores bytes (a no-op when the digest is already stored) and returns the
 * digest. Call inside the caller's transaction: the artifact and the rows
 * that name it commit together.
 */
export function putArtifact(db: Db, kind: ArtifactKind, bytes: Uint8Array): string {
  const digest = sha256OfBytes(bytes);
  const compressed = COMPRESSED.has(kind);
  stmt(db, 'INSERT OR IGNORE INTO artifacts (digest, kind, encoding, size, bytes) VALUES (?, ?, ?, ?, ?)').run(
    digest,
    kind,
    compressed ? 'deflate' : 'raw',
    bytes.byteLength,
    compressed ? deflateRawSync(bytes) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
  );
  return digest;
}

export function putText(db: Db, kind: ArtifactKind, text: string): string {
  return putArtifact(db, kind, utf8(text));
}

export function hasArtifact(db: Db, digest: string): boolean {
  return stmt(db, 'SELECT 1 FROM artifacts WHERE digest = ?').get(digest) !== undefined;
}

/** The exact bytes of an artifact, after checking them against their digest. */
export function getArtifact(db: Db, digest: string): Buffer {
  const row = stmt(db, 'SELECT encoding, size, bytes FROM artifacts WHERE digest = ?').get(digest) as
    | { encoding: string; size: number; bytes: Buffer }
    | undefined;
  if (row === undefined) throw new ValidationError(`archive: artifact ${digest} is missing (the archive is damaged)`);
  let bytes: Buffer;
  try {
    bytes = row.encoding === 'deflate' ? inflateRawSync(row.bytes) : row.bytes;
  } catch {
    throw new ValidationError(`archive: artifact ${digest} cannot be decompressed (the archive is damaged)`);
  }
  if (bytes.byteLength !== row.size || sha256OfBytes(bytes) !== digest) {
    throw new ValidationError(`archive: artifact ${digest} does not match its digest (the archive is damaged or was edited)`);
  }
  return bytes;
}

export function getText(db: Db, digest: string): string {
  return getArtifact(db, digest).toString('utf8');
}
