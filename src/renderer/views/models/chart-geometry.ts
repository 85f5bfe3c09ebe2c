/**
 * Where the Models view's charts put things: plain numbers from the exact
 * scores (approx is for drawing only; every printed value is the exact
 * score rounded as the CLI rounds it).
 */

import { approx } from '../../components/format.js';
import type { ModelHistoryPoint } from '../../../shared/api/contract.js';

export interface Plot {
  readonly width: number;
  readonly height: number;
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

/** y of a score on the 0–100 scale (clamped: a score never leaves the scale). */
export function yOf(plot: Plot, score: string): number {
  const v = Math.min(100, Math.max(0, approx(score)));
  return plot.top + ((100 - v) / 100) * (plot.height - plot.top - plot.bottom);
}

/** x of the k-th of n points, evenly spaced in time order (one trial per slot, whatever the gap between them). */
export function xOf(plot: Plot, k: number, n: number): number {
  const inner = plot.width - plot.left - plot.right;
  return n <= 1 ? plot.left + inner / 2 : plot.left + (k / (n - 1)) * inner;
}

/** What a history point is scored against: scores are comparable only on one target and manifest. */
export function targetKey(p: Pick<ModelHistoryPoint, 'official' | 'target' | 'manifestHash'>): string {
  return `${p.official ? 'pack' : 'suite'}|${p.target}|${p.manifestHash}`;
}

/** Series colours (each at least 3:1 against white, told apart also by the legend's text). */
export const SERIES_COLOURS = ['#1d4fa3', '#c2410c', '#1e6b43', '#7c3aed', '#9b1c1c', '#0f766e', '#a16207', '#475467'] as const;

export function colourOf(k: number): string {
  return SERIES_COLOURS[k % SERIES_COLOURS.length]!;
}
