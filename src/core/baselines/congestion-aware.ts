/**
 * congestion-aware-v1, the strongest baseline. Fire-aware like
 * fire-aware-shortest-path-v1, and in addition:
 *
 * (a) It spreads people over the doors by expected queue (DoorAssignment):
 *     each person follows the shortest non-burning route to its own door.
 * (b) It avoids contested cells. The plan hands each target cell to one
 *     person only, in person order (the order in which the resolver settles
 *     conflicts), so no two planned moves contest a cell; a person whose
 *     every step forward is taken waits. The plan then goes through the
 *     public resolver (MovementResolver, which MovePredictor wraps; used
 *     directly on typed arrays so that no per-person objects are made). A
 *     person it blocks (behind someone who waits) tries another legal move
 *     onto a cell nobody holds after movement: onto an exit, one step closer
 *     to its door, one step closer to any exit, a sidestep that keeps its
 *     distance and is not beside the fire, or, within distance
 *     RETREAT_PROXIMITY of the fire, a step away from it (waiting in a queue
 *     beside the fire is how crowds die); failing that it STAYs. So the agent
 *     emits no blocked move at all, and adv-block-scrub finds nothing to
 *     scrub in it.
 *
 * It weighs fire danger further out than fire-aware-shortest-path-v1
 * (CONGESTION_DANGER: Manhattan distances 1 to 5 from the fire), because a
 * route chosen for a shorter queue is walked while the fire grows.
 * People with no route to any exit step away from the fire when they are
 * within distance 2 of it and a neighbour is farther, else STAY.
 *
 * Per step the cost is O(people log people) plus, when the fire changed, the
 * repair of one field per door (at most MAX_DOORS; O(cells) each at worst).
 */

import { ACTIONS, type Action, type ActionSet } from '../sim/actions.js';
import { ACT_ON_VIEW, type MoveView, type ViewAgent } from '../sim/move-view.js';
import type { Observation } from '../sim/observation.js';
import { MovementResolver } from '../sim/resolver.js';
import { EXIT } from '../world/grid.js';
import { UNREACHABLE } from './distance-fields.js';
import { DoorAssignment, NO_DOOR, doorsOf } from './door-assignment.js';
import { FireAwareField } from './fire-aware-shortest-path.js';
import { ObservedWorld } from './observed-world.js';

/** Danger of entering a cell by its Manhattan distance to the fire (the last entry covers larger distances). */
export const CONGESTION_DANGER: readonly number[] = [16, 16, 8, 4, 2, 1, 0];
/** A blocked person this close to the fire may step away from it, losing ground. */
export const RETREAT_PROXIMITY = 3;
/** Fire farther than this (Manhattan) does not restrict a blocked person's detour. */
export const SAFE_PROXIMITY = 3;

export class CongestionAwareAgent implements ViewAgent {
  private planner: CongestionPlanner | undefined;

  act(observation: Observation): ActionSet {
    const planner = (this.planner ??= new CongestionPlanner(new ObservedWorld(observation.map)));
    return planner.plan(observation);
  }

  [ACT_ON_VIEW](view: MoveView, moves: Uint8Array): void {
    const planner = (this.planner ??= new CongestionPlanner(new ObservedWorld(view.map)));
    planner.planView(view, moves);
  }
}

class CongestionPlanner {
  private readonly nearest: FireAwareField;
  private readonly doors: DoorAssignment;
  private readonly resolver: MovementResolver;
  /** Per-cell stamps: a cell is claimed / occupied / taken when its stamp equals the current one. */
  private readonly claimed: Int32Array;
  private readonly occupied: Int32Array;
  private stamp = 0;
  private moves = new Uint8Array(16);

  constructor(private readonly world: ObservedWorld) {
    // The nearest-exit route danger is needed only when it is the one door's.
    this.nearest = new FireAwareField(world, CONGESTION_DANGER, doorsOf(world.grid).length === 1);
    this.doors = new DoorAssignment(world, this.nearest);
    this.resolver = new MovementResolver(world.grid);
    this.claimed = new Int32Array(world.size);
    this.occupied = new Int32Array(world.size);
  }

  plan(observation: Observation): ActionSet {
    const world = this.world;
    if (world.update(observation)) {
      this.nearest.refresh();
      this.doors.refresh();
    }
    const n = world.personCount;
    if (this.moves.length < n) this.moves = new Uint8Array(Math.max(n, this.moves.length * 2));
    this.doors.assign(observation);
    this.planMoves(n);
    this.avoidBlocks(n);
    const out: Record<string, Action> = {};
    const people = observation.people;
    for (let i = 0; i < n; i++) out[people[i]!.id] = ACTIONS[this.moves[i]!]!;
    return out;
  }

  /** `plan` on the runner's fast path: the same moves, written as direction codes. */
  planView(view: MoveView, out: Uint8Array): void {
    const world = this.world;
    if (world.updateFromView(view)) {
      this.nearest.refresh();
      this.doors.refresh();
    }
    const n = world.personCount;
    if (this.moves.length < n) this.moves = new Uint8Array(Math.max(n, this.moves.length * 2));
    this.doors.assignPersons(view.persons);
    this.planMoves(n);
    this.avoidBlocks(n);
    out.set(this.moves.subarray(0, n));
  }

