/**
 * The episode runner: drives one episode with one fresh agent through the
 * single simulator path (observe, act, action check, step) and builds its
 * run record from the step events.
 */

import { AgentError, EmberError, ModelOutputError } from '../errors.js';
import type { EpisodeStart } from '../world/scenario-types.js';
import type { Agent } from './agent.js';
import { stepArraysRecyclable, type EpisodeObserver, type EpisodeOutcome } from './events.js';
import { ACT_ON_VIEW, isViewAgent, type ViewAgent } from './move-view.js';
import type { Observation } from './observation.js';
import { RecordBuilder, type RunRecord } from './record.js';
import { EpisodeSimulation } from './simulation.js';

export interface EpisodeRun {
  readonly record: RunRecord;
  readonly outcome: EpisodeOutcome;
}

// Agents that have started an episode. A factory must build a fresh agent
// for every episode (cli-v1.0.md "Agent factories"); state carried from an
// earlier episode would let an agent learn the fire of a seed.
const usedAgents = new WeakSet<object>();

function claimAgent(agent: unknown): Agent {
  if (typeof agent !== 'object' || agent === null || typeof (agent as Partial<Agent>).act !== 'function') {
    throw new AgentError('model_error', 'the factory returned a value without an act(observation) method');
  }
  if (usedAgents.has(agent)) {
    throw new AgentError('model_error', 'the factory returned an agent that was already used for an earlier episode');
  }
  usedAgents.add(agent);
  return agent as Agent;
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** An error thrown by the agent, as an AgentError (an AgentError is kept as it is). */
function asAgentError(error: unknown, during: string): AgentError {
  if (error instanceof AgentError) return error;
  // Any other benchmark error from agent code is still the agent's failure.
  const kind = error instanceof EmberError ? `${error.name}: ` : '';
  return new AgentError('model_error', `the agent raised ${during}: ${kind}${errorText(error)}`);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * Runs one episode. `act` may return a promise; a synchronous agent is not
 * awaited (no microtask per step). An in-process agent with the
 * `ACT_ON_VIEW` method (the built-in baselines) is driven through it
 * instead of act (move-view.ts); its moves take the same action check.
 * Observers get every step event and the outcome, after the run record has
 * taken them.
 */
export async function runEpisode(start: EpisodeStart, agent: Agent, observers: readonly EpisodeObserver[] = []): Promise<EpisodeRun> {
  const claimed = claimAgent(agent);
  const sim = new EpisodeSimulation(start);
  const builder = new RecordBuilder(start);
  let failed = false;
  // The record builder keeps strings, not the events' arrays; observers might keep them unless they say otherwise.
  if (stepArraysRecyclable(observers)) sim.arena.recycle();
  try {
    const viaView = isViewAgent(claimed);
    while (!sim.done) {
      let moves: Uint8Array;
      if (viaView) {
        const fast = actOnView(sim, claimed);
        moves = fast instanceof Uint8Array ? fast : await fast;
      } else {
        const observation: Observation = sim.observe();
        let output: unknown;
        try {
          output = claimed.act(observation);
          if (isThenable(output)) output = await output;
        } catch (error) {
          throw asAgentError(error, `in act at step ${observation.step}`);
        }
        moves = checkOutput(sim, output, observation.step);
      }
      const event = sim.step(moves);
      builder.onStep(event);
      for (const observer of observers) observer.onStep(event);
      sim.arena.stepDone();
    }
    const outcome = sim.outcome();
    builder.onEnd(outcome);
    for (const observer of observers) observer.onEnd(outcome);
    return { record: builder.record(), outcome };
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    await closeAgent(claimed, failed);
  }
}

/** The action check of an action set (the documented interface). */
function checkOutput(sim: EpisodeSimulation, output: unknown, step: number): Uint8Array {
  try {
    return sim.checkActions(output);
  } catch (error) {
    if (error instanceof ModelOutputError) throw new ModelOutputError(`step ${step}: ${error.message}`);
    // Reading the action set ran agent code (a getter or proxy) that raised.
    throw asAgentError(error, `while its action set was read at step ${step}`);
  }
}

/**
 * One step of an agent on the fast path (move-view.ts): the same action
 * check, on direction codes. A synchronous agent is not awaited; an agent
 * whose view method returns a promise (a remote agent's proxy) is, and when
 * that promise resolves to an action set instead of undefined, the set takes
 * act's action check (so an invalid answer gets act's exact error).
 */
function actOnView(sim: EpisodeSimulation, agent: ViewAgent): Uint8Array | Promise<Uint8Array> {
  const view = sim.view();
  const moves = sim.arena.uint8(view.count);
  let pending: unknown;
  try {
    pending = agent[ACT_ON_VIEW](view, moves);
  } catch (error) {
    throw asAgentError(error, `in act at step ${view.step}`);
  }
  if (isThenable(pending)) return settleView(sim, pending, moves, view.step);
  return checkedMoves(sim, moves, view.step);
}

async function settleView(sim: EpisodeSimulation, pending: PromiseLike<unknown>, moves: Uint8Array, step: number): Promise<Uint8Array> {
  let output: unknown;
  try {
    output = await pending;
  } catch (error) {
    throw asAgentError(error, `in act at step ${step}`);
  }
  return output === undefined ? checkedMoves(sim, moves, step) : checkOutput(sim, output, step);
}

function checkedMoves(sim: EpisodeSimulation, moves: Uint8Array, step: number): Uint8Array {
  try {
    sim.checkMoves(moves);
  } catch (error) {
    if (error instanceof ModelOutputError) throw new ModelOutputError(`step ${step}: ${error.message}`);
    throw error;
  }
  return moves;
}

async function closeAgent(agent: Agent, failed: boolean): Promise<void> {
  if (typeof agent.close !== 'function') return;
  try {
    await agent.close();
  } catch (error) {
    // After a failure the first error is the one that counts.
    if (!failed) throw asAgentError(error, 'in close');
  }
}
