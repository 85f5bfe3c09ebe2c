/**
 * The connection cap of `--max-connections N`: a counting semaphore in a
 * SharedArrayBuffer, so that the main thread and every `--jobs` worker
 * thread of one evaluation share one budget of model calls in flight.
 * Waiting is asynchronous (Atomics.waitAsync): a waiting call never blocks
 * its thread, so many episodes wait on the network in one thread.
 */

/// <reference lib="es2024.sharedmemory" />

// Atomics.waitAsync is in Node 20 (V8) but not in the ES2023 lib this project compiles against: its type comes from the ES2024 lib referenced above.
const waitAsync = Atomics.waitAsync;

/** A new shared budget of `n` slots (pass the buffer to worker threads as is). */
export function createSlots(n: number): SharedArrayBuffer {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`bad connection count ${n}`);
  const buffer = new SharedArrayBuffer(4);
  Atomics.store(new Int32Array(buffer), 0, n);
  return buffer;
}

export class ConnectionSlots {
  private readonly cell: Int32Array;

  constructor(buffer: SharedArrayBuffer) {
    this.cell = new Int32Array(buffer);
  }

  /** Slots free right now. */
  get available(): number {
    return Atomics.load(this.cell, 0);
  }

  /** Takes a slot, waiting (asynchronously) until one is free. */
  async acquire(): Promise<void> {
    for (;;) {
      const free = Atomics.load(this.cell, 0);
      if (free > 0) {
        if (Atomics.compareExchange(this.cell, 0, free, free - 1) === free) return;
        continue;
      }
      const wait = waitAsync(this.cell, 0, free);
      if (wait.async) await wait.value;
    }
  }

  release(): void {
    Atomics.add(this.cell, 0, 1);
    Atomics.notify(this.cell, 0, 1);
  }
}
