/**
 * A walk over cells level by level (distance from a field's sources), from
 * seeds at any levels: the cells of a level are its seeds plus the cells
 * queued while the level before it was processed, each cell at most once in
 * a walk. Passes 1 and 3 of ExitField.update use it: both read only cells
 * one level nearer, which are final by the time a level is processed, so the
 * order within a level does not matter and two flat arrays, swapped per
 * level, replace a priority queue.
 *
 *   walk.start(levels, cells, n);
 *   while (walk.advance()) for (let i = 0; i < walk.count; i++) { ... walk.queue(successor) ... }
 */
export class LevelWalk {
  /** The cells of the current level: `cells[0 .. count)`. */
  cells: Int32Array;
  count = 0;
  level = 0;
  private next: Int32Array;
  private queuedNext = 0;
  /** A cell is queued in this walk when its stamp is `mark`. */
  private readonly queued: Int32Array;
  private mark = 0;
  private seedLevel: Int32Array = new Int32Array(0);
  private seedCell: Int32Array = new Int32Array(0);
  private seeds = 0;
  private taken = 0;
  private started = false;

  /** For cells 0 .. size - 1; `size` itself (a padding cell) may be queued harmlessly. */
  constructor(size: number) {
    this.cells = new Int32Array(size + 1);
    this.next = new Int32Array(size + 1);
    this.queued = new Int32Array(size + 1);
  }

  /** Starts a walk from `seeds` seeds (`seedLevel` ascending, duplicates allowed). */
  start(seedLevel: Int32Array, seedCell: Int32Array, seeds: number): void {
    this.seedLevel = seedLevel;
    this.seedCell = seedCell;
    this.seeds = seeds;
    this.taken = 0;
    this.count = 0;
    this.queuedNext = 0;
    this.level = seeds > 0 ? seedLevel[0]! : 0;
    this.started = false;
    this.mark++;
  }

  /** Moves to the next level that has cells (the first call: the lowest seed level); false when none is left. */
  advance(): boolean {
    if (this.started) {
      const done = this.cells;
      this.cells = this.next;
      this.next = done;
      this.count = this.queuedNext;
      this.queuedNext = 0;
      this.level++;
    }
    this.started = true;
    const { seedLevel, seedCell, seeds } = this;
    for (;;) {
      for (; this.taken < seeds && seedLevel[this.taken] === this.level; this.taken++) this.queueHere(seedCell[this.taken]!);
      if (this.count > 0) return true;
      if (this.taken === seeds) return false;
      this.level = seedLevel[this.taken]!;
    }
  }

  /** Queues a cell of the next level, unless it was queued before in this walk. */
  queue(cell: number): void {
    if (this.queued[cell] === this.mark) return;
    this.queued[cell] = this.mark;
    this.next[this.queuedNext++] = cell;
  }

  private queueHere(cell: number): void {
    if (this.queued[cell] === this.mark) return;
    this.queued[cell] = this.mark;
    this.cells[this.count++] = cell;
  }
}
