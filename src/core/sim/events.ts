/**
 * What a simulated or replayed episode produces, step by step. The simulator
 * and the replay check emit the same events, so metrics, crowd diagnostics
 * and score inputs are computed from the authenticated trajectory by one code
 * path whether the episode was just run or loaded from a record.
 */

import type { Resolution } from './resolver.js';

export const ACTIVE = 0;
export const EVACUATED = 1;
export const DEAD = 2;
export const STRANDED = 3;
export type PersonStatus = typeof ACTIVE | typeof EVACUATED | typeof DEAD | typeof STRANDED;
export type PersonStatusName = 'active' | 'evacuated' | 'dead' | 'stranded';

export function statusName(status: PersonStatus): PersonStatusName {
  switch (status) {
    case ACTIVE:
      return 'active';
    case EVACUATED:
      return 'evacuated';
    case DEAD:
      return 'dead';
    case STRANDED:
      return 'stranded';
  }
}

export type TerminationReason = 'all_resolved' | 'horizon';

/** One step t -> t+1. */
export interface StepEvent {
  /** The snapshot the step starts from. */
  readonly t: number;
  /** Person indices active at snapshot t, ascending (person order). */
  readonly active: Int32Array;
  /** Their cells at snapshot t. */
  readonly cellsBefore: Int32Array;
  /** Their direction codes (STAY/N/E/S/W = 0..4). */
  readonly moves: Uint8Array;
  /** The resolver's output for them: cells after movement, block codes, evacuations, contested cells. */
  readonly resolution: Resolution;
  /** Person indices that died at step t+1 (on a cell of B(t+1)), ascending. */
  readonly died: Int32Array;
  /** B(t+1) minus B(t), ascending. */
  readonly newlyBurning: readonly number[];
}

/** How an episode ended, per person. */
export interface EpisodeOutcome {
  readonly termination: TerminationReason;
  /** Number of steps taken (the last snapshot). */
  readonly steps: number;
  /** Final status of each person (EVACUATED, DEAD or STRANDED). */
  readonly status: Uint8Array;
  /** Evacuation or death step; H for stranded persons. */
  readonly statusStep: Int32Array;
}

/** A consumer of an episode's events (metrics, diagnostics, score inputs). */
export interface EpisodeObserver {
  /**
   * True when onStep reads the event's arrays only while it runs and keeps
   * neither them nor the event (it copies what it needs). Only when every
   * observer says so do the runner and the replay check recycle the step
   * arrays (arena.ts), which a later step then overwrites; left out, each
   * step's arrays are fresh and may be kept as long as wanted.
   */
  readonly readsOnlyDuringStep?: boolean;
  onStep(event: StepEvent): void;
  onEnd(outcome: EpisodeOutcome): void;
}

/** Whether a driver with these observers may recycle its step arrays (every observer reads only during onStep). */
export function stepArraysRecyclable(observers: readonly EpisodeObserver[]): boolean {
  for (const observer of observers) if (observer.readsOnlyDuringStep !== true) return false;
  return true;
}
