/**
 * One episode, evaluated: the episode start prepared from the scenario and
 * seed, a fresh agent from the factory, the single simulator path
 * (fresh-episode.ts), then the replay check and the metrics from the replay
 * (measureRecord, the code path `evaluation verify` uses). It is the same in
 * the main thread (--jobs 1), in a worker, the benches and the test kits, so
 * a record is committed only after it was authenticated the way a verifier
 * will. (`episode run` writes a record, not a result: it runs the same
 * episode and authenticates it as `replay verify` does, by replay alone.)
 *
 * With a scoring context it also computes the episode's references and
 * episode score (scoring-v1.0.md section 4), as `score` will from the
 * result, so a pool can score each episode as it lands. Without one
 * (the CLI), nothing more is computed than the runner needs.
 */

import { AgentError, EndpointError, ModelOutputError } from '../../core/errors.js';
import { measureRecord, type MeasuredEpisode } from '../../core/eval/authenticate.js';
import type { ResultEpisode } from '../../core/eval/result.js';
import type { EnvironmentPack } from '../../core/pack/pack.js';
import type { AgentFactory } from '../../core/sim/agent.js';
import type { Scenario } from '../../core/world/scenario-types.js';
import type { EpisodeJob, EpisodeScoring, EpisodeScoringContext } from './episode-scoring.js';
import { runFreshEpisode, type ChildWatcher } from './fresh-episode.js';

export type { EpisodeJob, EpisodeScoring, EpisodeScoringContext } from './episode-scoring.js';

/** The scoring context of a run against a pack. */
export function packScoringContext(pack: EnvironmentPack): EpisodeScoringContext {
  return { pack: { packId: pack.packId, maxEvacuated: pack.value.episodes.map((e) => e.max_evacuated) } };
}

export interface EvaluateEpisodeOptions {
  readonly watcher?: ChildWatcher;
  readonly scoring?: EpisodeScoringContext;
  /** Names the record in replay messages; default `episode N (scenario) record`. */
  readonly source?: string;
}

export interface EvaluatedEpisode {
  /** What the runner commits. */
  readonly episode: ResultEpisode;
  /** The replayed start, outcome and metrics. */
  readonly measured: MeasuredEpisode;
  /** Present when a scoring context was given. */
  readonly scoring?: EpisodeScoring;
}

/** The agent's error with the episode named, keeping its class and failure kind. */
export function episodeAgentError(error: AgentError, job: EpisodeJob): AgentError {
  const message = `episode ${job.index} (${job.scenario_id}): ${error.message}`;
  if (error instanceof EndpointError) return new EndpointError(message);
  return error instanceof ModelOutputError ? new ModelOutputError(message) : new AgentError(error.failure, message);
}

/**
 * Evaluates one episode with a fresh agent from `factory` (an AgentSession's
 * factory). Agent failures are AgentError (exit 4, or a failure
 * declaration); a replay difference of a fresh record is a MismatchError (a
 * simulator bug, never declared); a scoring input error a ValidationError.
 */
export async function evaluateEpisode(
  factory: AgentFactory,
  scenario: Scenario,
  job: EpisodeJob,
  options: EvaluateEpisodeOptions = {},
): Promise<EvaluatedEpisode> {
  const run = await runFreshEpisode(factory, scenario, job.seed, options.watcher);
  const source = options.source ?? `episode ${job.index} (${job.scenario_id}) record`;
  const measured = measureRecord(scenario, run.record, source);
  const episode: ResultEpisode = { index: job.index, metrics: measured.metrics, record: run.record };
  if (options.scoring === undefined) return { episode, measured };
  // Imported here: the scorer (references, route events, exact decimals) is
  // many modules that `episode run`, which scores nothing, need not load.
  const { scoreEpisode } = await import('./score-episode.js');
  return { episode, measured, scoring: scoreEpisode(job, measured, episode, options.scoring, source) };
}
