import { describe, expect, it } from 'vitest';
import { EAST, NORTH, SOUTH, STAY, WALL, WEST, gridFromMap, neighbour, type Direction } from '../world/grid.js';
import { BLOCKED_CONFLICT, BLOCKED_CYCLE, BLOCKED_OCCUPIED, MovementResolver, NOT_BLOCKED, moveAllowed, moveTable, resolveMoves } from './resolver.js';

// A 5x6 open room; exits on the top wall at (0,2).
const ROOM = gridFromMap(['##E###', '#....#', '#....#', '#....#', '######']);
const at = (r: number, c: number) => r * ROOM.cols + c;

function resolve(people: [number, number, Direction][]) {
  return resolveMoves(
    ROOM,
    people.map(([r, c]) => at(r, c)),
    people.map(([, , d]) => d),
  );
}

describe('movement resolver', () => {
  it('moves a lone mover and keeps STAY persons in place', () => {
    const res = resolve([
      [2, 2, NORTH],
      [3, 3, STAY],
    ]);
    expect(Array.from(res.cells)).toEqual([at(1, 2), at(3, 3)]);
    expect(Array.from(res.blocked)).toEqual([NOT_BLOCKED, NOT_BLOCKED]);
  });

  it('gives a contested cell to the earliest person in person order (conflict)', () => {
    const res = resolve([
      [2, 1, EAST],
      [2, 3, WEST],
      [1, 2, SOUTH],
    ]);
    expect(Array.from(res.cells)).toEqual([at(2, 2), at(2, 3), at(1, 2)]);
    expect(Array.from(res.blocked)).toEqual([NOT_BLOCKED, BLOCKED_CONFLICT, BLOCKED_CONFLICT]);
    expect(res.contested).toEqual([at(2, 2)]);
  });

  it('lets a chain of movers follow each other', () => {
    // p0 -> (1,2) is vacated by p1 -> (1,3) vacated by p2 -> (1,4)
    const res = resolve([
      [1, 1, EAST],
      [1, 2, EAST],
      [1, 3, EAST],
    ]);
    expect(Array.from(res.cells)).toEqual([at(1, 2), at(1, 3), at(1, 4)]);
    expect(Array.from(res.blocked)).toEqual([0, 0, 0]);
  });

  it('blocks a whole chain that ends at a stationary person (occupied)', () => {
    const res = resolve([
      [1, 1, EAST],
      [1, 2, EAST],
      [1, 3, STAY],
    ]);
    expect(Array.from(res.cells)).toEqual([at(1, 1), at(1, 2), at(1, 3)]);
    expect(Array.from(res.blocked)).toEqual([BLOCKED_OCCUPIED, BLOCKED_OCCUPIED, NOT_BLOCKED]);
  });

  it('blocks a chain that ends at a conflict loser (occupied)', () => {
    // p0 wins (2,2); p1 loses the conflict and stays at (2,3); p2 follows p1.
    const res = resolve([
      [2, 1, EAST],
      [2, 3, WEST],
      [2, 4, WEST],
    ]);
    expect(Array.from(res.blocked)).toEqual([NOT_BLOCKED, BLOCKED_CONFLICT, BLOCKED_OCCUPIED]);
    expect(Array.from(res.cells)).toEqual([at(2, 2), at(2, 3), at(2, 4)]);
  });

  it('blocks a swap as a cycle of two', () => {
    const res = resolve([
      [2, 2, EAST],
      [2, 3, WEST],
    ]);
    expect(Array.from(res.blocked)).toEqual([BLOCKED_CYCLE, BLOCKED_CYCLE]);
    expect(Array.from(res.cells)).toEqual([at(2, 2), at(2, 3)]);
    expect(res.contested).toEqual([]);
  });

  it('blocks a 4-cycle and a 3-person rotation the same way', () => {
    // Four persons rotating around a 2x2 block form one cycle.
    const res = resolve([
      [1, 1, EAST],
      [1, 2, SOUTH],
      [2, 2, WEST],
      [2, 1, NORTH],
    ]);
    expect(Array.from(res.blocked)).toEqual([BLOCKED_CYCLE, BLOCKED_CYCLE, BLOCKED_CYCLE, BLOCKED_CYCLE]);
  });

  it('resolves a chain into a cycle: conflict comes first, so the tail breaks the cycle', () => {
    // p1 (1,2) S and p3 (2,2) N would swap, and p0 (1,1) E is chained into p1's cell.
    // p0 and p3 both target (1,2): p0 is earlier and wins the conflict, p3 becomes stationary,
    // so the cycle is broken and p1's chain ends at p3 (occupied), and p0's chain at p1 (occupied).
    const res = resolve([
      [1, 1, EAST],
      [1, 2, SOUTH],
      [3, 3, STAY],
      [2, 2, NORTH],
    ]);
    expect(Array.from(res.blocked)).toEqual([BLOCKED_OCCUPIED, BLOCKED_OCCUPIED, NOT_BLOCKED, BLOCKED_CONFLICT]);
    expect(res.contested).toEqual([at(1, 2)]);
  });

  it('keeps a cycle blocked when its member wins the conflict against the tail', () => {
    // p0 (1,1) E and p1 (1,2) W swap; p2 (2,1) N also targets p0's cell (1,1).
    // p1 is earlier than p2 and keeps (1,1): the swap stands and is a cycle; p2 lost by conflict.
    const res = resolve([
      [1, 1, EAST],
      [1, 2, WEST],
      [2, 1, NORTH],
    ]);
    expect(Array.from(res.blocked)).toEqual([BLOCKED_CYCLE, BLOCKED_CYCLE, BLOCKED_CONFLICT]);
  });

  it('lets at most one person leave through an exit per step', () => {
    const room = gridFromMap(['#E#', '...', '###']);
    const res = resolveMoves(room, [3, 4, 5], [EAST, NORTH, WEST]);
    // p0 (1,0) E -> (1,1) is p1's cell; p1 moves N onto the exit and leaves; p2 (1,2) W -> (1,1) conflicts with p0.
    expect(Array.from(res.evacuated)).toEqual([0, 1, 0]);
    expect(Array.from(res.blocked)).toEqual([NOT_BLOCKED, NOT_BLOCKED, BLOCKED_CONFLICT]);
    expect(Array.from(res.cells)).toEqual([4, 1, 5]);
    const both = resolveMoves(gridFromMap(['.E.']), [0, 2], [EAST, WEST]);
    expect(Array.from(both.evacuated)).toEqual([1, 0]);
    expect(Array.from(both.blocked)).toEqual([NOT_BLOCKED, BLOCKED_CONFLICT]);
  });

  it('refuses a move into a wall or off the grid, and leaves no state behind', () => {
    const resolver = new MovementResolver(ROOM);
    expect(() => resolver.resolve([at(1, 2), at(1, 1)], [NORTH, WEST])).toThrow(RangeError);
    expect(() => resolveMoves(gridFromMap(['..']), [0], [WEST])).toThrow(RangeError);
    // The scratch state is clean afterwards: (1,2) is free again and nobody holds a claim.
    const res = resolver.resolve([at(2, 2), at(1, 3)], [NORTH, WEST]);
    expect(Array.from(res.cells)).toEqual([at(1, 2), at(1, 3)]);
    expect(Array.from(res.blocked)).toEqual([NOT_BLOCKED, BLOCKED_CONFLICT]);
  });

  it('the move table allows exactly the moves the neighbour table gives onto a non-wall cell, at the same cell', () => {
    // Walls on the border and inside, exits on three sides, a map that is not square.
    const grid = gridFromMap(['#E######', '#..#...E', 'E.##.#.#', '#......#', '####E###']);
    const { open, step } = moveTable(grid);
    let allowed = 0;
    for (let cell = 0; cell < grid.rows * grid.cols; cell++) {
      for (let dir = 0; dir <= 40; dir++) {
        const to = dir >= NORTH && dir <= WEST ? neighbour(grid, cell, dir as Direction) : -1;
        const expected = to >= 0 && grid.kinds[to] !== WALL;
        expect(moveAllowed(open[cell]!, dir), `cell ${cell} dir ${dir}`).toBe(expected);
        if (expected) {
          expect(cell + step[dir]!).toBe(to);
          allowed++;
        }
      }
    }
    expect(allowed).toBeGreaterThan(20);
  });
});
