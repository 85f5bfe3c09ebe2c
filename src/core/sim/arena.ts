/**
 * Per-step typed arrays carved from shared chunks. Every typed array with
 * its own ArrayBuffer is a separate backing store that the garbage
 * collector tracks and frees; a step made several (moves, cells, the
 * resolver's results), and they showed in profiles as garbage collection.
 * Carved views share a chunk; a chunk is freed once no view of it is left.
 *
 * By default the views are never reused: a step event may be kept as long
 * as wanted. A driver that hands its events to nobody who keeps them (the
 * runner and the replay check when every observer declares
 * `readsOnlyDuringStep`, events.ts) turns on recycling: then
 * the steps use two chunks in turn, and a step's arrays are overwritten by
 * the step after next. With 10,000 people a step's arrays are about 200 KiB, and
 * writing them into fresh memory every step (zeroed, not in the cache, then
 * collected) cost a quarter of the resolver's time besides the collection.
 *
 * A new chunk holds several requests of the size that asked for it: with
 * 10,000 people a step's arrays are 10-40 KiB each, and a fixed 64 KiB
 * chunk meant a fresh (zeroed, collected) buffer for nearly every array.
 */

const MIN_CHUNK_BYTES = 1 << 16;
const REQUESTS_PER_CHUNK = 16;

type View = Int32Array | Uint8Array;

export class Arena {
  private buffer = new ArrayBuffer(0);
  /** The whole chunk as bytes (for zeroing it when it is recycled). */
  private bytes = new Uint8Array(this.buffer);
  private used = 0;
  /** With recycling: the other step's chunk and how much of it that step used. */
  private spare: ArrayBuffer | null = null;
  private spareBytes = new Uint8Array(0);
  private spareUsed = 0;
  // With recycling, the views handed out from each chunk, in request order.
  // A step that asks for the same arrays as the step before last (a long
  // episode whose few people stay) gets the same view objects back, its
  // memory zeroed, instead of new ones: creating a typed array costs more
  // than a few people's whole step.
  private views: View[] = [];
  private spareViews: View[] = [];
  private viewCount = 0;

  /** `bytes` fresh, zeroed bytes at a 4-byte-aligned offset. */
  private take(bytes: number): number {
    const size = (bytes + 3) & ~3;
    if (this.used + size > this.buffer.byteLength) {
      // Recycling grows its chunk to hold a whole step; otherwise a chunk holds a few requests.
      const grown = this.spare === null ? 0 : 2 * this.buffer.byteLength + size;
      this.buffer = new ArrayBuffer(Math.max(MIN_CHUNK_BYTES, size * REQUESTS_PER_CHUNK, grown));
      if (this.spare !== null) this.bytes = new Uint8Array(this.buffer);
      this.used = 0;
      // The old chunk's views are of another buffer: none can be handed out again.
      this.views = [];
      this.viewCount = 0;
    }
    const offset = this.used;
    this.used += size;
    return offset;
  }

  int32(length: number): Int32Array {
    const offset = this.take(length * 4); // may start a new chunk: read this.buffer after
    if (this.spare === null) return new Int32Array(this.buffer, offset, length);
    const k = this.viewCount++;
    const kept = this.views[k];
    if (kept instanceof Int32Array && kept.byteOffset === offset && kept.length === length) return kept;
    const view = new Int32Array(this.buffer, offset, length);
    this.views[k] = view;
    return view;
  }

  uint8(length: number): Uint8Array {
    const offset = this.take(length);
    if (this.spare === null) return new Uint8Array(this.buffer, offset, length);
    const k = this.viewCount++;
    const kept = this.views[k];
    if (kept instanceof Uint8Array && kept.byteOffset === offset && kept.length === length) return kept;
    const view = new Uint8Array(this.buffer, offset, length);
    this.views[k] = view;
    return view;
  }

  /**
   * Turns on recycling: from now on `stepDone` lets the next step take the
   * chunk of the step before the one just done. Only for a driver that
   * calls `stepDone` once per step, after everything that reads the step's
   * event has run, and hands the events to nobody who keeps them.
   */
  recycle(): void {
    if (this.spare !== null) return;
    this.spare = new ArrayBuffer(0);
    this.bytes = new Uint8Array(this.buffer);
  }

  /**
   * The driver is done with a step's event. With recycling, the next step's
   * arrays go to the chunk of the step before this one, zeroed again: this
   * step's arrays (among them the next step's active list) stay valid until
   * the next step is done. Without recycling nothing happens.
   */
  stepDone(): void {
    const spare = this.spare;
    if (spare === null) return;
    const spareBytes = this.spareBytes;
    spareBytes.fill(0, 0, this.spareUsed);
    this.spare = this.buffer;
    this.spareBytes = this.bytes;
    this.spareUsed = this.used;
    this.buffer = spare;
    this.bytes = spareBytes;
    this.used = 0;
    const views = this.spareViews;
    this.spareViews = this.views;
    this.views = views;
    this.viewCount = 0;
  }
}
