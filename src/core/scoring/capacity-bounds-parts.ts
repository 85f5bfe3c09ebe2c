/**
 * Small data structures of capacity-bounds.ts: the slot capacities of a set
 * of cells per step, a union-find over cells, and a binary min-heap.
 */

/**
 * Capacity per step s = 1..H of a set of cells, where a cell counts in step
 * s while its ignition step is > s - 1 + offset: `offset` 0 for exits (not
 * burning at the start of the step), 1 for cut cells (burning neither at
 * the start nor at the end). Capacities never grow, as the fire never
 * shrinks.
 */
export class SlotCapacity {
  private readonly steps: Int32Array;
  private gone = 0;
  private lastStep = 0;

  constructor(
    ignitionSteps: readonly number[],
    private readonly offset: number,
  ) {
    this.steps = Int32Array.from(ignitionSteps).sort();
  }

  /** Capacity of step s; calls must come with nondecreasing s. */
  at(s: number): number {
    if (s < this.lastStep) throw new RangeError('slot capacities are read in step order');
    this.lastStep = s;
    const steps = this.steps;
    while (this.gone < steps.length && steps[this.gone]! <= s - 1 + this.offset) this.gone++;
    return steps.length - this.gone;
  }
}

/** Disjoint sets of cells (path compression; the smaller index is the root). */
export class UnionFind {
  private readonly parent: Int32Array;
  constructor(size: number) {
    this.parent = Int32Array.from({ length: size }, (_, i) => i);
  }
  find(x: number): number {
    const parent = this.parent;
    let root = x;
    while (parent[root] !== root) root = parent[root]!;
    while (parent[x] !== root) {
      const up = parent[x]!;
      parent[x] = root;
      x = up;
    }
    return root;
  }
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
}

/** A binary min-heap of integers. */
export class MinHeap {
  private readonly items: number[] = [];

  get size(): number {
    return this.items.length;
  }

  push(value: number): void {
    const items = this.items;
    let i = items.length;
    items.push(value);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent]! <= value) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = value;
  }

  pop(): number {
    const items = this.items;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= items.length) break;
        const right = left + 1;
        const child = right < items.length && items[right]! < items[left]! ? right : left;
        if (items[child]! >= last) break;
        items[i] = items[child]!;
        i = child;
      }
      items[i] = last;
    }
    return top;
  }
}
