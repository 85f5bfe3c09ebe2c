/**
 * The in-process fast path of the built-in agents: instead of the JSON
 * observation and an action set keyed by person-ID strings, an agent that
 * has the `ACT_ON_VIEW` method reads a MoveView (typed arrays indexed by
 * active-person position) and writes one direction code per active person.
 *
 * Building an observation (one object per person) and checking an action
 * set (one string-keyed property per person) cost more than the simulation
 * step itself, so the built-in agents take this path when the runner drives
 * them. The information is exactly the observation's: the fire enters only
 * as B(step) minus B(step - 1), never as future ignition steps, and the
 * moves still go through the action check. The key is a symbol, so an agent
 * written against the documented interface (`act(observation)`) never takes
 * this path by accident; observations and action sets stay the default.
 */

import type { Agent } from './agent.js';

export const ACT_ON_VIEW: unique symbol = Symbol('ember.actOnView');

/** Snapshot t as an in-process agent reads it. Arrays are scratch copies, valid until the next step. */
export interface MoveView {
  readonly step: number;
  readonly maxSteps: number;
  readonly map: readonly string[];
  /** Number of active persons. */
  readonly count: number;
  /** Person index of each active person, in person order (ID = personId(index)); `count` are valid. */
  readonly persons: Int32Array;
  /** Cell of each active person, row-major index; `count` are valid. */
  readonly cells: Int32Array;
  /** B(step) minus B(step - 1), ascending (B(0) at step 0). */
  readonly added: Int32Array;
  readonly evacuated: number;
  readonly dead: number;
}

export interface ViewAgent extends Agent {
  /**
   * Writes the direction code (STAY N E S W = 0..4) of each active person,
   * in person order, into `moves` (length `view.count`, zero-filled). Called
   * once per snapshot, in order, from step 0: `view.added` is a delta.
   * The proxy of an agent in another process returns a promise instead:
   * it resolves to undefined once `moves` are written, or to the agent's
   * action set, which then takes act's action check (episode.ts).
   */
  [ACT_ON_VIEW](view: MoveView, moves: Uint8Array): void | PromiseLike<unknown>;
}

export function isViewAgent(agent: Agent): agent is ViewAgent {
  return typeof (agent as Partial<ViewAgent>)[ACT_ON_VIEW] === 'function';
}
