/** The parsed scenario (schema_version 1.0) and the fire world, as the library uses them. */

import type { JsonObject } from '../json/canonical.js';
import type { Grid } from './grid.js';

export type Placement =
  | { readonly kind: 'cell'; readonly cell: number }
  | { readonly kind: 'zone'; readonly r0: number; readonly c0: number; readonly r1: number; readonly c1: number; readonly count: number };

export interface Ignition {
  readonly cell: number;
  readonly step: number;
}

export interface Scenario {
  readonly scenarioId: string;
  readonly title: string;
  readonly families: readonly string[];
  readonly grid: Grid;
  readonly placements: readonly Placement[];
  /** Scheduled ignitions, in file order. */
  readonly ignitions: readonly Ignition[];
  /** Ignition candidates in file order, and how many are drawn (0 and [] when absent). */
  readonly candidateCells: readonly number[];
  readonly candidateCount: number;
  /** The exact decimal string of the spread probability. */
  readonly spreadProbability: string;
  /** H. */
  readonly maxSteps: number;
  readonly developmentSeed: string;
  /** Number of people the placements create. */
  readonly population: number;
  /** SHA-256 of the canonical JSON of `json`. */
  readonly hash: string;
  /** The validated scenario value (its canonical JSON is what is hashed). */
  readonly json: JsonObject;
}

/** Ignition step of a cell that does not burn by the horizon. */
export const NEVER = 0x7fffffff;

/**
 * The fire trajectory B(0..H) of one (scenario, seed): a function of those
 * two alone. Reading `ignitionStep` or `newlyBurning` gives it whole (up to
 * H); an episode reads it step by step through fireGrowth (fire.ts), which
 * computes no further than the episode has come.
 */
export interface FireWorld {
  readonly maxSteps: number;
  /** For each cell, the first snapshot t with the cell in B(t), or NEVER. */
  readonly ignitionStep: Int32Array;
  /** For t = 0..H, the cells in B(t) but not B(t-1), ascending (element 0 is B(0)). */
  readonly newlyBurning: readonly (readonly number[])[];
  /** environment_world_version 1.0 digest of the trajectory. */
  readonly digest: string;
}

/** Everything an episode starts from: the scenario, the seed, its fire world and the placed people. */
export interface EpisodeStart {
  readonly scenario: Scenario;
  /** Decimal string in [0, 2^64 - 1]. */
  readonly seed: string;
  readonly fire: FireWorld;
  /** Start cell of each person, in person order. */
  readonly startCells: Int32Array;
}
