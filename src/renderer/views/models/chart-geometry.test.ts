import { describe, expect, it } from 'vitest';
import { targetKey, xOf, yOf, type Plot } from './chart-geometry.js';

const plot: Plot = { width: 500, height: 220, left: 40, right: 20, top: 10, bottom: 30 };

describe('chart geometry', () => {
  it('maps scores onto the 0–100 scale, exact fractions included, and clamps', () => {
    expect([yOf(plot, '100'), yOf(plot, '0'), yOf(plot, '50')]).toEqual([10, 190, 100]);
    expect(yOf(plot, '1/2')).toBeCloseTo(189.1, 9);
    expect(yOf(plot, '150')).toBe(10);
  });

  it('spaces trials evenly in time order and centres a single one', () => {
    expect([0, 1, 2].map((k) => xOf(plot, k, 3))).toEqual([40, 260, 480]);
    expect(xOf(plot, 0, 1)).toBe(260);
  });

  it('keeps targets apart by kind, name and manifest', () => {
    const h = 'a'.repeat(64);
    expect(new Set([targetKey({ official: true, target: 'p1', manifestHash: h }), targetKey({ official: false, target: 'p1', manifestHash: h }), targetKey({ official: true, target: 'p1', manifestHash: 'b'.repeat(64) })]).size).toBe(3);
  });
});
