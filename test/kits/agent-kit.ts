import { existsSync } from 'node:fs';
/** Shared helpers of the agent host tests (not part of the build). */

import { AgentError } from '../../src/core/errors.js';
import type { Agent } from '../../src/core/sim/agent.js';
import { recordText, type RunRecord } from '../../src/core/sim/record.js';
import { runEpisode } from '../../src/core/sim/episode.js';
import type { EpisodeStart } from '../../src/core/world/scenario-types.js';

/** Whether a process with this pid still exists. */
export function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The AgentError a promise rejects with; anything else fails the test. */
export async function failure(promise: Promise<unknown>): Promise<AgentError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AgentError) return error;
    throw error;
  }
  throw new Error('expected an AgentError, but the call succeeded');
}

/** The same agent without its view method: the runner drives it through act(observation). */
export function actOnly(agent: Agent): Agent {
  return { act: (observation) => agent.act(observation), close: () => agent.close?.() };
}

/** How an episode ended: its record text, or its error's class, kind and message. */
export async function ending(run: Promise<{ record: RunRecord }>): Promise<string> {
  try {
    return recordText((await run).record);
  } catch (error) {
    const failure = (error as { failure?: unknown }).failure;
    return `${(error as Error).name} ${String(failure)}: ${(error as Error).message}`;
  }
}

/** How the episode ends with a fresh agent on the view path and with another on the act path. */
export async function endingsOfBothPaths(start: EpisodeStart, factory: () => Agent | Promise<Agent>): Promise<{ viaView: string; viaAct: string }> {
  const viaView = await ending(runEpisode(start, await factory()));
  const viaAct = await ending(runEpisode(start, actOnly(await factory())));
  return { viaView, viaAct };
}

/**
 * The Python for tests of sandboxed command agents: under a root evaluator
 * agents run as uid 65534, which cannot reach a pyenv under /root (the
 * sandbox then refuses, by name); the system Python it can.
 */
export const TEST_PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
