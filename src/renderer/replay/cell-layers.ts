/**
 * The per-cell pictures of one snapshot, one RGBA pixel per cell (the scene
 * scales them up with nearest-neighbour sampling): the map with the fire and
 * the soft danger-zone overlay, and the heat of blocked moves. Recomputed
 * only when the whole step changes, in O(cells) and O(window * people).
 */

import { NEVER_BURNS, type RecordFrames } from '../../core/replay/record-frames.js';
import { EXIT, WALL, type Grid } from '../../core/world/grid.js';
import { CELL_COLORS } from './palette.js';

/** Snapshots of blocked moves the heat layer sums (the recent contention, not the whole history). */
export const HEAT_WINDOW = 8;

function put(out: Uint8ClampedArray, cell: number, rgb: number, alpha = 255): void {
  const o = cell * 4;
  out[o] = (rgb >> 16) & 0xff;
  out[o + 1] = (rgb >> 8) & 0xff;
  out[o + 2] = rgb & 0xff;
  out[o + 3] = alpha;
}

function mix(a: number, b: number, w: number): number {
  const ch = (shift: number) => Math.round(((a >> shift) & 0xff) * (1 - w) + ((b >> shift) & 0xff) * w);
  return (ch(16) << 16) | (ch(8) << 8) | ch(0);
}

const DANGER_FLOOR = mix(CELL_COLORS.floor, CELL_COLORS.danger, 0.38);
const DANGER_EXIT = mix(CELL_COLORS.exit, CELL_COLORS.danger, 0.38);

/** Walls, floor, exits, burning cells (fresh and old) and the danger zone at snapshot `step`. */
export function paintMap(out: Uint8ClampedArray, grid: Grid, frames: RecordFrames, dangerOnset: Int32Array, step: number, danger: boolean): void {
  const n = grid.rows * grid.cols;
  for (let cell = 0; cell < n; cell++) {
    const kind = grid.kinds[cell];
    const burn = frames.burnStep[cell]!;
    let rgb: number;
    if (kind === WALL) rgb = CELL_COLORS.wall;
    else if (burn !== NEVER_BURNS && burn <= step) rgb = step - burn > 3 ? CELL_COLORS.fireOld : CELL_COLORS.fire;
    else if (danger && dangerOnset[cell]! <= step) rgb = kind === EXIT ? DANGER_EXIT : DANGER_FLOOR;
    else rgb = kind === EXIT ? CELL_COLORS.exit : CELL_COLORS.floor;
    put(out, cell, rgb);
  }
}

/** Blocked moves per cell over the last HEAT_WINDOW steps before `step`, as translucent red; returns the hottest count. */
export function paintHeat(out: Uint8ClampedArray, frames: RecordFrames, step: number, scratch: Uint16Array): number {
  scratch.fill(0);
  const { people, cells, blocked } = frames;
  let hottest = 0;
  for (let s = Math.max(0, step - HEAT_WINDOW); s < step; s++) {
    const base = s * people;
    for (let i = 0; i < people; i++) {
      if (blocked[base + i] === 0) continue;
      const cell = cells[base + i]!;
      const v = (scratch[cell] = scratch[cell]! + 1);
      if (v > hottest) hottest = v;
    }
  }
  out.fill(0);
  if (hottest === 0) return 0;
  for (let cell = 0; cell < scratch.length; cell++) {
    const v = scratch[cell]!;
    if (v > 0) put(out, cell, CELL_COLORS.blocked, Math.round(70 + 160 * Math.min(1, v / Math.max(4, hottest))));
  }
  return hottest;
}
