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
import { descend } from './gradient.js';
import { ObservedWorld } from './observed-world.js';

// Fields by how they are built and by grid: a static field is a function of
// the map alone, which only descend reads, so the episodes of a scenario
// (which share their grid: observed-world.ts) share one.
const FIELDS = new WeakMap<(grid: Grid) => Int32Array, WeakMap<Grid, Int32Array>>();

function sharedField(build: (grid: Grid) => Int32Array, grid: Grid): Int32Array {
  let byGrid = FIELDS.get(build);
  if (byGrid === undefined) {
    byGrid = new WeakMap();
    FIELDS.set(build, byGrid);
  }
  let field = byGrid.get(grid);
  if (field === undefined) {
    field = build(grid);
    byGrid.set(grid, field);
  }
  return field;
}

export class StaticFieldAgent implements ViewAgent {
  private world: ObservedWorld | undefined;
  private field: Int32Array | undefined;

  /** `buildField` a function made once (not per agent): fields are shared by it. */
  constructor(private readonly buildField: (grid: Grid) => Int32Array) {}

  act(observation: Observation): ActionSet {
    const world = this.worldFor(observation.map);
    world.update(observation);
    const field = this.field!;
    const out: Record<string, Action> = {};
    const people = observation.people;
    for (let i = 0; i < people.length; i++) out[people[i]!.id] = ACTIONS[descend(world, field, null, world.cells[i]!)]!;
    return out;
  }

  [ACT_ON_VIEW](view: MoveView, moves: Uint8Array): void {
    const world = this.worldFor(view.map);
    world.updateFromView(view);
    const field = this.field!;
    for (let i = 0; i < view.count; i++) moves[i] = descend(world, field, null, world.cells[i]!);
  }

  private worldFor(map: readonly string[]): ObservedWorld {
    let world = this.world;
    if (world === undefined) {
      world = this.world = new ObservedWorld(map);
      this.field = sharedField(this.buildField, world.grid);
    }
    return world;
  }
}
