/** always-stay: every active person STAYs (the floor of the baseline ladder). */

import type { Action, ActionSet } from '../sim/actions.js';
import type { Agent } from '../sim/agent.js';
import type { Observation } from '../sim/observation.js';

export class AlwaysStayAgent implements Agent {
  act(observation: Observation): ActionSet {
    const out: Record<string, Action> = {};
    for (const person of observation.people) out[person.id] = 'STAY';
    return out;
  }
}
