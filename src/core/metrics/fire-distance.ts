/**
 * Manhattan distance from every cell to the nearest burning cell, kept up to
 * date as the fire grows (environment.md section 1: danger-zone distances
 * ignore walls).
 *
 * Why a BFS and not a formula: on a full rectangle of cells, the 4-neighbour
 * BFS distance equals the Manhattan distance, and a BFS lets the field be
 * updated incrementally. The burning set only grows (B(t) ⊆ B(t+1)), so every
 * distance only falls: adding cells runs a BFS from the newly burning cells
 * that stops wherever it does not improve the stored distance. That is exact:
 * if a cell v does not improve, no cell whose shortest path from the new
 * cells runs through v can improve through it either (old(w) <= old(v) +
 * |v - w| <= new(v) + |v - w|). Each call costs at most O(cells), usually
 * far less (only the cells that got closer to the fire).
 */

import type { Grid } from '../world/grid.js';

/** Distance of every cell while nothing burns (no burning cell to be near). */
export const NO_FIRE = 0x7fffffff;

/**
 * Danger-zone radius (scoring-v1.0.md section 3): a person-state is in the
 * danger zone when its fire distance d satisfies 0 < d <= HAZARD_RADIUS. The
 * metrics (fire_exposure) and the privileged references (D*) share it.
 */
export const HAZARD_RADIUS = 2;

/** Whether a person-state at fire distance `d` (NO_FIRE when nothing burns) is in the danger zone. */
export function inDangerZone(d: number): boolean {
  return d > 0 && d <= HAZARD_RADIUS;
}

export class FireDistanceField {
  /** Per cell, the Manhattan distance to the nearest burning cell, or NO_FIRE. */
  readonly distance: Int32Array;
  private readonly rows: number;
  private readonly cols: number;
  // Scratch BFS queue, reused between calls: each cell enters it at most once per call.
  private readonly queue: Int32Array;
  private burningCount = 0;

  constructor(grid: Grid) {
    this.rows = grid.rows;
    this.cols = grid.cols;
    const size = grid.rows * grid.cols;
    this.distance = new Int32Array(size).fill(NO_FIRE);
    this.queue = new Int32Array(size);
  }

  /** Whether any cell burns. */
  get hasFire(): boolean {
    return this.burningCount > 0;
  }

  /** Distance of `cell` to the nearest burning cell, or NO_FIRE. */
  at(cell: number): number {
    return this.distance[cell]!;
  }

  /**
   * Adds newly burning cells (cells already burning are ignored, so passing
   * B(t) again is harmless). Cells must be in the grid.
   */
  addBurning(cells: readonly number[]): void {
    const { distance: dist, queue, cols } = this;
    const size = this.rows * cols;
    let tail = 0;
    for (const c of cells) {
      if (!Number.isInteger(c) || c < 0 || c >= size) throw new RangeError(`burning cell ${c} is outside the grid`);
      if (dist[c] === 0) continue;
      dist[c] = 0;
      this.burningCount++;
      queue[tail++] = c;
    }
    // Multi-source BFS from distance 0: cells leave the queue in distance order,
    // so the first improvement of a cell in this call is its final value.
    let head = 0;
    while (head < tail) {
      const cur = queue[head++]!;
      const next = dist[cur]! + 1;
      const col = cur % cols;
      if (cur >= cols && dist[cur - cols]! > next) {
        dist[cur - cols] = next;
        queue[tail++] = cur - cols;
      }
      if (cur + cols < size && dist[cur + cols]! > next) {
        dist[cur + cols] = next;
        queue[tail++] = cur + cols;
      }
      if (col + 1 < cols && dist[cur + 1]! > next) {
        dist[cur + 1] = next;
        queue[tail++] = cur + 1;
      }
      if (col > 0 && dist[cur - 1]! > next) {
        dist[cur - 1] = next;
        queue[tail++] = cur - 1;
      }
    }
  }
}
