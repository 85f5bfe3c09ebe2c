/**
 * A fire-aware distance field to a set of exits, with its route danger,
 * kept current as the fire grows without recomputing the whole grid.
 *
 * The fire only grows, so distances only increase, and only behind the
 * cells that started burning. `update` repairs the field in three passes
 * over the changed region (a decremental breadth-first search):
 *  1. invalidate every cell that lost all its shortest-path predecessors,
 *     level by level outward from the new fire;
 *  2. re-settle those cells from their intact neighbours, in order of
 *     distance (a two-queue merge: sorted seeds and a FIFO);
 *  3. recompute the route danger (routeDanger's recurrence) of every cell
 *     whose distance, predecessors or penalty changed, and of the cells
 *     downstream of any danger that changed.
 * The result equals a fresh exitSearch + routeDanger (a property test checks
 * it), at a cost proportional to the changed region.
 */

import { FLOOR, type Grid } from '../world/grid.js';
import { UNREACHABLE, exitSearch, neighbourTable, paddedNeighbourTable, routeDanger } from './distance-fields.js';
import { LevelWalk } from './level-walk.js';

export class ExitField {
  readonly dist: Int32Array;
  readonly danger: Int32Array;
  private readonly table: Int32Array;
  private readonly size: number;
  private readonly order: Int32Array;
  /**
   * Seeds (level, cell), in insertion order; `orderSeeds` lists them by
   * level. Each pass reads only cells one level nearer, so the order within
   * a level does not change any result, and a counting sort by level (the
   * levels span at most the grid) replaces the sort of packed keys that
   * dominated profiles.
   */
  private seedLevel = new Int32Array(64);
  private seedCell = new Int32Array(64);
  private seedCount = 0;
  private sortedLevel = new Int32Array(64);
  private sortedCell = new Int32Array(64);
  private readonly levelCounts: Int32Array;
  private fifo = new Int32Array(64);
  private fifoValue = new Int32Array(64);
  /** Pass 1's checked and invalidated cells (each cell at most once), and how many were checked. */
  private readonly affected: Int32Array;
  private readonly touched: Int32Array;
  private touchedCount = 0;
  /** Passes 1 and 3 walk the changed region level by level. */
  private readonly walk: LevelWalk;
  /**
   * `dist` and `danger` with one more cell, `size`, that is never a
   * predecessor or successor (UNREACHABLE in both), and the neighbour table
   * with off-grid neighbours pointing at it: passes 1 and 3 read
   * neighbours without testing for the edge of the grid.
   */
  private readonly distPadded: Int32Array;
  private readonly dangerPadded: Int32Array;
  private readonly padded: Int32Array;

  /**
   * A field over `sources`. Without `withDanger` the route danger is not
   * kept (`danger` stays UNREACHABLE), for callers that need distances only.
   */
  constructor(
    private readonly grid: Grid,
    private readonly sources: ArrayLike<number>,
    readonly withDanger = true,
  ) {
    this.size = grid.rows * grid.cols;
    this.distPadded = new Int32Array(this.size + 1).fill(UNREACHABLE);
    this.dangerPadded = new Int32Array(this.size + 1).fill(UNREACHABLE);
    this.dist = this.distPadded.subarray(0, this.size);
    this.danger = this.dangerPadded.subarray(0, this.size);
    this.table = neighbourTable(grid);
    this.padded = paddedNeighbourTable(grid);
    this.order = new Int32Array(this.size);
    this.walk = new LevelWalk(this.size);
    this.touched = new Int32Array(this.size);
    this.affected = new Int32Array(this.size);
    this.levelCounts = new Int32Array(this.size + 2);
  }

  /** Recomputes the whole field. */
  rebuild(burning: Uint8Array, penalty: Int32Array): void {
    const reached = exitSearch(this.grid, this.sources, burning, this.dist, this.order);
    if (this.withDanger) routeDanger(this.grid, this.dist, this.order, reached, penalty, this.danger);
  }

