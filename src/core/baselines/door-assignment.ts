/**
 * Exit assignment by expected queue, for congestion-aware-v1.
 *
 * Exits are grouped into doors (4-connected exit cells, exitGroups); a door
 * with w non-burning cells lets w people out per step. People are taken in
 * order of their fire-aware distance to the nearest exit (then person
 * order). For each door g the expected exit step is
 * eta_g = max(d_g, slot_g + 1), where d_g is the fire-aware distance to the
 * door and slot_g the step given to the person w places earlier in that
 * door's queue; the cost is eta_g + the least route danger to the door (so a
 * shorter queue is not bought with a walk past the fire). Each person takes
 * the cheapest door (ties: shorter walk, then door order), but keeps last
 * step's door while it costs at most STICKY_MARGIN more, so that assignments
 * do not flap. With more than MAX_DOORS doors all exits form one door (the
 * nearest-exit field), which bounds the per-step cost.
 */

import type { Observation } from '../sim/observation.js';
import { UNREACHABLE, exitGroups, exitSearch, routeDanger } from './distance-fields.js';
import type { FireAwareField } from './fire-aware-shortest-path.js';
import type { ObservedWorld } from './observed-world.js';

/** Above this many doors every person heads for the nearest exit (one field instead of one per door). */
export const MAX_DOORS = 8;
/** A person keeps its previous door while that door costs at most this much more. */
export const STICKY_MARGIN = 1;
/** A person with no route to any exit. */
export const NO_DOOR = -1;

/** Sort keys pack (distance, person index) exactly into one double (integers below 2^53). */
const INDEX_RANGE = 0x100000;

export class DoorAssignment {
  /** Distance to each door, per door (the nearest-exit field itself when there is one door). */
  readonly doorDist: Int32Array[];
  /** Least route danger to each door, per door. */
  readonly doorDanger: Int32Array[];
  /** Each active person's door this step (person order), or NO_DOOR. */
  door = new Int32Array(16);
  private readonly doors: readonly (readonly number[])[];
  private readonly liveExits: Int32Array;
  private readonly liveCount: Int32Array;
  private readonly ringStart: Int32Array;
  private readonly ringPtr: Int32Array;
  private readonly ring: Int32Array;
  private readonly order: Int32Array;
  private readonly previousDoor = new Map<string, number>();
  private keys = new Float64Array(16);

  constructor(
    private readonly world: ObservedWorld,
    private readonly nearest: FireAwareField,
  ) {
    const { grid, size } = world;
    const groups = exitGroups(grid);
    this.doors = groups.length > MAX_DOORS ? [grid.exits.slice()] : groups;
    const single = this.doors.length === 1;
    this.doorDist = this.doors.map(() => (single ? nearest.dist : new Int32Array(size)));
    this.doorDanger = this.doors.map(() => (single ? nearest.danger : new Int32Array(size)));
    this.liveExits = new Int32Array(grid.exits.length);
    this.liveCount = new Int32Array(this.doors.length);
    this.ringStart = new Int32Array(this.doors.length);
    this.ringPtr = new Int32Array(this.doors.length);
    let offset = 0;
    this.doors.forEach((door, g) => {
      this.ringStart[g] = offset;
      offset += door.length;
    });
    this.ring = new Int32Array(offset);
    this.order = new Int32Array(size);
  }

  /** Recomputes the door fields after the fire changed (call after `nearest.refresh()`). */
  refresh(): void {
    const { grid, burning } = this.world;
    const single = this.doors.length === 1;
    for (let g = 0; g < this.doors.length; g++) {
      let live = 0;
      for (const cell of this.doors[g]!) if (burning[cell] === 0) this.liveExits[live++] = cell;
      this.liveCount[g] = live;
      if (single) continue;
      const reached = exitSearch(grid, this.liveExits.subarray(0, live), burning, this.doorDist[g]!, this.order);
      routeDanger(grid, this.doorDist[g]!, this.order, reached, this.nearest.penalty, this.doorDanger[g]!);
    }
  }

  /** Assigns every active person of `observation` (already read into the world) a door. */
  assign(observation: Observation): void {
    const { cells, personCount: n } = this.world;
    if (this.door.length < n) {
      this.door = new Int32Array(Math.max(n, this.door.length * 2));
      this.keys = new Float64Array(this.door.length);
    }
    const nearestDist = this.nearest.dist;
    const { keys, door, ring, ringStart, ringPtr, liveCount } = this;
    let m = 0;
    for (let i = 0; i < n; i++) {
      const d = nearestDist[cells[i]!]!;
      door[i] = NO_DOOR;
      if (d !== UNREACHABLE) keys[m++] = d * INDEX_RANGE + i;
    }
    keys.subarray(0, m).sort();
    ring.fill(0);
    ringPtr.fill(0);
    const people = observation.people;
    for (let k = 0; k < m; k++) {
      const i = keys[k]! % INDEX_RANGE;
      const cell = cells[i]!;
      let best = NO_DOOR;
      let bestCost = 0;
      let bestWalk = 0;
      for (let g = 0; g < liveCount.length; g++) {
        const cost = this.cost(g, cell);
        if (cost === UNREACHABLE) continue;
        const walk = this.doorDist[g]![cell]!;
        if (best === NO_DOOR || cost < bestCost || (cost === bestCost && walk < bestWalk)) {
          best = g;
          bestCost = cost;
          bestWalk = walk;
        }
      }
      if (best === NO_DOOR) continue; // unreachable in practice: the nearest exit belongs to a door
      const id = people[i]!.id;
      const previous = this.previousDoor.get(id);
      if (previous !== undefined && previous !== best && previous < liveCount.length) {
        const cost = this.cost(previous, cell);
        if (cost !== UNREACHABLE && cost <= bestCost + STICKY_MARGIN) best = previous;
      }
      const slot = ringStart[best]! + ringPtr[best]!;
      ring[slot] = Math.max(this.doorDist[best]![cell]!, ring[slot]! + 1);
      ringPtr[best] = (ringPtr[best]! + 1) % liveCount[best]!;
      door[i] = best;
      if (previous !== best) this.previousDoor.set(id, best);
    }
  }

  /** Expected exit step plus route danger of door `g` for a person on `cell`; UNREACHABLE when closed. */
  private cost(g: number, cell: number): number {
    if (this.liveCount[g] === 0) return UNREACHABLE;
    const walk = this.doorDist[g]![cell]!;
    if (walk === UNREACHABLE) return UNREACHABLE;
    const eta = Math.max(walk, this.ring[this.ringStart[g]! + this.ringPtr[g]!]! + 1);
    return eta + this.doorDanger[g]![cell]!;
  }
}
