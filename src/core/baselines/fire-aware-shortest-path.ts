/**
 * fire-aware-shortest-path-v1: shortest paths to the nearest non-burning exit
 * through non-wall, non-burning cells, current at every step (repaired
 * incrementally as the fire grows, equal to a fresh search). Each person
 * steps to a neighbour one step closer, or STAYs when no route exists.
 *
 * Refinement: among equally short routes a person takes the one with the
 * least fire danger (routeDanger with FIRE_AWARE_DANGER: cells beside the
 * fire weigh 3, cells at Manhattan distance 2 weigh 1), so it does not brush
 * past the fire when an equally short route keeps away; remaining ties go
 * N, E, S, W.
 */

import { ACTIONS, type Action, type ActionSet } from '../sim/actions.js';
import { ACT_ON_VIEW, type MoveView, type ViewAgent } from '../sim/move-view.js';
import type { Observation } from '../sim/observation.js';
import { UNREACHABLE, lowerManhattanDistances, manhattanDistances } from './distance-fields.js';
import { ExitField } from './exit-field.js';
import { descend } from './gradient.js';
import { ObservedWorld } from './observed-world.js';

/**
 * Danger of entering a cell by its Manhattan distance to the fire (index;
 * the last entry covers every larger distance): 3 beside the fire, where it
 * may ignite in this very fire phase, 1 at distance 2 (the danger zone of
 * the hazard metric), else 0.
 */
export const FIRE_AWARE_DANGER: readonly number[] = [3, 3, 1, 0];

/**
 * The nearest-exit field with its route danger, and the fire proximity it
 * is weighed with, kept per agent. `refresh` after each change of the fire:
 * when the fire only grew it repairs the fields near the new fire
 * (ExitField.update, lowerManhattanDistances), else it recomputes them.
 */
export class FireAwareField {
  /** Distance and route danger to the nearest non-burning exit. */
  readonly field: ExitField;
  /** Manhattan distance to the nearest burning cell, capped at `weights.length - 1`. */
  readonly proximity: Int32Array;
  /** Danger of entering each cell (the weights applied to `proximity`). */
  readonly penalty: Int32Array;
  /** Whether the last refresh was a repair; then `repenalized()` lists the cells whose penalty changed. */
  incremental = false;
  private readonly changed: Int32Array;
  private changedCount = 0;
  private built = false;
  private lags = false;

  /** `withDanger` false leaves `danger` unkept (see ExitField). */
  constructor(
    private readonly world: ObservedWorld,
    private readonly weights: readonly number[] = FIRE_AWARE_DANGER,
    withDanger = true,
  ) {
    const size = world.size;
    this.field = new ExitField(world.grid, world.grid.exits, withDanger);
    this.proximity = new Int32Array(size);
    this.penalty = new Int32Array(size);
    this.changed = new Int32Array(size);
  }

  get dist(): Int32Array {
    return this.field.dist;
  }

  get danger(): Int32Array {
    return this.field.danger;
  }

  /**
   * Whether refreshes were skipped (refreshUnlessCutOff): the fields are
   * those of an earlier, smaller fire, so people who move must be checked
   * again even when the fire did not change.
   */
  get lagging(): boolean {
    return this.lags;
  }

  /** The cells whose penalty the last repair changed (a view valid until the next refresh). */
  repenalized(): Int32Array {
    return this.changed.subarray(0, this.changedCount);
  }

  /**
   * `refresh()`, skipped while the fire only grows and each of the first
   * `count` people in `cells` is cut off from every exit by the fields as
   * they stand. Distances only grow with the fire, so such a person stays
   * cut off, and STAYs, whatever a repair would give. The repair then
   * waits until someone could use it, and is a rebuild (equal to the
   * repairs, as a property test checks). A room of stranded people beside
   * a growing fire otherwise paid for repairing the whole floor every step.
   * For callers that read only `dist` and `danger` (not `incremental` or
   * `repenalized()`).
   */
  refreshUnlessCutOff(cells: Int32Array, count: number): void {
    if (this.built && this.world.grewOnly && allCutOff(this.field.dist, cells, count)) {
      this.lags = true;
      return;
    }
    if (this.lags) {
      this.built = false;
      this.lags = false;
    }
    this.refresh();
  }

  /** Brings everything up to date with the world's current burning set. */
  refresh(): void {
    const world = this.world;
    const { grid, burning, size } = world;
    const { proximity, penalty, weights, changed } = this;
    const cap = weights.length - 1;
    this.incremental = world.grewOnly && this.built;
    if (this.incremental) {
      const lowered = lowerManhattanDistances(grid, world.addedList(), cap, proximity, changed);
      // Only the cells whose penalty changed: a cell can come nearer the fire
      // at the same weight (beside it and two away both weigh the most).
      let count = 0;
      for (let k = 0; k < lowered; k++) {
        const cell = changed[k]!;
        const weight = weights[proximity[cell]!]!;
        if (weight === penalty[cell]) continue;
        penalty[cell] = weight;
        changed[count++] = cell;
      }
      this.changedCount = count;
      this.field.update(world.addedList(), this.repenalized(), burning, penalty);
    } else {
      manhattanDistances(grid, world.burningList(), cap, proximity, changed);
      for (let cell = 0; cell < size; cell++) penalty[cell] = weights[proximity[cell]!]!;
      this.changedCount = 0;
      this.field.rebuild(burning, penalty);
      this.built = true;
    }
  }
}

function allCutOff(dist: Int32Array, cells: Int32Array, count: number): boolean {
  for (let i = 0; i < count; i++) if (dist[cells[i]!] !== UNREACHABLE) return false;
  return true;
}

export class FireAwareShortestPathAgent implements ViewAgent {
  private world: ObservedWorld | undefined;
  private field: FireAwareField | undefined;

  act(observation: Observation): ActionSet {
    const world = (this.world ??= new ObservedWorld(observation.map));
    const field = (this.field ??= new FireAwareField(world));
    if (world.update(observation) || field.lagging) field.refreshUnlessCutOff(world.cells, observation.people.length);
    const out: Record<string, Action> = {};
    const people = observation.people;
    for (let i = 0; i < people.length; i++) {
      out[people[i]!.id] = ACTIONS[descend(world, field.dist, field.danger, world.cells[i]!)]!;
    }
    return out;
  }

  [ACT_ON_VIEW](view: MoveView, moves: Uint8Array): void {
    const world = (this.world ??= new ObservedWorld(view.map));
    const field = (this.field ??= new FireAwareField(world));
    if (world.updateFromView(view) || field.lagging) field.refreshUnlessCutOff(world.cells, view.count);
    for (let i = 0; i < view.count; i++) moves[i] = descend(world, field.dist, field.danger, world.cells[i]!);
  }
}
