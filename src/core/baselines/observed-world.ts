/**
 * What a baseline keeps between steps: the grid (built once from the first
 * observation's map), a neighbour table, the burning mask and the active
 * persons' cells, all in typed arrays that are reused every step. It reads
 * either an observation (the full burning set, compared with the mask) or,
 * on the runner's fast path, a MoveView (only the newly burning cells), so
 * that a step costs O(people + new fire) there, not O(fire).
 */

import { WeakCache } from '../weak-cache.js';
import type { MoveView } from '../sim/move-view.js';
import type { Observation } from '../sim/observation.js';
import { moveAllowed, moveTable } from '../sim/resolver.js';
import { gridFromMap, type Grid } from '../world/grid.js';

// Grids by frozen map: the simulation hands every episode of a scenario
// the same frozen map (simulation.ts), so the grid and the tables cached on
// it (neighbour and move tables, static fields) are built once, not once an
// episode. A map that is not frozen could change, and gets a grid of its own.
const GRIDS = new WeakCache(gridFromMap);

function gridOf(map: readonly string[]): Grid {
  return Object.isFrozen(map) ? GRIDS.get(map) : gridFromMap(map);
}

export class ObservedWorld {
  readonly grid: Grid;
  readonly size: number;
  /**
   * Bit `dir` (1..4) of `open[cell]` is set when the cell one step in move
   * direction `dir` is on the grid and not a wall; that cell is then
   * `cell + step[dir]` (the simulator's move table, a byte per cell: with
   * 10,000 people a neighbour table of four Int32 per cell missed the cache
   * on nearly every read).
   */
  private readonly open: Uint8Array;
  private readonly step: Int32Array;
  /** 1 for cells of the observed B(step), else 0. */
  readonly burning: Uint8Array;
  /** The observed burning cells, ascending once `burningList()` sorted them; `burningCount` are valid. */
  private burningCells: Int32Array;
  private burningSorted = true;
  burningCount = 0;
  /** Incremented whenever the observed burning set changes (starts at 0, first update makes it 1). */
  burningVersion = 0;
  /** Whether the last change only added cells (then `addedList()` holds them); false for the first observation. */
  grewOnly = false;
  private addedCells: Int32Array = new Int32Array(16);
  private addedCount = 0;
  /** Cells of the active persons, in person order; `personCount` are valid. */
  cells: Int32Array = new Int32Array(16);
  personCount = 0;
  /** The step of the last MoveView read (-1 before the first). */
  private viewStep = -1;

  constructor(map: readonly string[]) {
    const grid = gridOf(map);
    this.grid = grid;
    const { rows, cols } = grid;
    const size = rows * cols;
    this.size = size;
    this.burning = new Uint8Array(size);
    this.burningCells = new Int32Array(16);
    const { open, step } = moveTable(grid);
    this.open = open;
    this.step = step;
  }

  /**
   * Reads one observation: the persons' cells and the burning set. Returns
   * whether the burning set differs from the previous observation's (the
   * first observation always counts as a change), so that fields that depend
   * only on the fire are recomputed only when it changed.
   */
  update(observation: Observation): boolean {
    const cols = this.grid.cols;
    const people = observation.people;
    const n = people.length;
    if (this.cells.length < n) this.cells = new Int32Array(Math.max(n, this.cells.length * 2));
    for (let i = 0; i < n; i++) {
      const cell = people[i]!.cell;
      this.cells[i] = cell[0] * cols + cell[1];
    }
    this.personCount = n;

    const burning = observation.burning;
    const count = burning.length;
    const mask = this.burning;
    const first = this.burningVersion === 0;
    // The fire only grows, so the new set is the old cells plus the added
    // ones: one pass marks the added cells and counts the kept ones. (Agents
    // only see observations, so a set that shrank is still handled: below.)
    if (this.addedCells.length < count) this.addedCells = new Int32Array(Math.max(count, this.addedCells.length * 2));
    if (this.burningCells.length < count) this.burningCells = new Int32Array(Math.max(count, this.burningCells.length * 2));
    const added = this.addedCells;
    const cells = this.burningCells;
    let addedCount = 0;
    let kept = 0;
    for (let i = 0; i < count; i++) {
      const cell = burning[i]!;
      const c = cell[0] * cols + cell[1];
      if (mask[c] === 0) {
        added[addedCount++] = c;
        mask[c] = 2; // new this update
      } else kept++;
      cells[i] = c;
    }
    if (!first && addedCount === 0 && kept === this.burningCount) return false;
    if (!first && kept !== this.burningCount) {
      // Some old cell is gone: rebuild the mask from this observation alone.
      mask.fill(0);
      for (let i = 0; i < count; i++) mask[cells[i]!] = 1;
      this.grewOnly = false;
    } else {
      for (let i = 0; i < addedCount; i++) mask[added[i]!] = 1;
      this.grewOnly = !first;
    }
    this.burningCount = count;
    this.burningSorted = true;
    this.addedCount = addedCount;
    this.burningVersion++;
    return true;
  }

