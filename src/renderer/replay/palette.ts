/** The replay's colours, shared by the pixi scene, its legend and the cell layers. */

import { FRAME_ACTIVE, FRAME_DEAD, FRAME_EVACUATED, FRAME_STRANDED } from '../../core/replay/record-frames.js';
import { LOSS_AVOIDABLE } from './episode-data.js';

export const CELL_COLORS = {
  wall: 0x3b4250,
  floor: 0xf4f1ea,
  exit: 0x2f9e62,
  fire: 0xe8542f,
  fireOld: 0x9c2d14,
  danger: 0xf59e0b,
  // Blocked moves (the heat layer): teal, far from every person colour (the avoidable stranded are magenta) and from the
  // fire's reds; 4.6:1 against the floor, above the 3:1 that graphics need.
  blocked: 0x0e7490,
} as const;

export const PERSON_COLORS = {
  active: 0x2563eb,
  evacuated: 0x16a34a,
  // The dead lie on burning cells: the colours must stand out against the fire's reds.
  deadAvoidable: 0xfde047,
  deadUnavoidable: 0x111827,
  strandedAvoidable: 0xc026d3,
  strandedUnavoidable: 0x8b8fa3,
} as const;

/** The legend, in the order the view lists it. */
export const LEGEND: readonly { readonly label: string; readonly color: number }[] = [
  { label: 'active', color: PERSON_COLORS.active },
  { label: 'evacuated', color: PERSON_COLORS.evacuated },
  { label: 'dead, avoidable', color: PERSON_COLORS.deadAvoidable },
  { label: 'dead, unavoidable', color: PERSON_COLORS.deadUnavoidable },
  { label: 'stranded, avoidable', color: PERSON_COLORS.strandedAvoidable },
  { label: 'stranded, unavoidable', color: PERSON_COLORS.strandedUnavoidable },
  { label: 'fire', color: CELL_COLORS.fire },
  { label: 'danger zone (0 < d ≤ 2)', color: CELL_COLORS.danger },
  { label: 'exit', color: CELL_COLORS.exit },
  { label: 'blocked moves (heat layer)', color: CELL_COLORS.blocked },
];

/** WCAG 2 contrast ratio of two colours (the legend's colours are checked against the floor with it). */
export function contrastRatio(a: number, b: number): number {
  const luminance = (rgb: number) => {
    const [r, g, bl] = [16, 8, 0].map((shift) => {
      const c = ((rgb >> shift) & 0xff) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

export function cssColor(rgb: number): string {
  return `#${rgb.toString(16).padStart(6, '0')}`;
}

/** The colour of a person of this status and loss class. */
export function personColor(status: number, loss: number): number {
  switch (status) {
    case FRAME_ACTIVE:
      return PERSON_COLORS.active;
    case FRAME_EVACUATED:
      return PERSON_COLORS.evacuated;
    case FRAME_DEAD:
      return loss === LOSS_AVOIDABLE ? PERSON_COLORS.deadAvoidable : PERSON_COLORS.deadUnavoidable;
    case FRAME_STRANDED:
      return loss === LOSS_AVOIDABLE ? PERSON_COLORS.strandedAvoidable : PERSON_COLORS.strandedUnavoidable;
    default:
      return PERSON_COLORS.active;
  }
}

/** A particle's packed colour (pixi's Particle.color: BGR plus alpha in the top byte). */
export function packedColor(rgb: number, alpha: number): number {
  const bgr = ((rgb & 0xff) << 16) | (rgb & 0xff00) | ((rgb >> 16) & 0xff);
  return bgr + (((alpha * 255) | 0) << 24);
}
