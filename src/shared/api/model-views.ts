/**
 * The view types of the Models view's procedures (contract.ts maps them in
 * `Outputs`): every model of the archive, one model's scores over its
 * trials, and the comparison of several models at once.
 */

import type { LeaderboardGroup } from './views.js';

export interface ModelSummary {
  readonly modelId: string;
  /** Trials of the model in the archive, and how many of them have a score. */
  readonly trials: number;
  readonly scored: number;
  /** When its most recent trial was created (ISO 8601). */
  readonly latest: string;
}

/** One scored trial of a model: a point of its history chart. */
export interface ModelHistoryPoint {
  readonly trialId: number;
  readonly created: string;
  readonly official: boolean;
  /** The pack ID (official) or the suite ID (UNOFFICIAL): scores are comparable only on one target and manifest. */
  readonly target: string;
  readonly manifestHash: string;
  /** The EMBER Score, exact ("num/den" or decimal) as the trial row keeps it, and rounded to 0.1 as displayed. */
  readonly score: string;
  readonly scoreRounded: string | null;
  /** The 95% interval when the trial's report has one. */
  readonly intervalLow: string | null;
  readonly intervalHigh: string | null;
}

export interface ModelHistory {
  readonly modelId: string;
  /** Scored trials, oldest first (creation time, then trial ID). */
  readonly points: readonly ModelHistoryPoint[];
}

/** One model's scores by primary family, from its trial's score report. */
export interface ModelFamilies {
  readonly modelId: string;
  readonly trialId: number;
  readonly families: readonly { readonly family: string; readonly score: string }[];
}

/** Several models compared at once: their leaderboard (order and each adjacent pair's paired outcome) and their family scores. */
export interface ModelsComparison {
  readonly group: LeaderboardGroup;
  /** In the board's order. */
  readonly families: readonly ModelFamilies[];
}
