/** always-stay: every active person STAYs (the floor of the baseline ladder). */

import type { Action, ActionSet } from '../sim/actions.js';
import { ACT_ON_VIEW, type ViewAgent } from '../sim/move-view.js';
import type { Observation } from '../sim/observation.js';

export class AlwaysStayAgent implements ViewAgent {
  act(observation: Observation): ActionSet {
    const out: Record<string, Action> = {};
    for (const person of observation.people) out[person.id] = 'STAY';
    return out;
  }

  /** The moves come zero-filled: everyone already STAYs. */
  [ACT_ON_VIEW](): void {}
}
