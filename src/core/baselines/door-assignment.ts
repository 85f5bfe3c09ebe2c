/**
 * Exit assignment by expected queue, for congestion-aware-v1.
 *
 * Exits are grouped into doors (4-connected exit cells, exitGroups); a door
 * with w non-burning cells lets w people out per step. Each door keeps a
 * queue of the people given to it so far (ReleaseQueue: people arrive at
 * their fire-aware walk d_g and leave w per step, first come first served).
 * A person's cost at door g is the queue's last exit step if it joined (its
 * marginal cost: its own exit step, or the step by which everyone behind it
 * is pushed back) + the least route danger to the door (so a shorter queue is
 * not bought with a walk past the fire). Each person takes the cheapest door
 * (ties: shorter walk, then door order), but keeps last step's door while it
 * costs at most STICKY_MARGIN more, so that assignments do not flap.
 *
 * People are taken most committed first: by decreasing regret (how much
 * more the second-cheapest door costs than the cheapest, without queues),
 * so the queues fill with those who have no real choice and the flexible
 * people balance them at the end. (Taken by distance to the nearest exit,
 * the people who switch are whoever is farthest from the near door, often
 * people with a long walk to the other door too, and a running "last slot
 * + 1" then overstates the far queue; both sent people back and forth.)
 * With more than MAX_DOORS doors all exits form one door (the nearest-exit
 * field), which bounds the per-step cost: O(people (doors + log distance))
 * (the order is two counting sorts; a queue answers a door's cost in O(1)
 * and takes a person in O(log distance)).
 */

