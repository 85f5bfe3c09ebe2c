/**
 * nearest-exit-greedy-v1: each person takes the first legal move (N, E, S, W)
 * that lowers the Manhattan distance (walls ignored) to the nearest exit,
 * else STAYs. "Exit" means every exit of the map, burning or not: like
 * static-shortest-path-v1, this baseline plans on the static map only, and
 * the fire enters only through legality (it never steps onto a burning cell).
 */

import { ACTIONS, type Action, type ActionSet } from '../sim/actions.js';
import type { Agent } from '../sim/agent.js';
import type { Observation } from '../sim/observation.js';
import { manhattanDistances } from './distance-fields.js';
import { descend } from './gradient.js';
import { ObservedWorld } from './observed-world.js';

export class NearestExitGreedyAgent implements Agent {
  private world: ObservedWorld | undefined;
  private field: Int32Array | undefined;

  act(observation: Observation): ActionSet {
    let world = this.world;
    if (world === undefined) {
      world = this.world = new ObservedWorld(observation.map);
      this.field = manhattanDistances(world.grid, world.grid.exits);
    }
    world.update(observation);
    const field = this.field!;
    const out: Record<string, Action> = {};
    const people = observation.people;
    for (let i = 0; i < people.length; i++) out[people[i]!.id] = ACTIONS[descend(world, field, null, world.cells[i]!)]!;
    return out;
  }
}