  /**
   * Repairs the field after `added` cells started burning (already set in
   * `burning`) and the `penalty` of the cells `repenalized` changed. The
   * field must be current for the fire before.
   */
  update(added: ArrayLike<number>, repenalized: ArrayLike<number>, burning: Uint8Array, penalty: Int32Array): void {
    // Neighbours through the padded table (see `padded`): no test for the edge of the grid.
    const { dist, danger } = this;
    const table = this.padded;
    const near = this.distPadded;

    // Pass 1: invalidate. Seeds are the successors of the newly burning cells.
    this.seedCount = 0;
    for (let i = 0; i < added.length; i++) {
      const b = added[i]!;
      const d = dist[b]!;
      if (d === UNREACHABLE) continue;
      dist[b] = UNREACHABLE;
      danger[b] = UNREACHABLE;
      for (let k = b * 4, end = k + 4; k < end; k++) {
        const n = table[k]!;
        if (near[n] === d + 1) this.pushSeed(d + 1, n);
      }
    }
    let touched = 0;
    if (this.seedCount > 0) {
      const affected = this.invalidate();
      touched = this.touchedCount;
      // Pass 2: re-settle the invalidated cells from their intact neighbours.
      this.seedCount = 0;
      for (let i = 0; i < affected; i++) {
        const c = this.affected[i]!;
        let best = UNREACHABLE;
        for (let k = c * 4, end = k + 4; k < end; k++) {
          const n = table[k]!;
          if (near[n]! < best) best = near[n]!;
        }
        if (best !== UNREACHABLE) this.pushSeed(best + 1, c);
      }
      this.settle(burning);
    }

    // Pass 3: route danger, in order of distance.
    if (!this.withDanger) return;
    this.seedCount = 0;
    for (let i = 0; i < touched; i++) {
      const c = this.touched[i]!;
      if (dist[c] !== UNREACHABLE) this.pushSeed(dist[c]!, c);
    }
    for (let i = 0; i < repenalized.length; i++) {
      const c = repenalized[i]!;
      if (dist[c] !== UNREACHABLE) this.pushSeed(dist[c]!, c);
    }
    this.spreadDanger(penalty);
  }

  /**
   * Pass 1 after the seeds: checks cells level by level outward from the
   * new fire (each cell once: its predecessors, one level nearer, are all
   * settled by then) and invalidates every one left without a predecessor,
   * queueing its successors for the next level. Lists the checked cells in
   * `touched` (they may have lost a predecessor: pass 3 revisits them) and
   * the invalidated ones in `affected`; returns how many were invalidated.
   */
  private invalidate(): number {
    const { dist, danger, touched, affected, walk } = this;
    const table = this.padded;
    const near = this.distPadded;
    let touchedCount = 0;
    let affectedCount = 0;
    this.startWalk();
    while (walk.advance()) {
      const { cells, count, level } = walk;
      const up = level - 1;
      const down = level + 1;
      for (let i = 0; i < count; i++) {
        const c = cells[i]!;
        // A seed that burns (a newly burning cell beside another) is no longer at this level.
        if (dist[c] !== level) continue;
        touched[touchedCount++] = c;
        const k = c * 4;
        const n0 = table[k]!;
        const n1 = table[k + 1]!;
        const n2 = table[k + 2]!;
        const n3 = table[k + 3]!;
        if (near[n0] === up || near[n1] === up || near[n2] === up || near[n3] === up) continue;
        // Invalidated: its danger becomes UNREACHABLE too, so pass 3 always passes its new value on.
        dist[c] = UNREACHABLE;
        danger[c] = UNREACHABLE;
        affected[affectedCount++] = c;
        if (near[n0] === down) walk.queue(n0);
        if (near[n1] === down) walk.queue(n1);
        if (near[n2] === down) walk.queue(n2);
        if (near[n3] === down) walk.queue(n3);
      }
    }
    this.touchedCount = touchedCount;
    return affectedCount;
  }

  /** Pass 2: Dial-style settling of the seeded cells (lazy deletion: stale entries are skipped). */
  private settle(burning: Uint8Array): void {
    const { dist, table } = this;
    const kinds = this.grid.kinds;
    const seeds = this.orderSeeds();
    const { sortedLevel, sortedCell } = this;
    let s = 0;
    let head = 0;
    let tail = 0;
    for (;;) {
      let c: number;
      let v: number;
      if (s < seeds && (head === tail || sortedLevel[s]! <= this.fifoValue[head]!)) {
        v = sortedLevel[s]!;
        c = sortedCell[s++]!;
      } else if (head < tail) {
        v = this.fifoValue[head]!;
        c = this.fifo[head++]!;
      } else break;
      if (dist[c]! <= v) continue;
      dist[c] = v;
      for (let k = c * 4, end = k + 4; k < end; k++) {
        const n = table[k]!;
        if (n >= 0 && kinds[n] === FLOOR && burning[n] === 0 && dist[n]! > v + 1) tail = this.pushFifo(tail, n, v + 1);
      }
    }
  }

