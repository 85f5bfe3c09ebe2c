/**
 * The agent contract (model interface): a zero-argument factory builds a
 * fresh agent for every episode; `act` sees only the observation.
 */

import type { ActionSet } from './actions.js';
import type { Observation } from './observation.js';

export interface Agent {
  act(observation: Observation): ActionSet | Promise<ActionSet>;
  /** Called once when the episode ends (for hosts that own a process). */
  close?(): void | Promise<void>;
}

export type AgentFactory = () => Agent | Promise<Agent>;
