/**
 * One scheduled episode of an evaluation, the same in the main thread
 * (--jobs 1) and in a worker: a fresh agent from the session's factory, the
 * episode runner, then the replay check and the metrics from the replay
 * (measureRecord, the code path `evaluation verify` uses) before the episode
 * can be committed.
 */

import { AgentError, ModelOutputError } from '../../core/errors.js';
import { measureRecord } from '../../core/eval/authenticate.js';
import type { ManifestEpisode } from '../../core/eval/manifest.js';
import type { ResultEpisode } from '../../core/eval/result.js';
import { runEpisode } from '../../core/sim/runner.js';
import { prepareEpisode } from '../../core/world/episode-start.js';
import type { Scenario } from '../../core/world/scenario-types.js';
import type { AgentSession } from '../agents/spec.js';

/** Told about every agent process an episode uses, so none can outlive the evaluator. */
export interface ChildWatcher {
  started(pid: number): void;
  /** After the episode; `live` is false once the process is gone. */
  settled(pid: number, live: boolean): void;
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
export function episodeAgentError(error: AgentError, job: ManifestEpisode): AgentError {
  const message = `episode ${job.index} (${job.scenario_id}): ${error.message}`;
  return error instanceof ModelOutputError ? new ModelOutputError(message) : new AgentError(error.failure, message);
}

/**
 * Runs one manifest episode. Agent failures are AgentError (exit 4, or a
 * failure declaration); a replay difference of a fresh record is a
 * MismatchError (a simulator bug, never declared).
 */
export async function runScheduledEpisode(
  session: AgentSession,
  scenario: Scenario,
  job: ManifestEpisode,
  watcher?: ChildWatcher,
): Promise<ResultEpisode> {
  const start = prepareEpisode(scenario, job.seed);
  const agent = await session.factory();
  const pid = agentPid(agent);
  if (pid !== undefined) watcher?.started(pid);
  let run;
  try {
    run = await runEpisode(start, agent);
  } finally {
    if (pid !== undefined) watcher?.settled(pid, isAlive(pid));
  }
  const measured = measureRecord(scenario, run.record, `episode ${job.index} (${job.scenario_id}) record`);
  return { index: job.index, metrics: measured.metrics, record: run.record };
}
