import { describe, expect, it } from 'vitest';
import { LevelWalk } from './level-walk.js';

/** Every level the walk visits with its cells (sorted), queueing `next(level, cell)` from each cell. */
function visits(walk: LevelWalk, next: (level: number, cell: number) => number[]): [number, number[]][] {
  const out: [number, number[]][] = [];
  while (walk.advance()) {
    const cells = Array.from(walk.cells.subarray(0, walk.count));
    out.push([walk.level, [...cells].sort((a, b) => a - b)]);
    for (const cell of cells) for (const n of next(walk.level, cell)) walk.queue(n);
  }
  return out;
}

describe('LevelWalk', () => {
  it('takes the seeds at their levels, queued cells one level later, each cell once, and skips empty levels', () => {
    const walk = new LevelWalk(20);
    walk.start(Int32Array.of(2, 2, 2, 7), Int32Array.of(4, 5, 4, 9), 4);
    // From level 2, cells 4 and 5 both queue 6 (once), and 5 queues 4 again (already walked: not again).
    const next = (level: number, cell: number) => (level === 2 ? [6, cell === 5 ? 4 : 6] : []);
    expect(visits(walk, next)).toEqual([
      [2, [4, 5]],
      [3, [6]],
      [7, [9]],
    ]);
  });

  it('merges a seed with the same cell queued from the level before', () => {
    const walk = new LevelWalk(10);
    walk.start(Int32Array.of(0, 1, 1), Int32Array.of(1, 2, 3), 3);
    expect(visits(walk, (level) => (level === 0 ? [2, 8] : []))).toEqual([
      [0, [1]],
      [1, [2, 3, 8]],
    ]);
  });

  it('walks nothing without seeds, and starts afresh each time', () => {
    const walk = new LevelWalk(10);
    walk.start(new Int32Array(0), new Int32Array(0), 0);
    expect(walk.advance()).toBe(false);
    walk.start(Int32Array.of(3), Int32Array.of(1), 1);
    expect(visits(walk, () => [])).toEqual([[3, [1]]]);
    // A cell queued in an earlier walk may be queued again in the next.
    walk.start(Int32Array.of(3), Int32Array.of(1), 1);
    expect(visits(walk, () => [])).toEqual([[3, [1]]]);
  });
});
