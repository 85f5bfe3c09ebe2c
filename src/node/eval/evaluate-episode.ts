/**
 * One episode, evaluated: the episode start prepared from the scenario and
 * seed, a fresh agent from the factory, the single simulator path, then the
 * replay check and the metrics from the replay (measureRecord, the code path
 * `evaluation verify` uses). It is the same in the main thread (--jobs 1),
 * in a worker, in `episode run`, the benches and the test kits, so a record
 * is committed only after it was authenticated the way a verifier will.
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
import { runEpisode } from '../../core/sim/episode.js';
import { prepareEpisode } from '../../core/world/episode-start.js';
import type { Scenario } from '../../core/world/scenario-types.js';
import type { EpisodeJob, EpisodeScoring, EpisodeScoringContext } from './episode-scoring.js';

export type { EpisodeJob, EpisodeScoring, EpisodeScoringContext } from './episode-scoring.js';

/** Told about every agent process an episode uses, so none can outlive the evaluator. */
export interface ChildWatcher {
  started(pid: number): void;
  /** After the episode; `live` is false once the process is gone. */
  settled(pid: number, live: boolean): void;
}

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

function agentPid(agent: unknown): number | undefined {
  const pid = (agent as { pid?: unknown } | null)?.pid;
  return typeof pid === 'number' ? pid : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
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
  const start = prepareEpisode(scenario, job.seed);
  const agent = await factory();
  const pid = agentPid(agent);
  if (pid !== undefined) options.watcher?.started(pid);
  let run;
  try {
    run = await runEpisode(start, agent);
  } finally {
    if (pid !== undefined) options.watcher?.settled(pid, isAlive(pid));
  }
  const source = options.source ?? `episode ${job.index} (${job.scenario_id}) record`;
  const measured = measureRecord(scenario, run.record, source);
  const episode: ResultEpisode = { index: job.index, metrics: measured.metrics, record: run.record };
  if (options.scoring === undefined) return { episode, measured };
  // Imported here: the scorer (references, route events, exact decimals) is
  // many modules that `episode run`, which scores nothing, need not load.
  const { scoreEpisode } = await import('./score-episode.js');
  return { episode, measured, scoring: scoreEpisode(job, measured, episode, options.scoring, source) };
}
