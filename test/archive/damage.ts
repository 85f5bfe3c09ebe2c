// A stored result damaged the way the pool's streaming deflate once stored
// every result over about 600 KB (issue 18): its deflate stream cut short.
import { openArchiveFile } from '../../src/node/archive/db.js';

/** zlib's output pieces (its default chunkSize): the old deflateChunksInPool returned before the last of them arrived. */
const ZLIB_PIECE_BYTES = 16 * 1024;

/**
 * Cuts a trial's stored result as the old bug did: its deflate stream ends
 * at a piece boundary before the compressor's last piece. Returns the
 * result's digest and the stored lengths before and after.
 */
export function cutStoredResult(archivePath: string, trialId: number): { digest: string; before: number; after: number } {
  const { db, close } = openArchiveFile(archivePath, { mode: 'write' });
  try {
    const { digest } = db.prepare('SELECT result_digest AS digest FROM trials WHERE trial_id = ?').get(trialId) as { digest: string };
    const { before } = db.prepare('SELECT length(bytes) AS before FROM artifacts WHERE digest = ?').get(digest) as { before: number };
    const after = Math.floor((before - 1) / ZLIB_PIECE_BYTES) * ZLIB_PIECE_BYTES;
    db.prepare('UPDATE artifacts SET bytes = substr(bytes, 1, ?) WHERE digest = ?').run(after, digest);
    return { digest, before, after };
  } finally {
    close();
  }
}
