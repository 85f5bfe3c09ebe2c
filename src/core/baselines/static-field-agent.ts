/**
 * An agent that follows one distance field computed once from the map: each
 * person takes the first legal move (N, E, S, W) onto a cell with a smaller
 * value, else STAYs. The fire enters only through legality. The static
 * baselines differ only in the field.
 */

import { ACTIONS, type Action, type ActionSet } from '../sim/actions.js';
import { ACT_ON_VIEW, type MoveView, type ViewAgent } from '../sim/move-view.js';
import type { Observation } from '../sim/observation.js';
import type { Grid } from '../world/grid.js';
import { WeakCache } from '../weak-cache.js';
import { descentMoves } from './gradient.js';
import { ObservedWorld } from './observed-world.js';

// The descents of each static field (gradient.ts descentMoves), by how the
// field is built and by grid: a static field is a function of the map alone,
// so the episodes of a scenario (which share their grid: observed-world.ts)
// share them.
const DESCENTS = new WeakCache((build: (grid: Grid) => Int32Array) => new WeakCache((grid: Grid) => descentMoves(grid, build(grid))));

/**
 * Moves as descend(world, field, null, cell) would, from the moves the field
 * allows at each cell, computed once: only the fire is checked per person.
 */
export class StaticFieldAgent implements ViewAgent {
  private world: ObservedWorld | undefined;
  private descents: Uint8Array | undefined;

  /** `buildField` a function made once (not per agent): fields are shared by it. */
  constructor(private readonly buildField: (grid: Grid) => Int32Array) {}

  act(observation: Observation): ActionSet {
    const world = this.worldFor(observation.map);
    world.update(observation);
    const descents = this.descents!;
    const out: Record<string, Action> = {};
    const people = observation.people;
    for (let i = 0; i < people.length; i++) {
      const cell = world.cells[i]!;
      out[people[i]!.id] = ACTIONS[world.firstUnburning(cell, descents[cell]!)]!;
    }
    return out;
  }

  [ACT_ON_VIEW](view: MoveView, moves: Uint8Array): void {
    const world = this.worldFor(view.map);
    world.updateFromView(view);
    const descents = this.descents!;
    const cells = world.cells;
    for (let i = 0; i < view.count; i++) {
      const cell = cells[i]!;
      moves[i] = world.firstUnburning(cell, descents[cell]!);
    }
  }

  private worldFor(map: readonly string[]): ObservedWorld {
    let world = this.world;
    if (world === undefined) {
      world = this.world = new ObservedWorld(map);
      this.descents = DESCENTS.get(this.buildField).get(world.grid);
    }
    return world;
  }
}
