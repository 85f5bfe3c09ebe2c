// Packing artifacts off the event loop stores what packing in the thread
// stores: the same digest, size and bytes back, and the same refusal of a
// damaged artifact on either read path.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getArtifact, getArtifactAsync, getArtifactInPieces, packArtifact, packArtifactAsync, packChunksAsync, putPacked, utf8 } from './artifacts.js';
import { Archive } from './archive.js';
import { rawDatabase } from '../../../test/kits/archive-kit.js';

const dir = mkdtempSync(join(tmpdir(), 'ember-artifacts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Repetitive JSON-like text of about `kib` KiB, like a run record. */
function recordLike(kib: number): Buffer {
  const step = '{"actions":[0,1,2,3,4],"t":';
  let text = '';
  for (let t = 0; text.length < kib * 1024; t++) text += `${step}${t}},`;
  return utf8(text);
}

describe('artifacts', () => {
  it('packs in the thread pool what it packs in this thread, and reads it back either way', async () => {
    const archive = Archive.open(join(dir, 'pack.sqlite'), { mode: 'write' });
    const db = rawDatabase(archive);
    const close = (): void => archive.close();
    try {
      const bytes = recordLike(512);
      const inThread = packArtifact('record', bytes);
      const inPool = await packArtifactAsync('record', bytes);
      expect({ ...inPool, stored: undefined }).toEqual({ ...inThread, stored: undefined });
      expect(inPool.encoding).toBe('deflate');
      expect(inPool.stored.byteLength).toBeLessThan(bytes.byteLength / 4);
      const raw = await packArtifactAsync('manifest', utf8('manifest\n'));
      expect(raw).toMatchObject({ encoding: 'raw', size: 9 });

      const chunks = [bytes.subarray(0, 1000), bytes.subarray(1000, 300_000), bytes.subarray(300_000)];
      const digest = createHash('sha256').update(bytes).digest('hex');
      const streamed = await packChunksAsync('result', chunks, digest);
      expect(streamed).toMatchObject({ kind: 'result', digest, size: bytes.byteLength, encoding: 'deflate' });

      db.transaction(() => [inPool, raw, streamed].forEach((p) => putPacked(archive, p)))();
      expect(getArtifact(archive, inPool.digest).equals(bytes)).toBe(true);
      expect((await getArtifactAsync(archive, streamed.digest)).equals(bytes)).toBe(true);
      expect((await getArtifactAsync(archive, raw.digest)).toString('utf8')).toBe('manifest\n');
      // In pieces (an export): the same bytes, the progress rising to the size.
      const seen: number[] = [];
      expect((await getArtifactInPieces(archive, streamed.digest, (done, total) => seen.push(done, total))).equals(bytes)).toBe(true);
      expect(seen.length).toBeGreaterThan(4);
      expect(seen.slice(-2)).toEqual([bytes.byteLength, bytes.byteLength]);
      expect((await getArtifactInPieces(archive, raw.digest)).toString('utf8')).toBe('manifest\n');
    } finally {
      close();
    }
  });

  it('refuses a damaged or missing artifact on both read paths', async () => {
    const archive = Archive.open(join(dir, 'damaged.sqlite'), { mode: 'write' });
    const db = rawDatabase(archive);
    const close = (): void => archive.close();
    try {
      const packed = packArtifact('record', recordLike(64));
      putPacked(archive, packed);
      // Another record's compressed bytes under this digest: it inflates, but not to these bytes.
      db.prepare('UPDATE artifacts SET bytes = ? WHERE digest = ?').run(packArtifact('record', recordLike(65)).stored, packed.digest);
      expect(() => getArtifact(archive, packed.digest)).toThrow(/does not match its digest/);
      await expect(getArtifactAsync(archive, packed.digest)).rejects.toThrow(/does not match its digest/);
      await expect(getArtifactInPieces(archive, packed.digest)).rejects.toThrow(/does not match its digest/);
      db.prepare('UPDATE artifacts SET bytes = ? WHERE digest = ?').run(Buffer.from('not deflate'), packed.digest);
      await expect(getArtifactAsync(archive, packed.digest)).rejects.toThrow(/cannot be decompressed/);
      await expect(getArtifactInPieces(archive, packed.digest)).rejects.toThrow(/cannot be decompressed/);
      await expect(getArtifactAsync(archive, '0'.repeat(64))).rejects.toThrow(/is missing/);
      await expect(getArtifactInPieces(archive, '0'.repeat(64))).rejects.toThrow(/is missing/);
      // A raw artifact edited in place: read in pieces, still refused.
      const manifest = packArtifact('manifest', utf8('manifest\n'));
      putPacked(archive, manifest);
      db.prepare('UPDATE artifacts SET bytes = ? WHERE digest = ?').run(utf8('manifesT\n'), manifest.digest);
      await expect(getArtifactInPieces(archive, manifest.digest)).rejects.toThrow(/does not match its digest/);
    } finally {
      close();
    }
  });
});
