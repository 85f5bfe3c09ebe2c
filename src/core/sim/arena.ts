/**
 * Per-step typed arrays carved from shared chunks. Every typed array with
 * its own ArrayBuffer is a separate backing store that the garbage
 * collector tracks and frees; a step made several (moves, cells, the
 * resolver's results), and they showed in profiles as garbage collection.
 * Carved views share a chunk; a chunk is freed once no view of it is left.
 * The views are never reused: a step event may be kept as long as wanted.
 *
 * A new chunk holds several requests of the size that asked for it: with
 * 10,000 people a step's arrays are 10-40 KiB each, and a fixed 64 KiB
 * chunk meant a fresh (zeroed, collected) buffer for nearly every array.
 */

const MIN_CHUNK_BYTES = 1 << 16;
const REQUESTS_PER_CHUNK = 16;

export class Arena {
  private buffer = new ArrayBuffer(0);
  private used = 0;

  /** `bytes` fresh, zeroed bytes at a 4-byte-aligned offset. */
  private take(bytes: number): number {
    const size = (bytes + 3) & ~3;
    if (this.used + size > this.buffer.byteLength) {
      this.buffer = new ArrayBuffer(Math.max(MIN_CHUNK_BYTES, size * REQUESTS_PER_CHUNK));
      this.used = 0;
    }
    const offset = this.used;
    this.used += size;
    return offset;
  }

  int32(length: number): Int32Array {
    const offset = this.take(length * 4); // may start a new chunk: read this.buffer after
    return new Int32Array(this.buffer, offset, length);
  }

  uint8(length: number): Uint8Array {
    const offset = this.take(length);
    return new Uint8Array(this.buffer, offset, length);
  }
}
