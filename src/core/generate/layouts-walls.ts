/**
 * Partitioned layouts: rooms and corridors whose one-cell doors make people
 * queue, and bays that are dead ends.
 */

import { Canvas, between, type Cell, type Rect } from './canvas.js';
import type { Layout, LayoutInput } from './layout.js';
import type { Xoshiro128ss } from '../world/rng.js';

/**
 * Splits interior columns 1..cols-2 into rooms 3 to 6 cells wide separated
 * by one-cell walls over rows ra..rb; the last room takes what is left (at
 * least 3 columns). Returns the rooms' column spans.
 */
function partition(rng: Xoshiro128ss, cv: Canvas, ra: number, rb: number): [number, number][] {
  const rooms: [number, number][] = [];
  let c = 1;
  for (;;) {
    const width = between(rng, 3, 6);
    if (c + width - 1 >= cv.cols - 5) {
      rooms.push([c, cv.cols - 2]);
      return rooms;
    }
    rooms.push([c, c + width - 1]);
    cv.fill([ra, c + width, rb, c + width], '#');
    c += width + 1;
  }
}

function middle(a: number, b: number): number {
  return Math.floor((a + b) / 2);
}

/** A wing that reaches the lobby and its two exits only through a one-cell corridor; the fire is drawn along the wing's back wall. */
export function narrowCorridor(rng: Xoshiro128ss, { rows, cols }: LayoutInput): Layout {
  const cv = new Canvas(rows, cols);
  const widest = Math.max(4, Math.min(Math.floor(((cols - 2) * 45) / 100), cols - 10));
  const wing = between(rng, Math.min(widest, Math.max(4, Math.floor(((cols - 2) * 3) / 10))), widest);
  const longest = cols - 2 - wing - 3;
  const length = between(rng, Math.max(3, Math.floor(longest / 2)), longest);
  cv.fill([1, wing + 1, rows - 2, wing + length], '#');
  const corridorRow = between(rng, 1, rows - 2);
  cv.fill([corridorRow, wing + 1, corridorRow, wing + length], '.');
  const lobby = wing + length + 1;
  if (rng.uniform(2) === 0) {
    cv.exit(0, between(rng, lobby, cols - 2));
    cv.exit(rows - 1, between(rng, lobby, cols - 2));
  } else {
    const [a, b] = rng.choose(
      Array.from({ length: rows - 2 }, (_, i) => i + 1),
      2,
    );
    cv.exit(a!, cols - 1);
    cv.exit(b!, cols - 1);
  }
  const backWall = Array.from({ length: rows - 2 }, (_, i): Cell => [i + 1, 1]);
  return { map: cv.map(), zones: [[1, 2, rows - 2, wing]], ignitions: [], candidates: { cells: backWall, count: 1 } };
}

/** Rooms above and below a hallway, each with a one-cell door; an exit at each end of the hallway; a fire drawn in one of up to four rooms. */
export function multiRoomOffice(rng: Xoshiro128ss, { rows, cols }: LayoutInput): Layout {
  const cv = new Canvas(rows, cols);
  const top = Math.floor((rows - 1) / 2);
  const bottom = rows >= 15 && rng.uniform(2) === 0 ? top + 1 : top;
  cv.fill([top - 1, 1, top - 1, cols - 2], '#');
  cv.fill([bottom + 1, 1, bottom + 1, cols - 2], '#');
  const rooms: Rect[] = [];
  for (const [ra, rb, doorRow] of [
    [1, top - 2, top - 1],
    [bottom + 2, rows - 2, bottom + 1],
  ] as const) {
    for (const [c0, c1] of partition(rng, cv, ra, rb)) {
      rooms.push([ra, c0, rb, c1]);
      cv.set(doorRow, between(rng, c0, c1), '.');
    }
  }
  cv.exit(between(rng, top, bottom), 0);
  cv.exit(between(rng, top, bottom), cols - 1);
  const burning = rng.choose(rooms, Math.min(4, rooms.length));
  const cells = burning.map(([r0, c0, r1, c1]): Cell => [middle(r0, r1), middle(c0, c1)]);
  return { map: cv.map(), zones: rooms, ignitions: [], candidates: { cells, count: 1 } };
}

/**
 * Bays open only to a corridor along the north wall, exits at its two ends:
 * the Manhattan-nearest direction from a bay runs into its partition. A fire
 * burns at the back of one bay from the start; another may start in two others.
 */
export function deadEndRooms(rng: Xoshiro128ss, { rows, cols }: LayoutInput): Layout {
  const cv = new Canvas(rows, cols);
  const bays: Rect[] = partition(rng, cv, 3, rows - 2).map(([c0, c1]): Rect => [3, c0, rows - 2, c1]);
  cv.exit(between(rng, 1, 2), 0);
  cv.exit(between(rng, 1, 2), cols - 1);
  const order = rng.choose(bays, bays.length);
  const [first, ...others] = order;
  const burning: Cell = [rows - 2, between(rng, first![1], first![3])];
  const drawn = others.slice(0, 2).map(([, c0, , c1]): Cell => [rows - 2, middle(c0, c1)]);
  return {
    map: cv.map(),
    zones: bays,
    ignitions: [{ cell: burning, step: 0 }],
    candidates: drawn.length > 0 ? { cells: drawn, count: 1 } : null,
  };
}
