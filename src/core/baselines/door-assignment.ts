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
import type { Grid } from '../world/grid.js';
import { UNREACHABLE, exitGroups } from './distance-fields.js';
import { ExitField } from './exit-field.js';
import type { FireAwareField } from './fire-aware-shortest-path.js';
import type { ObservedWorld } from './observed-world.js';

/** Above this many doors every person heads for the nearest exit (one field instead of one per door). */
export const MAX_DOORS = 8;
/** A person keeps its previous door while that door costs at most this much more. */
export const STICKY_MARGIN = 1;
/** A person with no route to any exit. */
export const NO_DOOR = -1;

/** The doors of a grid: its exit groups, or all exits as one door when there are more than MAX_DOORS groups. */
export function doorsOf(grid: Grid): number[][] {
  const groups = exitGroups(grid);
  return groups.length > MAX_DOORS ? [grid.exits.slice()] : groups;
}

export class DoorAssignment {
  /** Each door's field (the nearest-exit field itself when there is one door). */
  readonly fields: readonly ExitField[];
  private readonly dists: readonly Int32Array[];
  private readonly dangers: readonly Int32Array[];
  /** Each active person's door this step (person order), or NO_DOOR. */
  door = new Int32Array(16);
  private readonly doors: readonly (readonly number[])[];
  private readonly liveCount: Int32Array;
  private readonly ringStart: Int32Array;
  private readonly ringPtr: Int32Array;
  private readonly ring: Int32Array;
  /** The previous step's people (IDs, person order) and their doors. */
  private readonly previousIds: string[] = [];
  private previousDoors = new Int32Array(16);
  private carried = new Int32Array(16);
  private order = new Int32Array(16);
  /** Counting-sort buckets, one per distance (distances are below the cell count). */
  private readonly counts: Int32Array;

  /** `nearest` must keep its route danger when there is one door (doorsOf(grid).length === 1). */
  constructor(
    private readonly world: ObservedWorld,
    private readonly nearest: FireAwareField,
  ) {
    const grid = world.grid;
    this.doors = doorsOf(grid);
    const single = this.doors.length === 1;
    this.fields = this.doors.map((door) => (single ? nearest.field : new ExitField(grid, door)));
    this.dists = this.fields.map((field) => field.dist);
    this.dangers = this.fields.map((field) => field.danger);
    this.liveCount = new Int32Array(this.doors.length);
    this.ringStart = new Int32Array(this.doors.length);
    this.ringPtr = new Int32Array(this.doors.length);
    let offset = 0;
    this.doors.forEach((door, g) => {
      this.ringStart[g] = offset;
      offset += door.length;
    });
    this.ring = new Int32Array(offset);
    this.counts = new Int32Array(world.size + 2);
  }

  /** Brings the door fields up to date after the fire changed (call after `nearest.refresh()`). */
  refresh(): void {
    const { burning } = this.world;
    const single = this.doors.length === 1;
    const nearest = this.nearest;
    for (let g = 0; g < this.doors.length; g++) {
      let live = 0;
      for (const cell of this.doors[g]!) if (burning[cell] === 0) live++;
      this.liveCount[g] = live;
      if (single) continue;
      if (nearest.incremental) this.fields[g]!.update(this.world.addedList(), nearest.repenalized(), burning, nearest.penalty);
      else this.fields[g]!.rebuild(burning, nearest.penalty);
    }
  }

