import { describe, expect, test } from 'vitest';
import { NEVER_BURNS, type RecordFrames } from '../../core/replay/record-frames.js';
import { gridFromMap } from '../../core/world/grid.js';
import { NEVER } from '../../core/world/scenario-types.js';
import { paintHeat, paintMap } from './cell-layers.js';
import { CELL_COLORS } from './palette.js';

const grid = gridFromMap(['#####', '#...E', '#####']);
const rgb = (out: Uint8ClampedArray, cell: number) => (out[cell * 4]! << 16) | (out[cell * 4 + 1]! << 8) | out[cell * 4 + 2]!;

function frames(burn: Record<number, number>, people = 1, blockedAt: number[] = []): RecordFrames {
  const burnStep = new Int32Array(15).fill(NEVER_BURNS);
  for (const [cell, step] of Object.entries(burn)) burnStep[Number(cell)] = step;
  const steps = 10;
  const cells = new Int32Array((steps + 1) * people).fill(7);
  const blocked = new Uint8Array((steps + 1) * people);
  for (const s of blockedAt) blocked[s * people] = 1;
  return { rows: 3, cols: 5, people, steps, cells, status: new Uint8Array((steps + 1) * people), burnStep, blocked, counts: new Int32Array((steps + 1) * 4) };
}

describe('paintMap', () => {
  test('walls, floor, exit; fire from its burn step, old fire later; the danger zone before the fire arrives', () => {
    const f = frames({ 6: 2 });
    const onset = new Int32Array(15).fill(NEVER);
    onset[7] = 2;
    onset[8] = 3;
    const out = new Uint8ClampedArray(15 * 4);
    paintMap(out, grid, f, onset, 1, true);
    expect([rgb(out, 0), rgb(out, 6), rgb(out, 7), rgb(out, 9)]).toEqual([CELL_COLORS.wall, CELL_COLORS.floor, CELL_COLORS.floor, CELL_COLORS.exit]);
    paintMap(out, grid, f, onset, 2, true);
    expect(rgb(out, 6)).toBe(CELL_COLORS.fire);
    expect(rgb(out, 7)).not.toBe(CELL_COLORS.floor);
    expect(rgb(out, 8)).toBe(CELL_COLORS.floor);
    paintMap(out, grid, f, onset, 9, false);
    expect(rgb(out, 6)).toBe(CELL_COLORS.fireOld);
    expect(rgb(out, 7)).toBe(CELL_COLORS.floor);
  });
});

describe('paintHeat', () => {
  test('counts the blocked moves of the last window per cell, transparent elsewhere', () => {
    const f = frames({}, 1, [1, 2, 3]);
    const out = new Uint8ClampedArray(15 * 4);
    const scratch = new Uint16Array(15);
    expect(paintHeat(out, f, 4, scratch)).toBe(3);
    expect(out[7 * 4 + 3]).toBeGreaterThan(0);
    expect(out[6 * 4 + 3]).toBe(0);
    expect(paintHeat(out, f, 1, scratch)).toBe(0);
    expect(out.every((v) => v === 0)).toBe(true);
  });
});
