/**
 * A mutable map under construction for the generator: walls, floor and
 * exits as characters, plus the helpers the layouts share (boxes, doors,
 * uniform draws from the generator's seeded stream). Row-major like the
 * scenario map; cells are [row, col] pairs in the JSON the layouts emit.
 */

import type { Xoshiro128ss } from '../world/rng.js';

export type Cell = readonly [row: number, col: number];

/** An inclusive rectangle [r0, c0, r1, c1]. */
export type Rect = readonly [r0: number, c0: number, r1: number, c1: number];

export class Canvas {
  private readonly chars: string[][];

  /** A rows x cols box: walls on the border, floor inside. */
  constructor(
    readonly rows: number,
    readonly cols: number,
  ) {
    this.chars = Array.from({ length: rows }, (_, r) =>
      Array.from({ length: cols }, (_, c) => (r === 0 || c === 0 || r === rows - 1 || c === cols - 1 ? '#' : '.')),
    );
  }

  at(r: number, c: number): string {
    return this.chars[r]![c]!;
  }

  set(r: number, c: number, ch: '#' | '.' | 'E'): void {
    this.chars[r]![c] = ch;
  }

  /** Fills an inclusive rectangle. */
  fill(rect: Rect, ch: '#' | '.'): void {
    const [r0, c0, r1, c1] = rect;
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) this.set(r, c, ch);
  }

  /** Turns a border cell into an exit. */
  exit(r: number, c: number): Cell {
    this.set(r, c, 'E');
    return [r, c];
  }

  /** The floor cells of a rectangle, row-major. */
  floorCells(rect: Rect): Cell[] {
    const [r0, c0, r1, c1] = rect;
    const out: Cell[] = [];
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) if (this.at(r, c) === '.') out.push([r, c]);
    return out;
  }

  map(): string[] {
    return this.chars.map((row) => row.join(''));
  }
}

/** A uniform integer in [lo, hi] from the generator stream. */
export function between(rng: Xoshiro128ss, lo: number, hi: number): number {
  return lo + rng.uniform(hi - lo + 1);
}

/** One item of a non-empty list, uniformly. */
export function pick<T>(rng: Xoshiro128ss, items: readonly T[]): T {
  return items[rng.uniform(items.length)]!;
}

/** The cells of an inclusive rectangle, row-major (no kind check). */
export function rectCells(rect: Rect): Cell[] {
  const [r0, c0, r1, c1] = rect;
  const out: Cell[] = [];
  for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) out.push([r, c]);
  return out;
}

/** A rectangle of about `h` x `w` cells centred on (r, c), clipped to the interior of the canvas. */
export function blockAround(canvas: Canvas, r: number, c: number, h: number, w: number): Rect {
  const r0 = Math.max(1, r - Math.floor((h - 1) / 2));
  const c0 = Math.max(1, c - Math.floor((w - 1) / 2));
  return [r0, c0, Math.min(canvas.rows - 2, r0 + h - 1), Math.min(canvas.cols - 2, c0 + w - 1)];
}

/** A point on one of the four walls (not a corner), at a fraction drawn from [lo, hi] per mille along it. */
export type Side = 'north' | 'south' | 'west' | 'east';

export function wallCell(canvas: Canvas, side: Side, offset: number): Cell {
  switch (side) {
    case 'north':
      return [0, clamp(offset, 1, canvas.cols - 2)];
    case 'south':
      return [canvas.rows - 1, clamp(offset, 1, canvas.cols - 2)];
    case 'west':
      return [clamp(offset, 1, canvas.rows - 2), 0];
    case 'east':
      return [clamp(offset, 1, canvas.rows - 2), canvas.cols - 1];
  }
}

export function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}