  /**
   * Reads one MoveView: the same state as `update(observation)` of the same
   * snapshot, with the same result, from the cells that started burning
   * since the previous view (views come one per step, from step 0).
   */
  updateFromView(view: MoveView): boolean {
    // A skipped view would lose its newly burning cells: refuse it rather than act on a stale fire.
    if (view.step !== this.viewStep + 1) throw new RangeError(`views must come one per step: got step ${view.step} after ${this.viewStep}`);
    this.viewStep = view.step;
    const n = view.count;
    if (this.cells.length < n) this.cells = new Int32Array(Math.max(n, this.cells.length * 2));
    this.cells.set(view.cells.subarray(0, n));
    this.personCount = n;

    const fresh = view.added;
    const count = fresh.length;
    const first = this.burningVersion === 0;
    if (!first && count === 0) return false;
    const total = this.burningCount + count;
    if (this.addedCells.length < count) this.addedCells = new Int32Array(Math.max(count, this.addedCells.length * 2));
    if (this.burningCells.length < total) this.burningCells = grown(this.burningCells, total, this.burningCount);
    const mask = this.burning;
    this.addedCells.set(fresh);
    this.burningCells.set(fresh, this.burningCount);
    for (let k = 0; k < count; k++) mask[fresh[k]!] = 1;
    // Each delta is ascending, so the list stays sorted only when it was empty before.
    this.burningSorted = this.burningCount === 0;
    this.burningCount = total;
    this.addedCount = count;
    this.grewOnly = !first;
    this.burningVersion++;
    return true;
  }

  /**
   * The cells that started burning since the previous observation (a view
   * valid until the next update). Only meaningful when `grewOnly`.
   */
  addedList(): Int32Array {
    return this.addedCells.subarray(0, this.addedCount);
  }

  /** The observed burning cells, ascending (a view valid until the next update). */
  burningList(): Int32Array {
    const list = this.burningCells.subarray(0, this.burningCount);
    if (!this.burningSorted) {
      list.sort();
      this.burningSorted = true;
    }
    return list;
  }

  /** The first direction (in the order N, E, S, W) of the moves `dirs` (bits 1..4) from `cell` whose target does not burn, or 0 (STAY). */
  firstUnburning(cell: number, dirs: number): number {
    if (dirs === 0) return 0;
    const { burning, step } = this;
    for (let dir = 1; dir <= 4; dir++) {
      if (((dirs >> dir) & 1) === 1 && burning[cell + step[dir]!] === 0) return dir;
    }
    return 0;
  }

  /** The cell a legal move in `dir` (1..4) from `cell` enters, or -1 when the move is illegal (off-grid, wall, burning). */
  legalTarget(cell: number, dir: number): number {
    if (!moveAllowed(this.open[cell]!, dir)) return -1;
    const n = cell + this.step[dir]!;
    return this.burning[n] === 0 ? n : -1;
  }
}

/** A larger copy of `array` keeping its first `used` entries. */
function grown(array: Int32Array, needed: number, used: number): Int32Array {
  const out = new Int32Array(Math.max(needed, array.length * 2));
  out.set(array.subarray(0, used));
  return out;
}
