/**
 * The fire frontier (flammable cells outside B(t) with a burning neighbour)
 * kept in ascending cell order, the order in which the spread draws. Sorting
 * the whole frontier every step cost more than the draws; instead the cells
 * that join in a step (few: neighbours of the newly burning) are sorted
 * alone and merged in, and the cells that caught fire are filtered out.
 */

import { WALL } from './grid.js';
import { NEVER } from './scenario-types.js';

// Up to this many entries an insertion sort beats a typed-array sort (whose
// call overhead dominates short lists); beyond, its quadratic cost shows
// (measured: 100 random entries, 2.5 us inserting, 0.5 us typed).
const SMALL = 16;

export class Frontier {
  /** The members, ascending; `count` are valid. */
  cells: Int32Array;
  count = 0;
  private spare: Int32Array;
  private readonly joining: Int32Array;
  private joiningCount = 0;
  private readonly member: Uint8Array;

  constructor(
    private readonly kinds: Uint8Array,
    private readonly ignitionStep: Int32Array,
  ) {
    const size = kinds.length;
    this.cells = new Int32Array(size);
    this.spare = new Int32Array(size);
    this.joining = new Int32Array(size);
    this.member = new Uint8Array(size);
  }

  /** Queues `cell` to join unless it is a member, burning or a wall (takes effect at `settle`). */
  offer(cell: number): void {
    if (this.member[cell] !== 0 || this.ignitionStep[cell] !== NEVER || this.kinds[cell] === WALL) return;
    this.member[cell] = 1;
    this.joining[this.joiningCount++] = cell;
  }

  /** Offers the four neighbours of `cell` on a grid `cols` wide. */
  offerNeighbours(cell: number, cols: number): void {
    const col = cell % cols;
    if (cell >= cols) this.offer(cell - cols);
    if (col + 1 < cols) this.offer(cell + 1);
    if (cell + cols < this.kinds.length) this.offer(cell + cols);
    if (col > 0) this.offer(cell - 1);
  }

  /** Drops the members that now burn and merges the queued cells in, keeping ascending order. */
  settle(): void {
    const { cells, member, ignitionStep, joining, spare } = this;
    let kept = 0;
    for (let f = 0; f < this.count; f++) {
      const cell = cells[f]!;
      if (ignitionStep[cell] === NEVER) cells[kept++] = cell;
      else member[cell] = 0;
    }
    const m = this.joiningCount;
    if (m === 0) {
      this.count = kept;
      return;
    }
    sortAscending(joining, m);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < kept && j < m) spare[k++] = cells[i]! < joining[j]! ? cells[i++]! : joining[j++]!;
    while (i < kept) spare[k++] = cells[i++]!;
    while (j < m) spare[k++] = joining[j++]!;
    this.spare = cells;
    this.cells = spare;
    this.count = k;
    this.joiningCount = 0;
  }
}

/** Sorts the first `n` entries of `list` ascending. */
export function sortAscending(list: Int32Array, n: number): void {
  if (n > SMALL) {
    list.subarray(0, n).sort();
    return;
  }
  for (let a = 1; a < n; a++) {
    const v = list[a]!;
    let b = a - 1;
    while (b >= 0 && list[b]! > v) {
      list[b + 1] = list[b]!;
      b--;
    }
    list[b + 1] = v;
  }
}
