/**
 * static-shortest-path-v1: a wall-only shortest-path field to the nearest
 * exit, computed once from the first observation; each person takes the
 * first legal move (N, E, S, W) onto a cell one step closer, else STAYs.
 * The fire is ignored except that a burning cell is never entered, so
 * people keep heading for an exit that the fire has taken.
 */

import { ACTIONS, type Action, type ActionSet } from '../sim/actions.js';
import type { Agent } from '../sim/agent.js';
import type { Observation } from '../sim/observation.js';
import { wallOnlyDistances } from './distance-fields.js';
import { descend } from './gradient.js';
import { ObservedWorld } from './observed-world.js';

export class StaticShortestPathAgent implements Agent {
  private world: ObservedWorld | undefined;
  private field: Int32Array | undefined;

  act(observation: Observation): ActionSet {
    let world = this.world;
    if (world === undefined) {
      world = this.world = new ObservedWorld(observation.map);
      this.field = wallOnlyDistances(world.grid);
    }
    world.update(observation);
    const field = this.field!;
    const out: Record<string, Action> = {};
    const people = observation.people;
    for (let i = 0; i < people.length; i++) out[people[i]!.id] = ACTIONS[descend(world, field, null, world.cells[i]!)]!;
    return out;
  }
}