  /**
   * The first plan, in person order (the resolver's conflict order): down
   * the door's field onto a cell no earlier person has claimed, so that no
   * two planned moves contest a cell; exits first, then least route danger,
   * then a cell nobody stands on now, then N E S W. STAY when every such
   * cell is claimed.
   */
  private planMoves(n: number): void {
    const world = this.world;
    const { cells } = world;
    const kinds = world.grid.kinds;
    const { claimed, occupied, moves } = this;
    const door = this.doors.door;
    const stamp = ++this.stamp;
    for (let i = 0; i < n; i++) occupied[cells[i]!] = stamp;
    for (let i = 0; i < n; i++) {
      const cell = cells[i]!;
      const g = door[i]!;
      let bestDir = 0;
      let bestScore = UNREACHABLE;
      if (g === NO_DOOR) {
        bestDir = this.flee(cell, claimed, stamp);
      } else {
        const { dist: field, danger } = this.doors.fields[g]!;
        const here = field[cell]!;
        for (let dir = 1; dir <= 4; dir++) {
          const t = world.legalTarget(cell, dir);
          if (t < 0 || claimed[t] === stamp) continue;
          const isExit = kinds[t] === EXIT;
          if (!isExit && field[t]! >= here) continue;
          // Lexicographic: exit, danger, occupied (danger < 2^21 on any map).
          const score = (isExit ? 0 : 1 << 24) + (isExit ? 0 : danger[t]! * 2) + (occupied[t] === stamp ? 1 : 0);
          if (score < bestScore) {
            bestScore = score;
            bestDir = dir;
          }
        }
      }
      moves[i] = bestDir;
      if (bestDir !== 0) claimed[world.legalTarget(cell, bestDir)] = stamp;
    }
  }

  /** A step onto an unclaimed cell away from a fire within distance 2 (people without a route); 0 to STAY. */
  private flee(cell: number, claimed: Int32Array, stamp: number): number {
    const proximity = this.nearest.proximity;
    const here = proximity[cell]!;
    if (here > 2) return 0;
    let bestDir = 0;
    let bestScore = -1;
    for (let dir = 1; dir <= 4; dir++) {
      const t = this.world.legalTarget(cell, dir);
      if (t < 0 || claimed[t] === stamp || proximity[t]! <= here) continue;
      const score = proximity[t]!;
      if (score > bestScore) {
        bestScore = score;
        bestDir = dir;
      }
    }
    return bestDir;
  }

  /**
   * (b): one pass of the public resolver over the plan; every move it blocks
   * becomes an alternative move onto a cell nobody holds after movement, or
   * STAY. No move is blocked afterwards: the moves that succeeded keep their
   * (unchanged) chains, and an alternative's target is empty or vacated by a
   * successful mover and claimed by nobody else.
   */
  private avoidBlocks(n: number): void {
    const world = this.world;
    const cells = world.cells.subarray(0, n);
    const moves = this.moves.subarray(0, n);
    const result = this.resolver.resolve(cells, moves);
    const blocked = result.blocked;
    let any = false;
    for (let i = 0; i < n; i++) if (blocked[i] !== 0) any = true;
    if (!any) return;
    const taken = this.occupied; // reused: "taken after movement" stamps
    const stamp = ++this.stamp;
    // Evacuees mark their exit too: a successful mover still holds it this step.
    for (let i = 0; i < n; i++) taken[result.cells[i]!] = stamp;
    for (let i = 0; i < n; i++) {
      if (blocked[i] === 0) continue;
      const dir = this.alternative(i, cells[i]!, moves[i]!, taken, stamp);
      moves[i] = dir;
      if (dir !== 0) taken[world.legalTarget(cells[i]!, dir)] = stamp;
    }
  }

  /**
   * Another legal move for a blocked person onto a cell nobody holds after
   * movement (so it cannot be blocked, and freeing its own cell only helps
   * others): an exit, else a step closer to its door, else closer to any
   * exit, else a sidestep at equal distance not beside the fire, else near
   * the fire a step away from it; within a class the least dangerous cell,
   * then N E S W. 0 when there is none.
   */
  private alternative(i: number, cell: number, planned: number, taken: Int32Array, stamp: number): number {
    const world = this.world;
    const kinds = world.grid.kinds;
    const proximity = this.nearest.proximity;
    const nearest = this.nearest.dist;
    const g = this.doors.door[i]!;
    let bestDir = 0;
    let bestScore = UNREACHABLE;
    for (let dir = 1; dir <= 4; dir++) {
      if (dir === planned) continue;
      const t = world.legalTarget(cell, dir);
      if (t < 0 || taken[t] === stamp) continue;
      let rank: number;
      if (g === NO_DOOR) {
        // No route: only away from the fire.
        if (proximity[t]! <= proximity[cell]!) continue;
        rank = 4 - Math.min(proximity[t]!, 3);
      } else {
        const field = this.doors.fields[g]!.dist;
        // A detour never steps closer to a fire that is near (waiting is no worse).
        const safe = proximity[t]! >= Math.min(proximity[cell]!, SAFE_PROXIMITY);
        if (kinds[t] === EXIT) rank = 0;
        else if (!safe) continue;
        else if (field[t]! < field[cell]!) rank = 1;
        else if (nearest[t]! < nearest[cell]!) rank = 2;
        else if (field[t]! === field[cell]! && proximity[t]! >= 2) rank = 3;
        else if (proximity[cell]! <= RETREAT_PROXIMITY && proximity[t]! > proximity[cell]!) rank = 4;
        else continue;
      }
      const score = rank * 256 + (kinds[t] === EXIT ? 0 : this.nearest.penalty[t]!);
      if (score < bestScore) {
        bestScore = score;
        bestDir = dir;
      }
    }
    return bestDir;
  }
}