import type { Observation } from '../sim/observation.js';
import type { Grid } from '../world/grid.js';
import { CommitmentOrder, MAX_REGRET } from './commitment-order.js';
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
  /** Each door's queue of the people assigned so far this step. */
  private readonly queues: ReleaseQueue[];
  /** The previous step's people (person numbers, in person order) and their doors. */
  private previousPersons = new Int32Array(16);
  private previousCount = 0;
  private previousDoors = new Int32Array(16);
  private carried = new Int32Array(16);
  private order = new Int32Array(16);
  /** Per person (person order) and door: its walk (UNREACHABLE when it cannot use the door) and route danger. */
  private walkOf = new Int32Array(16);
  private dangerOf = new Int32Array(16);
  /** Orders the people by regret, walk and person. */
  private readonly commitment = new CommitmentOrder();

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
    this.queues = this.doors.map(() => new ReleaseQueue());
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

  /** Person numbers of the IDs seen in observations (the fast path gets person indices directly). */
  private readonly numberOfId = new Map<string, number>();
  private idNumbers = new Int32Array(16);

  /** Assigns every active person of `observation` (already read into the world) a door. */
  assign(observation: Observation): void {
    const people = observation.people;
    const n = people.length;
    this.idNumbers = ensureCapacity(this.idNumbers, n);
    const numbers = this.numberOfId;
    for (let i = 0; i < n; i++) {
      const id = people[i]!.id;
      let number = numbers.get(id);
      if (number === undefined) numbers.set(id, (number = numbers.size));
      this.idNumbers[i] = number;
    }
    this.assignPersons(this.idNumbers);
  }

  /**
   * Assigns every active person (already read into the world) a door;
   * `persons` numbers them (equal numbers, equal persons across steps),
   * in person order.
   */
  assignPersons(persons: Int32Array): void {
    const { cells, personCount: n } = this.world;
    if (this.door.length < n) {
      this.door = new Int32Array(Math.max(n, this.door.length * 2));
      this.order = new Int32Array(this.door.length);
    }
    const nearestDist = this.nearest.dist;
    const { order, door, queues, liveCount, dists, dangers } = this;
    const doorCount = liveCount.length;
    if (doorCount === 1) {
      // One door: nothing to choose, no queue to model.
      for (let i = 0; i < n; i++) door[i] = nearestDist[cells[i]!] === UNREACHABLE ? NO_DOOR : 0;
      return;
    }
    // Order: most committed first (see above); people with one reachable
    // door have the largest regret. Ties: nearer the nearest exit first, then
    // person order.
    const commitment = this.commitment;
    commitment.reserve(n);
    const { person: orderPerson, regret: orderRegret, walk: orderWalk } = commitment;
    // Each person's walk and route danger to every door, gathered once here
    // (walk UNREACHABLE for a door it cannot use: unreachable or closed) for
    // the second pass, which then reads one person's doors side by side
    // rather than one cell of every door field again.
    this.walkOf = ensureCapacity(this.walkOf, n * doorCount);
    this.dangerOf = ensureCapacity(this.dangerOf, n * doorCount);
    const { walkOf, dangerOf } = this;
    let m = 0;
    let maxWalk = 0;
    for (let i = 0; i < n; i++) {
      door[i] = NO_DOOR;
      const cell = cells[i]!;
      const d = nearestDist[cell]!;
      if (d === UNREACHABLE) continue;
      if (d > maxWalk) maxWalk = d;
      let first = UNREACHABLE;
      let second = UNREACHABLE;
      const base = i * doorCount;
      for (let g = 0; g < doorCount; g++) {
        let walk = dists[g]![cell]!;
        if (liveCount[g] === 0) walk = UNREACHABLE;
        walkOf[base + g] = walk;
        if (walk === UNREACHABLE) continue;
        const danger = dangers[g]![cell]!;
        dangerOf[base + g] = danger;
        if (walk > maxWalk) maxWalk = walk;
        const c = walk + danger;
        if (c < first) {
          second = first;
          first = c;
        } else if (c < second) second = c;
      }
      const regret = second === UNREACHABLE ? MAX_REGRET : Math.min(second - first, MAX_REGRET);
      orderPerson[m] = i;
      orderRegret[m] = regret;
      orderWalk[m++] = d;
    }
    commitment.sort(m, order);
    for (let g = 0; g < doorCount; g++) queues[g]!.reset(maxWalk, liveCount[g]!);
    const previousDoor = this.carryPreviousDoors(persons, n);
    // A door's cost for a person: its expected exit step (the queue's tail
    // if it joined) plus the route danger; a door it cannot use is skipped.
    // Inlined rather than a closure: the closure's captured context slowed
    // the whole loop.
    for (let k = 0; k < m; k++) {
      const i = order[k]!;
      const base = i * doorCount;
      // The cheapest door; ties: shorter walk, then door order.
      let best = NO_DOOR;
      let bestCost = 0;
      let bestWalk = 0;
      for (let g = 0; g < doorCount; g++) {
        const walk = walkOf[base + g]!;
        if (walk === UNREACHABLE) continue;
        const c = queues[g]!.tailWith(walk) + dangerOf[base + g]!;
        if (best === NO_DOOR || c < bestCost || (c === bestCost && walk < bestWalk)) {
          best = g;
          bestCost = c;
          bestWalk = walk;
        }
      }
      if (best === NO_DOOR) continue; // unreachable in practice: the nearest exit belongs to a door
      const previous = previousDoor[i]!;
      if (previous !== NO_DOOR && previous !== best) {
        const walk = walkOf[base + previous]!;
        const danger = dangerOf[base + previous]!;
        if (walk !== UNREACHABLE && queues[previous]!.tailWith(walk) + danger <= bestCost + STICKY_MARGIN) best = previous;
      }
      queues[best]!.add(walkOf[base + best]!);
      door[i] = best;
    }
    this.previousPersons = ensureCapacity(this.previousPersons, n);
    this.previousPersons.set(persons.subarray(0, n));
    this.previousCount = n;
    this.previousDoors = ensureCapacity(this.previousDoors, n);
    this.previousDoors.set(door.subarray(0, n));
  }

  /**
   * Each person's door of the previous step (NO_DOOR when it had none).
   * People only ever leave, so the current people are a subsequence of the
   * previous ones in the same order, and one merge walk matches them without
   * a map. Should a person not be found (an observation not from one
   * episode), nobody from there on carries a door.
   */
  private carryPreviousDoors(persons: Int32Array, n: number): Int32Array {
    this.carried = ensureCapacity(this.carried, n);
    const previous = this.previousPersons;
    const count = this.previousCount;
    let j = 0;
    let lost = false;
    for (let i = 0; i < n; i++) {
      this.carried[i] = NO_DOOR;
      if (lost) continue;
      const person = persons[i]!;
      while (j < count && previous[j] !== person) j++;
      if (j === count) lost = true;
      else this.carried[i] = this.previousDoors[j++]!;
    }
    return this.carried;
  }
}

function ensureCapacity(array: Int32Array<ArrayBuffer>, length: number): Int32Array<ArrayBuffer> {
  return array.length >= length ? array : new Int32Array(Math.max(length, array.length * 2));
}

/** Inactive positions sit this far below any real value. */
const INACTIVE = 1 << 29;
/** `start` when it must be found again in the tree. */
const UNKNOWN = -1;