  /** Assigns every active person of `observation` (already read into the world) a door. */
  assign(observation: Observation): void {
    const { cells, personCount: n } = this.world;
    if (this.door.length < n) {
      this.door = new Int32Array(Math.max(n, this.door.length * 2));
      this.order = new Int32Array(this.door.length);
    }
    const nearestDist = this.nearest.dist;
    const { order, door, ring, ringStart, ringPtr, liveCount, dists, dangers } = this;
    const people = observation.people;
    const doorCount = liveCount.length;
    if (doorCount === 1) {
      // One door: nothing to choose, no queue to model.
      for (let i = 0; i < n; i++) door[i] = nearestDist[cells[i]!] === UNREACHABLE ? NO_DOOR : 0;
      return;
    }
    // Counting sort by nearest-exit distance (stable, so person order breaks ties).
    const counts = this.counts;
    let maxDist = -1;
    for (let i = 0; i < n; i++) {
      const d = nearestDist[cells[i]!]!;
      door[i] = NO_DOOR;
      if (d !== UNREACHABLE && d > maxDist) maxDist = d;
    }
    counts.fill(0, 0, maxDist + 2);
    for (let i = 0; i < n; i++) {
      const d = nearestDist[cells[i]!]!;
      if (d !== UNREACHABLE) counts[d + 1]!++;
    }
    for (let d = 1; d <= maxDist + 1; d++) counts[d]! += counts[d - 1]!;
    const m = maxDist < 0 ? 0 : counts[maxDist + 1]!;
    for (let i = 0; i < n; i++) {
      const d = nearestDist[cells[i]!]!;
      if (d !== UNREACHABLE) order[counts[d]!++] = i;
    }
    ring.fill(0);
    ringPtr.fill(0);
    const previousDoor = this.carryPreviousDoors(observation);
    // Expected exit step plus route danger of door g for a person on `cell`; UNREACHABLE when closed.
    const cost = (g: number, cell: number): number => {
      const walk = dists[g]![cell]!;
      if (walk === UNREACHABLE || liveCount[g] === 0) return UNREACHABLE;
      return Math.max(walk, ring[ringStart[g]! + ringPtr[g]!]! + 1) + dangers[g]![cell]!;
    };
    for (let k = 0; k < m; k++) {
      const i = order[k]!;
      const cell = cells[i]!;
      let best = NO_DOOR;
      let bestCost = 0;
      let bestWalk = 0;
      for (let g = 0; g < doorCount; g++) {
        const c = cost(g, cell);
        if (c === UNREACHABLE) continue;
        const walk = dists[g]![cell]!;
        if (best === NO_DOOR || c < bestCost || (c === bestCost && walk < bestWalk)) {
          best = g;
          bestCost = c;
          bestWalk = walk;
        }
      }
      if (best === NO_DOOR) continue; // unreachable in practice: the nearest exit belongs to a door
      const previous = previousDoor[i]!;
      if (previous !== NO_DOOR && previous !== best) {
        const c = cost(previous, cell);
        if (c !== UNREACHABLE && c <= bestCost + STICKY_MARGIN) best = previous;
      }
      const slot = ringStart[best]! + ringPtr[best]!;
      ring[slot] = Math.max(dists[best]![cell]!, ring[slot]! + 1);
      ringPtr[best] = (ringPtr[best]! + 1) % liveCount[best]!;
      door[i] = best;
    }
    for (let i = 0; i < n; i++) this.previousIds[i] = people[i]!.id;
    this.previousIds.length = n;
    this.previousDoors = ensureCapacity(this.previousDoors, n);
    this.previousDoors.set(door.subarray(0, n));
  }

  /**
   * Each person's door of the previous step (NO_DOOR when it had none).
   * People only ever leave, so the current people are a subsequence of the
   * previous ones in the same order, and one merge walk matches them without
   * a map. Should an ID not be found (an observation not from one episode),
   * nobody from there on carries a door.
   */
  private carryPreviousDoors(observation: Observation): Int32Array {
    const people = observation.people;
    const n = people.length;
    this.carried = ensureCapacity(this.carried, n);
    const ids = this.previousIds;
    let j = 0;
    let lost = false;
    for (let i = 0; i < n; i++) {
      this.carried[i] = NO_DOOR;
      if (lost) continue;
      const id = people[i]!.id;
      while (j < ids.length && ids[j] !== id) j++;
      if (j === ids.length) lost = true;
      else this.carried[i] = this.previousDoors[j++]!;
    }
    return this.carried;
  }
}

function ensureCapacity(array: Int32Array<ArrayBuffer>, length: number): Int32Array<ArrayBuffer> {
  return array.length >= length ? array : new Int32Array(Math.max(length, array.length * 2));
}
