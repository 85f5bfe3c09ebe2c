/**
 * adv-block-scrub: a wrapper that runs another agent and replaces every move
 * the public resolver would block with STAY. By the scrub property
 * (environment.md 4.1) the state trajectory is unchanged; only the blocked
 * moves disappear from the action log. The adversary exists to show that a
 * score reading the action log could be gamed.
 */

import { actionToDirection, isAction, type ActionSet } from '../sim/actions.js';
import type { Agent, AgentFactory } from '../sim/agent.js';
import type { Observation } from '../sim/observation.js';
import { MovePredictor } from '../sim/predict.js';
import { WALL, neighbour, type Direction } from '../world/grid.js';

function isPromiseLike<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Whether every observed person has an in-grid, non-wall action in `actions`
 * (missing persons count as STAY). Other faults (unknown IDs, burning
 * targets) are left to the host's action check; only these would make the
 * resolver throw.
 */
function resolvable(predictor: MovePredictor, observation: Observation, actions: ActionSet): boolean {
  const grid = predictor.grid;
  for (const person of observation.people) {
    const action: unknown = Object.hasOwn(actions, person.id) ? actions[person.id] : 'STAY';
    if (!isAction(action)) return false;
    const dir: Direction = actionToDirection(action);
    const target = neighbour(grid, person.cell[0] * grid.cols + person.cell[1], dir);
    if (target < 0 || grid.kinds[target] === WALL) return false;
  }
  return true;
}

/**
 * Returns `actions` with every move the resolver would block replaced by
 * STAY (a new object with the same keys). An action set the resolver cannot
 * take (a wall or off-grid move, a non-action) comes back unchanged, so the
 * host's action check still rejects it.
 */
export function scrubBlockedMoves(predictor: MovePredictor, observation: Observation, actions: ActionSet): ActionSet {
  if (!resolvable(predictor, observation, actions)) return actions;
  const predicted = predictor.predict(observation, actions);
  let out: Record<string, ActionSet[string]> | undefined;
  for (const move of predicted) {
    if (move.blocked === null) continue;
    out ??= { ...actions };
    out[move.id] = 'STAY';
  }
  return out ?? actions;
}

class BlockScrubAgent implements Agent {
  private predictor: MovePredictor | undefined;

  constructor(private readonly inner: Agent) {}

  act(observation: Observation): ActionSet | Promise<ActionSet> {
    const predictor = (this.predictor ??= new MovePredictor(observation.map));
    const actions = this.inner.act(observation);
    if (isPromiseLike(actions)) return actions.then((a) => scrubBlockedMoves(predictor, observation, a));
    return scrubBlockedMoves(predictor, observation, actions);
  }

  close(): void | Promise<void> {
    return this.inner.close?.();
  }
}

/** Wraps `inner`: every agent it makes scrubs its inner agent's blocked moves. Synchronous when `inner` is. */
export function blockScrubFactory(inner: AgentFactory): AgentFactory {
  return () => {
    const made = inner();
    if (isPromiseLike(made)) return made.then((agent) => new BlockScrubAgent(agent));
    return new BlockScrubAgent(made);
  };
}
