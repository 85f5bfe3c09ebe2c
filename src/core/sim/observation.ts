/**
 * The observation (observation_version 1.0): plain JSON data, identical in
 * every process and language. It never holds the seed, the spread
 * probability, future fire, the scenario ID, the episode index or references.
 */

import type { CellPair } from '../world/grid.js';

export interface ObservedPerson {
  readonly id: string;
  readonly cell: CellPair;
}

export interface Observation {
  readonly step: number;
  readonly max_steps: number;
  readonly map: readonly string[];
  /** Exit cells, row-major. */
  readonly exits: readonly CellPair[];
  /** Cells of B(step), row-major. */
  readonly burning: readonly CellPair[];
  /** Every active person, in person order. */
  readonly people: readonly ObservedPerson[];
  readonly evacuated: number;
  readonly dead: number;
}

// Every episode names its people with the same strings: each is made once
// and shared (up to the largest legal population, and a margin).
const CACHED_IDS = 1 << 16;
const knownIds: string[] = [];

/** Person IDs `p0000`, `p0001`, ... in placement order. */
export function personId(index: number): string {
  if (index >= knownIds.length) {
    if (index >= CACHED_IDS || index < 0 || !Number.isInteger(index)) return 'p' + String(index).padStart(4, '0');
    while (knownIds.length <= index) knownIds.push('p' + String(knownIds.length).padStart(4, '0'));
  }
  return knownIds[index]!;
}
