import { describe, expect, test } from 'vitest';
import { CELL_COLORS, LEGEND, PERSON_COLORS, contrastRatio } from './palette.js';

/** Hue in degrees (HSL). */
function hue(rgb: number): number {
  const [r, g, b] = [16, 8, 0].map((s) => ((rgb >> s) & 0xff) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

function hueDistance(a: number, b: number): number {
  const d = Math.abs(hue(a) - hue(b));
  return Math.min(d, 360 - d);
}

describe('replay palette', () => {
  test('the blocked-moves heat layer has a legend entry', () => {
    expect(LEGEND.find((l) => l.label.startsWith('blocked moves'))?.color).toBe(CELL_COLORS.blocked);
  });

  test('the heat colour is far in hue from "stranded, avoidable", the fire and the danger zone, and has 3:1 contrast on the floor', () => {
    // The old heat red (0xff1744) was 57 degrees from the avoidable stranded magenta.
    expect(hueDistance(0xff1744, PERSON_COLORS.strandedAvoidable)).toBeLessThan(60);
    for (const c of [PERSON_COLORS.strandedAvoidable, PERSON_COLORS.deadAvoidable, CELL_COLORS.fire, CELL_COLORS.fireOld, CELL_COLORS.danger]) expect(hueDistance(CELL_COLORS.blocked, c)).toBeGreaterThan(90);
    expect(contrastRatio(CELL_COLORS.blocked, CELL_COLORS.floor)).toBeGreaterThanOrEqual(3);
    expect(contrastRatio(0x000000, 0xffffff)).toBeCloseTo(21, 5);
  });
});
