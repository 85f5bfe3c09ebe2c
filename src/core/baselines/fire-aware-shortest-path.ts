/**
 * fire-aware-shortest-path-v1: shortest paths to the nearest non-burning exit
 * through non-wall, non-burning cells, recomputed whenever the observed fire
 * changes (the fire only grows, so that is every step it spreads). Each
 * person steps to a neighbour one step closer, or STAYs when no route exists.
 *
 * Refinement: among equally short routes a person takes the one with the
 * least fire danger (routeDanger with FIRE_AWARE_DANGER: cells beside the
 * fire weigh 3, cells at Manhattan distance 2 weigh 1), so it does not brush past the fire when an
 * equally short route keeps away; remaining ties go N, E, S, W.
 */

import { ACTIONS, type Action, type ActionSet } from '../sim/actions.js';
import type { Agent } from '../sim/agent.js';
import type { Observation } from '../sim/observation.js';
import { exitSearch, manhattanDistances, routeDanger } from './distance-fields.js';
import { descend } from './gradient.js';
import { ObservedWorld } from './observed-world.js';

/**
 * Danger of entering a cell by its Manhattan distance to the fire (index;
 * the last entry covers every larger distance): 3 beside the fire, where it
 * may ignite in this very fire phase, 1 at distance 2 (the danger zone of
 * the hazard metric), else 0.
 */
export const FIRE_AWARE_DANGER: readonly number[] = [3, 3, 1, 0];

/** The nearest-exit field, fire proximity and route danger, kept per agent and refreshed when the fire changes. */
export class FireAwareField {
  readonly dist: Int32Array;
  readonly danger: Int32Array;
  /** Manhattan distance to the nearest burning cell, capped at `weights.length - 1`. */
  readonly proximity: Int32Array;
  /** Danger of entering each cell (the weights applied to `proximity`). */
  readonly penalty: Int32Array;
  private readonly order: Int32Array;
  private readonly queue: Int32Array;

  constructor(
    private readonly world: ObservedWorld,
    private readonly weights: readonly number[] = FIRE_AWARE_DANGER,
  ) {
    const size = world.size;
    this.dist = new Int32Array(size);
    this.danger = new Int32Array(size);
    this.proximity = new Int32Array(size);
    this.penalty = new Int32Array(size);
    this.order = new Int32Array(size);
    this.queue = new Int32Array(size);
  }

  /** Recomputes everything from the world's current burning set. */
  refresh(): void {
    const { grid, burning, size } = this.world;
    const { proximity, penalty, weights } = this;
    manhattanDistances(grid, this.world.burningList(), weights.length - 1, proximity, this.queue);
    for (let cell = 0; cell < size; cell++) penalty[cell] = weights[proximity[cell]!]!;
    const reached = exitSearch(grid, grid.exits, burning, this.dist, this.order);
    routeDanger(grid, this.dist, this.order, reached, penalty, this.danger);
  }
}

export class FireAwareShortestPathAgent implements Agent {
  private world: ObservedWorld | undefined;
  private field: FireAwareField | undefined;

  act(observation: Observation): ActionSet {
    const world = (this.world ??= new ObservedWorld(observation.map));
    const field = (this.field ??= new FireAwareField(world));
    if (world.update(observation)) field.refresh();
    const out: Record<string, Action> = {};
    const people = observation.people;
    for (let i = 0; i < people.length; i++) {
      out[people[i]!.id] = ACTIONS[descend(world, field.dist, field.danger, world.cells[i]!)]!;
    }
    return out;
  }
}
