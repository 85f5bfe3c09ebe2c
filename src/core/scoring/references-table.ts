/**
 * L(x, t) in bounded memory: per cell, the runs of its remaining time
 * R(x, t) = L(x, t) - t instead of a dense (H + 1) x cells table.
 *
 * Why runs are exact and small (references.ts proves the two facts):
 * - an escape from (x, t+1) shifted one step earlier escapes from (x, t), so
 *   the finite L(x, .) are a prefix t = 0..D(x)-1 of the snapshots, and
 * - R(x, t) never falls as t grows.
 * So L(x, .) is D(x) plus a nondecreasing step function, stored as the
 * snapshots where R changes and the value it takes there. R only changes
 * when the fire closes the best route in time, a few times per cell on the
 * worlds we see (about 2 per cell on a 256 x 256 hall: ~1 MB instead of the
 * 2.6 GB of the dense table at H = 10,000).
 */

/** Sentinel of L, m* and D* when there is no escape (larger than any step). */
export const NO_ESCAPE = 0x7fffffff;

/** Read access to L(x, t); `at` does no range check (earliestFrom does). */
export class EarliestTable {
  constructor(
    readonly cellCount: number,
    readonly maxSteps: number,
    /** D(x): L(x, t) is finite exactly for t < D(x) (0: never). */
    private readonly death: Int32Array,
    /** Cell x's runs are at [offsets[x], offsets[x + 1]); the first starts at t = 0. */
    private readonly offsets: Int32Array,
    private readonly starts: Int32Array,
    private readonly remaining: Int32Array,
  ) {}

  /** L(cell, t), or NO_ESCAPE. */
  at(cell: number, t: number): number {
    if (t >= this.death[cell]!) return NO_ESCAPE;
    const starts = this.starts;
    let lo = this.offsets[cell]!;
    let hi = this.offsets[cell + 1]! - 1;
    // The last run starting at or before t (starts[lo] = 0 <= t).
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= t) lo = mid;
      else hi = mid - 1;
    }
    return t + this.remaining[lo]!;
  }

  /** The number of stored runs (for the memory figures). */
  get runCount(): number {
    return this.starts.length;
  }

  /** Bytes of the typed arrays held. */
  get byteLength(): number {
    return this.death.byteLength + this.offsets.byteLength + this.starts.byteLength + this.remaining.byteLength;
  }
}

/**
 * Collects runs during the backward pass, where each cell's runs arrive
 * from its last to its first (t descending), interleaved between cells;
 * build() sorts them per cell into ascending order.
 */
export class EarliestTableBuilder {
  private cells = new Int32Array(1024);
  private starts = new Int32Array(1024);
  private values = new Int32Array(1024);
  private count = 0;
  readonly death: Int32Array;

  constructor(
    private readonly cellCount: number,
    private readonly maxSteps: number,
  ) {
    this.death = new Int32Array(cellCount);
  }

  /** Cell x has remaining time `value` from snapshot `start` up to its next run (or D(x)). */
  push(cell: number, start: number, value: number): void {
    if (this.count === this.cells.length) this.grow();
    this.cells[this.count] = cell;
    this.starts[this.count] = start;
    this.values[this.count] = value;
    this.count++;
  }

  private grow(): void {
    const size = this.cells.length * 2;
    const widen = (a: Int32Array) => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    this.cells = widen(this.cells);
    this.starts = widen(this.starts);
    this.values = widen(this.values);
  }

  build(): EarliestTable {
    const n = this.cellCount;
    const offsets = new Int32Array(n + 1);
    for (let i = 0; i < this.count; i++) offsets[this.cells[i]! + 1]!++;
    for (let x = 0; x < n; x++) offsets[x + 1]! += offsets[x]!;
    // Fill each cell's slice from its end: the log holds its runs in descending start order.
    const cursor = offsets.slice(1);
    const starts = new Int32Array(this.count);
    const remaining = new Int32Array(this.count);
    for (let i = 0; i < this.count; i++) {
      const at = --cursor[this.cells[i]!]!;
      starts[at] = this.starts[i]!;
      remaining[at] = this.values[i]!;
    }
    return new EarliestTable(n, this.maxSteps, this.death, offsets, starts, remaining);
  }
}