  /**
   * Pass 3: recompute danger from the seeds in order of distance, passing
   * every change downstream, one distance level at a time: a cell's value
   * reads only cells one level nearer, final by then. A level's cells are
   * its seeds plus the successors queued while the level before was
   * processed (two flat arrays, swapped per level); each cell is queued at
   * most once. The padded table and arrays spare the off-grid test (see
   * `padded`).
   */
  private spreadDanger(penalty: Int32Array): void {
    const walk = this.walk;
    const dist = this.distPadded;
    const danger = this.dangerPadded;
    const table = this.padded;
    this.startWalk();
    while (walk.advance()) {
      const { cells, count, level } = walk;
      const up = level - 1;
      const down = level + 1;
      for (let i = 0; i < count; i++) {
        const c = cells[i]!;
        const k = c * 4;
        const n0 = table[k]!;
        const n1 = table[k + 1]!;
        const n2 = table[k + 2]!;
        const n3 = table[k + 3]!;
        // Read once: the JIT cannot tell that the danger writes below leave dist alone.
        const d0 = dist[n0]!;
        const d1 = dist[n1]!;
        const d2 = dist[n2]!;
        const d3 = dist[n3]!;
        let value = 0;
        if (level > 0) {
          let best = UNREACHABLE;
          if (d0 === up && danger[n0]! < best) best = danger[n0]!;
          if (d1 === up && danger[n1]! < best) best = danger[n1]!;
          if (d2 === up && danger[n2]! < best) best = danger[n2]!;
          if (d3 === up && danger[n3]! < best) best = danger[n3]!;
          value = best + penalty[c]!;
        }
        if (value === danger[c]) continue;
        danger[c] = value;
        if (d0 === down) walk.queue(n0);
        if (d1 === down) walk.queue(n1);
        if (d2 === down) walk.queue(n2);
        if (d3 === down) walk.queue(n3);
      }
    }
  }

  /** Starts `walk` from the seeds, ordered by level. */
  private startWalk(): void {
    const seeds = this.orderSeeds(); // first: it may replace the sorted arrays
    this.walk.start(this.sortedLevel, this.sortedCell, seeds);
  }

  private pushSeed(level: number, cell: number): void {
    if (this.seedCount === this.seedLevel.length) {
      this.seedLevel = ensure(this.seedLevel, this.seedCount + 1);
      this.seedCell = ensure(this.seedCell, this.seedCount + 1);
    }
    this.seedLevel[this.seedCount] = level;
    this.seedCell[this.seedCount++] = cell;
  }

  /** Lists the seeds by level into `sortedLevel` / `sortedCell` (a stable counting sort); returns their number. */
  private orderSeeds(): number {
    const n = this.seedCount;
    const { seedLevel, seedCell, levelCounts } = this;
    if (this.sortedLevel.length < n) {
      this.sortedLevel = new Int32Array(this.seedLevel.length);
      this.sortedCell = new Int32Array(this.seedLevel.length);
    }
    const { sortedLevel, sortedCell } = this;
    let lo = UNREACHABLE;
    let hi = -1;
    for (let i = 0; i < n; i++) {
      const level = seedLevel[i]!;
      if (level < lo) lo = level;
      if (level > hi) hi = level;
    }
    if (n === 0) return 0;
    // Levels are distances on the grid, so hi - lo + 1 <= cells and the counts fit.
    const range = hi - lo + 1;
    levelCounts.fill(0, 0, range + 1);
    for (let i = 0; i < n; i++) levelCounts[seedLevel[i]! - lo + 1]!++;
    for (let b = 1; b <= range; b++) levelCounts[b]! += levelCounts[b - 1]!;
    for (let i = 0; i < n; i++) {
      const at = levelCounts[seedLevel[i]! - lo]!++;
      sortedLevel[at] = seedLevel[i]!;
      sortedCell[at] = seedCell[i]!;
    }
    return n;
  }

  private pushFifo(tail: number, cell: number, value: number): number {
    if (tail === this.fifo.length) {
      this.fifo = ensure(this.fifo, tail + 1);
      this.fifoValue = ensure(this.fifoValue, tail + 1);
    }
    this.fifo[tail] = cell;
    this.fifoValue[tail] = value;
    return tail + 1;
  }
}

function ensure(array: Int32Array<ArrayBuffer>, length: number): Int32Array<ArrayBuffer> {
  if (array.length >= length) return array;
  const grown = new Int32Array(Math.max(length, array.length * 2));
  grown.set(array);
  return grown;
}
