/**
 * Open-floor layouts: one room (or hall) with exits in its walls, different
 * in where the exits are, how many people stand where, and where and when
 * the fire starts. Each is drawn in one orientation; the generator mirrors
 * it at random afterwards.
 */

import { Canvas, between, clamp, pick, rectCells, wallCell, type Cell, type Rect, type Side } from './canvas.js';
import type { Layout, LayoutInput } from './layout.js';
import type { Xoshiro128ss } from '../world/rng.js';

const SIDES: readonly Side[] = ['north', 'south', 'west', 'east'];

function opposite(side: Side): Side {
  switch (side) {
    case 'north':
      return 'south';
    case 'south':
      return 'north';
    case 'west':
      return 'east';
    case 'east':
      return 'west';
  }
}

/** The number of border cells along a side, corners excluded. */
function sideLength(cv: Canvas, side: Side): number {
  return side === 'north' || side === 'south' ? cv.cols - 2 : cv.rows - 2;
}

/** An exit at a uniformly drawn position on `side` that is not an exit yet (the side must have a free cell). */
function exitOn(rng: Xoshiro128ss, cv: Canvas, side: Side): Cell {
  const length = sideLength(cv, side);
  let offset = between(rng, 1, length);
  for (let tries = 0; tries < length; tries++) {
    const [r, c] = wallCell(cv, side, offset);
    if (cv.at(r, c) !== 'E') return cv.exit(r, c);
    offset = (offset % length) + 1;
  }
  throw new RangeError(`no free cell for an exit on the ${side} wall`);
}

/** The interior cells along the wall of `side` (the first row or column inside it). */
function lineAlong(cv: Canvas, side: Side): Rect {
  switch (side) {
    case 'north':
      return [1, 1, 1, cv.cols - 2];
    case 'south':
      return [cv.rows - 2, 1, cv.rows - 2, cv.cols - 2];
    case 'west':
      return [1, 1, cv.rows - 2, 1];
    case 'east':
      return [1, cv.cols - 2, cv.rows - 2, cv.cols - 2];
  }
}

/** The interior corner farthest from a border cell. */
function farCorner(cv: Canvas, [r, c]: Cell): Cell {
  return [2 * r < cv.rows - 1 ? cv.rows - 2 : 1, 2 * c < cv.cols - 1 ? cv.cols - 2 : 1];
}

/** An h x w block of the interior with one corner at interior corner `corner`. */
function cornerBlock(cv: Canvas, [r, c]: Cell, h: number, w: number): Rect {
  const r0 = r === 1 ? 1 : cv.rows - 1 - h;
  const c0 = c === 1 ? 1 : cv.cols - 1 - w;
  return [r0, c0, r0 + h - 1, c0 + w - 1];
}

/** An h x w block around the centre of the interior. */
function centreBlock(cv: Canvas, h: number, w: number): Rect {
  const r0 = clamp(Math.floor((cv.rows - h) / 2), 1, cv.rows - 1 - h);
  const c0 = clamp(Math.floor((cv.cols - w) / 2), 1, cv.cols - 1 - w);
  return [r0, c0, r0 + h - 1, c0 + w - 1];
}

function interior(cv: Canvas): Rect {
  return [1, 1, cv.rows - 2, cv.cols - 2];
}

/** Few people, one exit, a fire drawn in the corner farthest from it. */
export function singleExitSparse(rng: Xoshiro128ss, { rows, cols }: LayoutInput): Layout {
  const cv = new Canvas(rows, cols);
  const exit = exitOn(rng, cv, pick(rng, SIDES));
  const block = cornerBlock(cv, farCorner(cv, exit), clamp(Math.floor((rows - 2) / 4), 1, 3), clamp(Math.floor((cols - 2) / 4), 1, 4));
  return { map: cv.map(), zones: [interior(cv)], ignitions: [], candidates: { cells: rectCells(block), count: 1 } };
}

/** A crowd and one door: a fire burns in the far corner from the start, a second is drawn along the far wall. */
export function singleExitDense(rng: Xoshiro128ss, { rows, cols }: LayoutInput): Layout {
  const cv = new Canvas(rows, cols);
  const side = pick(rng, SIDES);
  const exit = exitOn(rng, cv, side);
  const corner = farCorner(cv, exit);
  const far = rectCells(lineAlong(cv, opposite(side))).filter(([r, c]) => r !== corner[0] || c !== corner[1]);
  return {
    map: cv.map(),
    zones: [interior(cv)],
    ignitions: [{ cell: corner, step: 0 }],
    candidates: far.length > 0 ? { cells: far, count: 1 } : null,
  };
}

