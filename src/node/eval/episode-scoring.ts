/**
 * The plain data of scoring an episode as it is evaluated: the job, the
 * context sent to every worker, and what comes back. Apart from both
 * evaluate-episode.ts and score-episode.ts, which the scorer lives in so
 * that runs that do not score never load it.
 */

import type { ManifestEpisode } from '../../core/eval/manifest.js';
import type { EpisodeFacts } from '../../core/scoring/episode-evaluation.js';
import type { ScoreBreakdown } from '../../core/scoring/evidence.js';

/** The episode to run: its manifest index, scenario ID and seed (a ManifestEpisode fits). */
export type EpisodeJob = Pick<ManifestEpisode, 'index' | 'scenario_id' | 'seed'>;

/**
 * Scores each episode as it is evaluated. `pack` (optional) pins M* per
 * episode index (an official run). Plain data: it is sent to every worker.
 */
export interface EpisodeScoringContext {
  readonly pack?: { readonly packId: string; readonly maxEvacuated: readonly number[] };
}

/** The references and episode score of one committed episode-trial (plain data: it crosses worker threads). */
export interface EpisodeScoring {
  /** M*: people with a finite earliest evacuation step. */
  readonly maxEvacuated: number;
  /** M* > 0; a not-applicable episode has no score. */
  readonly applicable: boolean;
  readonly status: 'scored' | 'catastrophic' | 'not_applicable';
  /** The exact episode-trial score (decimal text), null when not applicable. */
  readonly score: string | null;
  readonly breakdown: ScoreBreakdown | null;
  /** People, references, actual values and congestion diagnostics. */
  readonly facts: EpisodeFacts;
}
