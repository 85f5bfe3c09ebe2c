/**
 * The scoring of one evaluated episode (evaluate-episode.ts), in a module of
 * its own so that only runs that score load the scorer.
 */

import { ValidationError } from '../../core/errors.js';
import type { MeasuredEpisode } from '../../core/eval/authenticate.js';
import type { ResultEpisode } from '../../core/eval/result.js';
import { episodeFacts, episodeReferences, routeEventsOf } from '../../core/scoring/episode-evaluation.js';
import { scoreFromFacts } from '../../core/scoring/evidence.js';
import type { EpisodeJob, EpisodeScoring, EpisodeScoringContext } from './episode-scoring.js';

/** The references and score of a measured episode (the computation `score` does per episode-trial). */
export function scoreEpisode(job: EpisodeJob, measured: MeasuredEpisode, episode: ResultEpisode, context: EpisodeScoringContext, source: string): EpisodeScoring {
  const refs = episodeReferences(measured.start);
  const pinned = context.pack?.maxEvacuated[job.index];
  if (context.pack !== undefined && pinned !== refs.maxEvacuated) {
    // The same check as the scorer's checkMaxEvacuatedAgainstPack: the pack was tampered with, or is another run's.
    throw new ValidationError(`${source}: episode ${job.index}: M* is ${refs.maxEvacuated}, environment pack ${context.pack.packId} pins ${pinned ?? 'nothing'}`);
  }
  const facts = episodeFacts(measured, refs, routeEventsOf(measured.start, refs, episode.record, source));
  if (refs.maxEvacuated === 0) return { maxEvacuated: 0, applicable: false, status: 'not_applicable', score: null, breakdown: null, facts };
  const scored = scoreFromFacts(facts);
  return { maxEvacuated: refs.maxEvacuated, applicable: true, status: scored.status, score: scored.score, breakdown: scored.breakdown, facts };
}