/** People in one corner beside a near exit; a far exit across the hall is free. */
export function unevenExits(rng: Xoshiro128ss, { rows, cols }: LayoutInput): Layout {
  const cv = new Canvas(rows, cols);
  const zr = Math.max(2, Math.floor(((rows - 2) * between(rng, 55, 75)) / 100));
  const zc = Math.max(2, Math.floor(((cols - 2) * between(rng, 35, 50)) / 100));
  if (rng.uniform(2) === 0) cv.exit(0, between(rng, 1, zc));
  else cv.exit(between(rng, 1, zr), 0);
  if (rng.uniform(2) === 0) cv.exit(between(rng, Math.ceil(rows / 2), rows - 2), cols - 1);
  else cv.exit(rows - 1, between(rng, Math.ceil(cols / 2), cols - 2));
  const candidates = rectCells([1, cols - 2, Math.max(1, Math.floor(rows / 3)), cols - 2]);
  return { map: cv.map(), zones: [[1, 1, zr, zc]], ignitions: [], candidates: { cells: candidates, count: 1 } };
}

/** A crowded floor, three or four exits, the fire drawn in the middle. */
export function centralIgnition(rng: Xoshiro128ss, { rows, cols }: LayoutInput): Layout {
  const cv = new Canvas(rows, cols);
  for (const side of ['west', 'east', 'north'] as const) exitOn(rng, cv, side);
  if (rng.uniform(2) === 0) exitOn(rng, cv, 'south');
  return { map: cv.map(), zones: [interior(cv)], ignitions: [], candidates: { cells: rectCells(centreBlock(cv, 2, 2)), count: 1 } };
}

/** The main exit is near everyone and burns a few steps in; the other exit is far. */
export function routeInvalidation(rng: Xoshiro128ss, { rows, cols, maxSteps }: LayoutInput): Layout {
  const cv = new Canvas(rows, cols);
  const ec = between(rng, Math.max(2, Math.floor(cols / 5)), Math.max(2, Math.floor(cols / 3)));
  cv.exit(0, ec);
  if (rng.uniform(2) === 0) cv.exit(rows - 1, between(rng, Math.floor((cols * 3) / 4), cols - 2));
  else cv.exit(between(rng, Math.floor((rows * 3) / 4), rows - 2), cols - 1);
  const k = Math.min(between(rng, 4, 8), maxSteps);
  const later = Math.min(k + 1, maxSteps);
  return {
    map: cv.map(),
    zones: [[2, 1, rows - 3, Math.max(2, Math.floor((cols * 55) / 100))]],
    ignitions: [
      { cell: [1, ec], step: k },
      { cell: [1, ec - 1], step: later },
      { cell: [1, ec + 1], step: later },
    ],
    candidates: null,
  };
}

/** Two exits and two fires drawn in the centre; the spread range of the configuration makes it fast. */
export function fastSpread(rng: Xoshiro128ss, { rows, cols }: LayoutInput): Layout {
  const cv = new Canvas(rows, cols);
  for (const side of rng.choose(SIDES, 2)) exitOn(rng, cv, side);
  const block = centreBlock(cv, Math.max(2, Math.floor((rows - 2) / 4)), Math.max(2, Math.floor((cols - 2) / 4)));
  return { map: cv.map(), zones: [interior(cv)], ignitions: [], candidates: { cells: rectCells(block), count: 2 } };
}

/** A large hall with four to eight exits around it and two fires drawn in the centre. */
export function largeHall(rng: Xoshiro128ss, { rows, cols }: LayoutInput): Layout {
  const cv = new Canvas(rows, cols);
  const count = between(rng, 4, 8);
  const first = rng.uniform(4);
  for (let i = 0; i < count; i++) exitOn(rng, cv, SIDES[(first + i) % 4]!);
  const block = centreBlock(cv, Math.max(2, Math.floor(rows / 8)), Math.max(2, Math.floor(cols / 8)));
  return { map: cv.map(), zones: [[2, 2, rows - 3, cols - 3]], ignitions: [], candidates: { cells: rectCells(block), count: 2 } };
}
