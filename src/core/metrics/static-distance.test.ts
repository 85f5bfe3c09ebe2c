import { describe, expect, it } from 'vitest';
import { gridFromMap } from '../world/grid.js';
import { UNREACHABLE, staticExitDistance } from './static-distance.js';

describe('wall-only distance to the nearest exit', () => {
  it('follows open cells around walls and takes the nearest exit', () => {
    const map = [
      '#E#####', //
      '#.#...E',
      '#.#.#.#',
      '#...#.#',
      '#######',
    ];
    const grid = gridFromMap(map);
    const d = staticExitDistance(grid);
    const row = (r: number) => Array.from(d.slice(r * 7, r * 7 + 7));
    const W = UNREACHABLE;
    expect(row(0)).toEqual([W, 0, W, W, W, W, W]);
    expect(row(1)).toEqual([W, 1, W, 3, 2, 1, 0]);
    // (2,3): up to (1,3) then right to the east exit = 4; through the west exit it would be 6.
    expect(row(2)).toEqual([W, 2, W, 4, W, 2, W]);
    expect(row(3)).toEqual([W, 3, 4, 5, W, 3, W]);
    expect(row(4).every((x) => x === W)).toBe(true);
  });

  it('marks open cells cut off from every exit as UNREACHABLE', () => {
    const grid = gridFromMap(['#E#', '#.#', '###', '#.#', '###']);
    const d = staticExitDistance(grid);
    expect(d[1 * 3 + 1]).toBe(1);
    expect(d[3 * 3 + 1]).toBe(UNREACHABLE);
  });
});
