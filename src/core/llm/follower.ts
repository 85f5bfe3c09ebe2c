/**
 * The planner mode's path follower: turns the model's exit assignments into
 * moves, deterministically, from the observation alone.
 *
 * Rule (adapter version 1.0): for every exit group the follower keeps the
 * fire-aware shortest-path distance of every cell to that exit (4-neighbour
 * steps over floor; walls, burning cells of the current observation and other
 * exits are never entered), recomputed whenever the observed fire changes.
 * Each person takes the first move in the order N, E, S, W that is legal
 * (not a wall, not burning) and lowers its distance to its assigned exit;
 * when there is none it STAYs. Other people are not considered: the
 * environment's movement resolver settles conflicts. A person whose exit
 * cannot be reached STAYs and is reported; the adapter asks the planner
 * again at once when someone lost the exit they could reach when it was
 * assigned (not when it was unreachable from the start).
 */

import { UNREACHABLE, exitDistances } from '../baselines/distance-fields.js';
import { descend } from '../baselines/gradient.js';
import { ObservedWorld } from '../baselines/observed-world.js';
import { ACTIONS, type Action, type ActionSet } from '../sim/actions.js';
import type { Observation } from '../sim/observation.js';
import type { Grid } from '../world/grid.js';
import { exitIds } from './prompt.js';

export interface FollowerStep {
  readonly actions: ActionSet;
  /** Persons whose assigned exit is unreachable from their cell (they STAY). */
  readonly unreachable: readonly string[];
}

export class PathFollower {
  private readonly world: ObservedWorld;
  private readonly exits: readonly (readonly number[])[];
  private readonly fields: (Int32Array | undefined)[];
  private fieldVersion = -1;
  private readonly queue: Int32Array;

  constructor(map: readonly string[]) {
    this.world = new ObservedWorld(map);
    this.exits = exitIds(this.world.grid).map((e) => e.cells);
    this.fields = this.exits.map(() => undefined);
    this.queue = new Int32Array(this.world.size);
  }

  get grid(): Grid {
    return this.world.grid;
  }

  get exitCount(): number {
    return this.exits.length;
  }

  private field(exit: number): Int32Array {
    if (this.fieldVersion !== this.world.burningVersion) {
      this.fields.fill(undefined);
      this.fieldVersion = this.world.burningVersion;
    }
    let field = this.fields[exit];
    if (field === undefined) {
      field = exitDistances(this.world.grid, this.exits[exit]!, this.world.burning, undefined, this.queue);
      this.fields[exit] = field;
    }
    return field;
  }

  /** The moves of one step: `targets` holds the exit index of every active person. */
  step(observation: Observation, targets: ReadonlyMap<string, number>): FollowerStep {
    this.world.update(observation);
    const out: Record<string, Action> = {};
    const unreachable: string[] = [];
    const people = observation.people;
    for (let i = 0; i < people.length; i++) {
      const id = people[i]!.id;
      const exit = targets.get(id);
      if (exit === undefined) throw new RangeError(`no exit assigned to ${id}`);
      const field = this.field(exit);
      const cell = this.world.cells[i]!;
      if (field[cell] === UNREACHABLE) unreachable.push(id);
      out[id] = ACTIONS[descend(this.world, field, null, cell)]!;
    }
    return { actions: out, unreachable };
  }
}
