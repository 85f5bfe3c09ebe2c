/**
 * One episode with a fresh agent: the episode start prepared from the
 * scenario and seed, a new agent from the factory, the single simulator
 * path. What evaluateEpisode (which then measures the record) and
 * `episode run` (which then only replays it) share. Apart from
 * evaluate-episode.ts so that `episode run` does not load the metrics.
 */

import type { AgentFactory } from '../../core/sim/agent.js';
import { runEpisode, type EpisodeRun } from '../../core/sim/episode.js';
import { prepareEpisode } from '../../core/world/episode-start.js';
import type { Scenario } from '../../core/world/scenario-types.js';

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

/** Runs one episode of `scenario` with `seed` and a fresh agent from `factory`; agent failures are AgentError. */
export async function runFreshEpisode(factory: AgentFactory, scenario: Scenario, seed: string, watcher?: ChildWatcher): Promise<EpisodeRun> {
  const start = prepareEpisode(scenario, seed);
  const agent = await factory();
  const pid = agentPid(agent);
  if (pid !== undefined) watcher?.started(pid);
  try {
    return await runEpisode(start, agent);
  } finally {
    if (pid !== undefined) watcher?.settled(pid, isAlive(pid));
  }
}