/**
 * The expected last exit step of a door's queue: people arrive at their walk
 * (release) step and w leave per step, first come first served. For releases
 * R the last exit step is max over x in R of x - 1 + ceil(#{r in R: r >= x} / w),
 * so F(x) = w(x - 1) + #{r >= x} is kept for every x (inactive until some
 * release equals x) in a max segment tree with range add, and the tail is
 * ceil(max F / w). Unlike a running "last slot + 1", this is exact whatever
 * the order in which people are added.
 *
 * `tailWith` is O(1): with M = max F, S the smallest x where F(x) = M (the
 * start of the final busy period) and R the largest release, one more
 * release r gives max F' = M when r < S (every F(x) below S stays under M,
 * r's own value included), M + 1 when S <= r <= R, and max(M + 1, w(r - 1) + 1)
 * beyond R (nobody after r), so the tail is ceil(M / w), ceil((M + 1) / w) or
 * the larger of that and r. `add` keeps S in O(1) except when r < S, where
 * it is found again by one descent of the tree (lazily, at the next query).
 */
export class ReleaseQueue {
  private size = 1;
  private lanes = 1;
  /** Subtree maximum including the node's own pending add (not its ancestors'). */
  private value = new Int32Array(2);
  private pending = new Int32Array(2);
  /** How many releases were added, the largest of them, and S (UNKNOWN when stale). */
  private count = 0;
  private maxRelease = -1;
  private start = UNKNOWN;
  /** ceil(M / w) and ceil((M + 1) / w): the tail as it is, and after one more person in the final busy period. */
  private tailNow = 0;
  private tailJoined = 0;

  /** Empties the queue for releases 0..maxRelease and `lanes` (>= 1) exits per step. */
  reset(maxRelease: number, lanes: number): void {
    let size = 1;
    while (size <= maxRelease) size <<= 1;
    if (this.value.length < 2 * size) {
      this.value = new Int32Array(2 * size);
      this.pending = new Int32Array(2 * size);
    }
    this.size = size;
    this.lanes = Math.max(lanes, 1);
    this.count = 0;
    this.maxRelease = -1;
    this.start = UNKNOWN;
    const { value, pending } = this;
    pending.fill(0, 0, 2 * size);
    for (let x = 0; x < size; x++) value[size + x] = this.lanes * (x - 1) - INACTIVE;
    for (let k = size - 1; k >= 1; k--) value[k] = Math.max(value[2 * k]!, value[2 * k + 1]!);
  }

  /** The last exit step if one more person with this release joined (the marginal cost of joining). */
  tailWith(release: number): number {
    // A person alone (or after everyone) leaves at its release: ceil((w (r - 1) + 1) / w) = r.
    if (this.count === 0) return release;
    if (this.start === UNKNOWN) this.start = this.findStart();
    if (release < this.start) return this.tailNow;
    if (release <= this.maxRelease) return this.tailJoined;
    return Math.max(this.tailJoined, release);
  }

  /** Adds a person with this release. */
  add(release: number): void {
    const { value, pending, size } = this;
    // S after the add, from the maximum before it (see the class comment).
    if (this.count === 0) this.start = release;
    else if (this.start !== UNKNOWN && release >= this.start) {
      if (release > this.maxRelease && this.lanes * (release - 1) + 1 > value[1]! + 1) this.start = release;
    } else this.start = UNKNOWN;
    this.count++;
    if (release > this.maxRelease) this.maxRelease = release;
    const leaf = size + release;
    if (value[leaf]! < -INACTIVE / 2) value[leaf]! += INACTIVE;
    // +1 on F(0..release): the leaf and the left-hanging subtrees on the path
    // (their pending add too; a leaf's is never read), the maxima up the path
    // in the same walk.
    value[leaf]! += 1;
    for (let node = leaf; node > 1; ) {
      if ((node & 1) === 1) {
        value[node - 1]! += 1;
        pending[node - 1]! += 1;
      }
      node >>= 1;
      value[node] = Math.max(value[2 * node]!, value[2 * node + 1]!) + pending[node]!;
    }
    this.tailNow = Math.ceil(value[1]! / this.lanes);
    this.tailJoined = Math.ceil((value[1]! + 1) / this.lanes);
  }

  /** The smallest x with F(x) = max F: down the tree, to the left child whenever it holds the maximum. */
  private findStart(): number {
    const { value, pending, size } = this;
    let node = 1;
    let target = value[1]!;
    while (node < size) {
      target -= pending[node]!;
      node = value[2 * node] === target ? 2 * node : 2 * node + 1;
    }
    return node - size;
  }
}
