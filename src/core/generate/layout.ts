/**
 * What a family's layout function is given and what it draws. Apart from
 * kinds.ts so that the layout files and the kind table both import it
 * without importing each other.
 */

import type { Cell, Rect } from './canvas.js';

/** A drawn layout: the map, disjoint people zones, and the fire. */
export interface Layout {
  readonly map: readonly string[];
  /** Disjoint rectangles the people are spread over, in proportion to their free cells. */
  readonly zones: readonly Rect[];
  readonly ignitions: readonly { readonly cell: Cell; readonly step: number }[];
  readonly candidates: { readonly cells: readonly Cell[]; readonly count: number } | null;
}

export interface LayoutInput {
  readonly rows: number;
  readonly cols: number;
  readonly maxSteps: number;
}
