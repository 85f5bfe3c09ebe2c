// Every packing path stores what every read path gives back, byte for byte,
// at sizes from 0 bytes to 50 MiB: the pool's streaming deflate once stored
// results over about 600 KB cut short, which a test of small inputs missed.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deflateChunksInPool, getArtifact, getArtifactAsync, packArtifact, packArtifactAsync, packChunksAsync, putPacked, verifyPacked, type PackedArtifact } from './artifacts.js';
import { Archive } from './archive.js';
import { rawDatabase } from '../../../test/kits/archive-kit.js';

type Content = 'record' | 'noise' | 'mixed';

/** About 1 MiB of record-like JSON, from which record content is cut (writing 50 MiB record by record would take seconds). */
const RECORDS = ((): Buffer => {
  let text = '';
  for (let t = 0; text.length < 1024 * 1024; t++) text += `{"actions":[${t % 5},${(t * 7) % 5}],"t":${t},"pos":[${(t * 13) % 64},${(t * 29) % 64}]},`;
  return Buffer.from(text, 'latin1');
})();

/**
 * Deterministic bytes of `size` from `seed`, in 4 KiB blocks: record-like
 * JSON (slices of RECORDS at seeded offsets; compresses ~5x), noise (does
 * not compress), or a seeded mix of both.
 */
export function contentOf(size: number, seed: number, content: Content): Buffer {
  const out = Buffer.alloc(size);
  let x = seed | 1;
  const next = (): number => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
  for (let at = 0; at < size; ) {
    const end = Math.min(size, at + 4096);
    if (content === 'noise' || (content === 'mixed' && next() % 3 === 0)) {
      for (; at + 4 <= end; at += 4) out.writeUInt32LE(next(), at);
      for (; at < end; at++) out[at] = next() & 0xff;
    } else {
      const from = next() % (RECORDS.length - 4096);
      at += RECORDS.copy(out, at, from, from + (end - at));
    }
  }
  return out;
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** `bytes` cut at the given fractions of its length (sorted), into consecutive chunks. */
function cut(bytes: Buffer, fractions: readonly number[]): Buffer[] {
  const points = [...fractions.map((f) => Math.floor(f * bytes.length)), bytes.length].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const p of points) {
    chunks.push(bytes.subarray(from, p));
    from = p;
  }
  return chunks;
}

async function* streamed(chunks: readonly Buffer[]): AsyncGenerator<Buffer> {
  for (const c of chunks) {
    await new Promise((resolve) => setImmediate(resolve));
    yield c;
  }
}

let dir: string;
let archive: Archive;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ember-roundtrip-'));
  archive = Archive.open(join(dir, 'roundtrip.sqlite'), { mode: 'write' });
});
afterAll(() => {
  archive.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Packs `bytes` by every path, stores each in its own transaction and reads it back by every read path. */
async function roundTrip(bytes: Buffer, fractions: readonly number[]): Promise<void> {
  const db = rawDatabase(archive);
  const digest = sha256(bytes);
  const chunks = cut(bytes, fractions);
  const streamedPack = async (): Promise<PackedArtifact> => {
    const { pieces, bytes: stored } = await deflateChunksInPool(streamed(chunks));
    expect(stored).toBe(pieces.reduce((n, p) => n + p.length, 0));
    return verifyPacked({ kind: 'result', digest, size: bytes.length, encoding: 'deflate', stored: Buffer.concat(pieces) });
  };
  const paths: readonly [string, () => PackedArtifact | Promise<PackedArtifact>][] = [
    ['sync', () => packArtifact('result', bytes)],
    ['pool', () => packArtifactAsync('record', bytes)],
    ['chunked', () => packChunksAsync('result', chunks, digest)],
    ['streamed', streamedPack],
  ];
  for (const [path, pack] of paths) {
    const packed = await pack();
    expect({ path, digest: packed.digest, size: packed.size, encoding: packed.encoding }).toEqual({ path, digest, size: bytes.length, encoding: 'deflate' });
    // Stored fresh each time: the row of the path before is dropped, so this path's bytes are the ones read.
    db.prepare('DELETE FROM artifacts WHERE digest = ?').run(digest);
    db.transaction(() => putPacked(archive, packed))();
    expect(getArtifact(archive, digest).equals(bytes), `${path}, read in this thread`).toBe(true);
    expect((await getArtifactAsync(archive, digest)).equals(bytes), `${path}, read in the pool`).toBe(true);
  }
}

const MIB = 1024 * 1024;

describe('artifact round trip', () => {
  it('at the sizes the cut streams were seen at (0.6, 2 and 9.5 MB) and at 0 bytes', async () => {
    for (const [size, content] of [
      [0, 'record'],
      [600_000, 'record'],
      [2_000_000, 'mixed'],
      [9_500_000, 'record'],
    ] as const) {
      await roundTrip(contentOf(size, size + 1, content), [0.25, 0.5]);
    }
  });

  it('at random sizes up to 3 MiB, cut into random chunks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 3 * MIB }),
        fc.integer(),
        fc.constantFrom<Content>('record', 'noise', 'mixed'),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
        async (size, seed, content, fractions) => roundTrip(contentOf(size, seed, content), fractions),
      ),
      { numRuns: 16, seed: 18 },
    );
  });

  it('at 50 MiB of record-like text and 6 MiB of noise', async () => {
    await roundTrip(contentOf(50 * MIB, 7, 'record'), [0.1, 0.5, 0.9]);
    await roundTrip(contentOf(6 * MIB, 8, 'noise'), [0.3]);
  });

  it('refuses to make a packed artifact of stored bytes that do not read back', async () => {
    const bytes = contentOf(700_000, 3, 'record');
    const whole = packArtifact('result', bytes);
    const base = { kind: 'result' as const, digest: whole.digest, size: whole.size, encoding: 'deflate' as const };
    // Exactly what the old bug stored: the deflate stream without its last pieces.
    const cutShort = { ...base, stored: whole.stored.subarray(0, whole.stored.byteLength - 20_000) };
    await expect(verifyPacked(cutShort)).rejects.toThrow(/does not read back as written \(unexpected end of file\); nothing was stored/);
    const other = packArtifact('result', contentOf(700_000, 4, 'record'));
    await expect(verifyPacked({ ...base, stored: other.stored })).rejects.toThrow(/read back as [0-9a-f]{64}\); nothing was stored/);
    await expect(packChunksAsync('result', [bytes], '0'.repeat(64))).rejects.toThrow(/does not read back as written/);
  });

  it('replaces a damaged row when the same artifact is stored again', async () => {
    const db = rawDatabase(archive);
    const packed = packArtifact('result', contentOf(800_000, 5, 'record'));
    db.transaction(() => putPacked(archive, packed))();
    db.prepare('UPDATE artifacts SET bytes = substr(bytes, 1, 1000) WHERE digest = ?').run(packed.digest);
    expect(() => getArtifact(archive, packed.digest)).toThrow(/cannot be decompressed/);
    db.transaction(() => putPacked(archive, packed))();
    expect(sha256(getArtifact(archive, packed.digest))).toBe(packed.digest);
  });
});
