/**
 * The Time capacity bounds (scoring-v1.0.md section 4.2): lower bounds on
 * sum(A_i) over the evacuees of an episode, for every policy, with
 * sum(L_i) <= Q_exit <= Q_cut <= sum(A_i).
 *
 * Q_exit (evacuee_time_queue_bound): in step s at most one person leaves
 * through each exit cell not in B(s-1). Evacuee i leaves at A_i >= L_i, so
 * the evacuation steps are a schedule of unit jobs with release dates L_i
 * over these slots; the list schedule (every slot filled with any released
 * job) minimizes the sum of finish steps (see listScheduleSum).
 *
 * Q_cut (evacuee_time_cut_bound): see cut-bound notes at evacueeTimeCutBound.
 */

import { ValidationError } from '../errors.js';
import { EXIT, WALL, type Grid } from '../world/grid.js';
import type { FireWorld } from '../world/scenario-types.js';
import { MinHeap, SlotCapacity, UnionFind } from './capacity-bounds-parts.js';
import { NO_ESCAPE, type References } from './references.js';

export interface CapacityBounds {
  /** sum(L_i) over the evacuees. */
  readonly earliestSum: number;
  /** Q_exit. */
  readonly queueBound: number;
  /** Q_cut (already the maximum with Q_exit). */
  readonly cutBound: number;
}

/** The evacuees' L_i, checked: a listed evacuee must exist, appear once and be savable. */
function evacueeReleases(refs: References, evacuees: ArrayLike<number>): Int32Array {
  const persons = refs.earliestEvacuation.length;
  const seen = new Uint8Array(persons);
  const releases = new Int32Array(evacuees.length);
  for (let k = 0; k < evacuees.length; k++) {
    const i = evacuees[k]!;
    if (!Number.isInteger(i) || i < 0 || i >= persons) throw new RangeError(`evacuee ${i} is not a person of the episode`);
    if (seen[i] === 1) throw new RangeError(`evacuee ${i} is listed twice`);
    seen[i] = 1;
    const l = refs.earliestEvacuation[i]!;
    // L_i finite is necessary for any evacuation; a record claiming otherwise is forged.
    if (l === NO_ESCAPE) throw new ValidationError(`person ${i} is recorded as evacuated but cannot escape even alone`);
    releases[k] = l;
  }
  return releases;
}

/**
 * Sum of finish steps of the list schedule of unit jobs with `releases`
 * over `capacity` (steps 1..H). Optimal: for every step u, the list schedule
 * finishes the most jobs by u (if v is its last step <= u with a free slot,
 * every job released by v is done by v and the slots v+1..u are full, which
 * no schedule beats), and sum of finish steps = sum over u >= 0 of the jobs
 * unfinished at u. Throws when the jobs do not fit by H: then no schedule
 * exists, so the evacuation steps claimed are impossible.
 */
function listScheduleSum(releases: Int32Array, capacity: SlotCapacity, horizon: number): number {
  const sorted = Int32Array.from(releases).sort();
  let total = 0;
  let next = 0;
  let waiting = 0;
  let s = 0;
  while (next < sorted.length || waiting > 0) {
    s = waiting === 0 ? Math.max(s + 1, sorted[next]!) : s + 1;
    if (s > horizon) throw new ValidationError(`the evacuation steps exceed the exit capacity by the horizon ${horizon}`);
    while (next < sorted.length && sorted[next]! <= s) {
      waiting++;
      next++;
    }
    const take = Math.min(capacity.at(s), waiting);
    total += take * s;
    waiting -= take;
  }
  return total;
}

/** Q_exit for the evacuees (person indices) of an episode. */
export function evacueeTimeQueueBound(grid: Grid, fire: FireWorld, refs: References, evacuees: ArrayLike<number>): number {
  const releases = evacueeReleases(refs, evacuees);
  const exitSteps = grid.exits.map((e) => fire.ignitionStep[e]!);
  return listScheduleSum(releases, new SlotCapacity(exitSteps, 0), fire.maxSteps);
}

/**
 * Q_exit and Q_cut together, with sum(L_i). `walkEveryEvacuee` (tests only)
 * turns off the shortcut of cutThresholdMaximum, which must not change a value.
 */
export function capacityBounds(grid: Grid, fire: FireWorld, refs: References, evacuees: ArrayLike<number>, walkEveryEvacuee = false): CapacityBounds {
  const releases = evacueeReleases(refs, evacuees);
  let earliestSum = 0;
  for (const l of releases) earliestSum += l;
  const queueBound = evacueeTimeQueueBound(grid, fire, refs, evacuees);
  const cutBound = Math.max(queueBound, cutThresholdMaximum(grid, fire, refs, evacuees, releases, walkEveryEvacuee));
  return { earliestSum, queueBound, cutBound };
}

/**
 * Q_cut for the evacuees of an episode: the maximum of Q_exit and, over
 * every threshold d >= 1, the cut bound of d.
 *
 * The cut bound of d, and why every step is a relaxation:
 *
 * 1. w = wall-only distance to the nearest exit. Neighbours differ by at
 *    most 1 in w. K = a component of the open cells with d < w < infinity
 *    (cells that reach no exit hold nobody who evacuates). A move out of K
 *    lands on a cell with w = d: every escape from K first steps onto
 *    N(K) = the cells with w = d next to K. Components whose cuts share a
 *    cell are merged into one group with the union of the cuts; groups have
 *    disjoint persons and disjoint cuts.
 * 2. Entry: evacuee i starting in group G first stands on the cut at some
 *    snapshot s_i on a cell c_i it moved onto in step s_i, so c_i is in
 *    neither B(s_i - 1) nor B(s_i) (evacuees never die), and positions are
 *    distinct: at most k_s = #{cut cells c : ignitionStep[c] > s} entries
 *    per step s.
 * 3. Single-person reach: E_i(c) = the earliest snapshot at which person i
 *    alone can stand on c (a BFS that enters y at t+1 only if y is not in
 *    B(t+1); waiting never makes an arrival earlier). The reachable
 *    snapshots of c are E_i(c)..ignitionStep[c]-1, and since L(c, s) - s
 *    never falls as s grows (references.ts), the least remaining time on c
 *    is at s = E_i(c). Define, over the cut cells c of G with
 *    L(c, E_i(c)) finite:
 *      r_i = min E_i(c)                 (earliest useful arrival on the cut)
 *      q_i = min (L(c, E_i(c)) - E_i(c)) (least remaining time from the cut)
 *    The real (c_i, s_i) has E_i(c_i) <= s_i and L(c_i, s_i) <= A_i < inf,
 *    so L(c_i, E_i(c_i)) is finite: s_i >= r_i and
 *    A_i >= L(c_i, s_i) >= s_i + q_i. Also A_i >= L_i, and L_i >= r_i + q_i
 *    (L_i's escape crosses the cut). Reach is not restricted to paths
 *    inside K, which only enlarges the sets minimized over.
 * 4. So sum(A_i) over G >= min over entry schedules (s_i >= r_i, at most
 *    k_s per step) of sum max(s_i + q_i, L_i)
 *      = sum q_i + min sum max(s_i, L_i - q_i).
 *    The list schedule that fills each step with the released persons of
 *    smallest L_i - q_i attains this minimum: it uses the most slots (as in
 *    Q_exit), and swapping two persons with L_i - q_i = a <= b = L_j - q_j
 *    between steps t < t' never helps, because
 *    max(t, a) + max(t', b) <= max(t', a) + max(t, b) whenever a <= b.
 *    (Plain "list schedule of r_i plus sum q_i" is also valid but weaker;
 *    releasing at L_i - q_i instead of r_i would NOT be valid: a person
 *    may take an early slot and still finish late.)
 * 5. People outside every group add L_i. The groups' person sets are
 *    disjoint, so the sum of the per-group bounds and those L_i is a lower
 *    bound on sum(A_i).
 */
export function evacueeTimeCutBound(grid: Grid, fire: FireWorld, refs: References, evacuees: ArrayLike<number>): number {
  return capacityBounds(grid, fire, refs, evacuees).cutBound;
}

/** Open (non-wall) 4-neighbours of every cell, as compressed rows: built once per call. */
interface OpenGraph {
  readonly start: Int32Array;
  readonly list: Int32Array;
}

function openGraph(grid: Grid): OpenGraph {
  const { rows, cols, kinds } = grid;
  const size = rows * cols;
  const start = new Int32Array(size + 1);
  const list = new Int32Array(4 * size);
  let n = 0;
  for (let x = 0; x < size; x++) {
    start[x] = n;
    if (kinds[x] === WALL) continue;
    const col = x % cols;
    if (x >= cols && kinds[x - cols] !== WALL) list[n++] = x - cols;
    if (col + 1 < cols && kinds[x + 1] !== WALL) list[n++] = x + 1;
    if (x + cols < size && kinds[x + cols] !== WALL) list[n++] = x + cols;
    if (col > 0 && kinds[x - 1] !== WALL) list[n++] = x - 1;
  }
  start[size] = n;
  return { start, list };
}

/** Wall-only BFS distance to the nearest exit; -1 where no exit is reachable. */
function exitDistance(grid: Grid, graph: OpenGraph): Int32Array {
  const size = grid.rows * grid.cols;
  const { start, list } = graph;
  const w = new Int32Array(size).fill(-1);
  const queue = new Int32Array(size);
  let tail = 0;
  for (const e of grid.exits) {
    w[e] = 0;
    queue[tail++] = e;
  }
  for (let head = 0; head < tail; head++) {
    const x = queue[head]!;
    for (let j = start[x]!, end = start[x + 1]!; j < end; j++) {
      const y = list[j]!;
      if (w[y] !== -1) continue;
      w[y] = w[x]! + 1;
      queue[tail++] = y;
    }
  }
  return w;
}

/** One group of one threshold: its cut's ignition steps and its members' (r, q, L). */
interface CutGroup {
  readonly threshold: number;
  readonly cutIgnition: number[];
  readonly members: { release: number; remaining: number; earliest: number }[];
}

/**
 * The threshold sweep of step 1: for every threshold d (high to low) the
 * groups, each cut cell's group (cutGroup[c] for the threshold w(c)) and
 * each evacuee's group per threshold d < w(x_i) (at personGroupStart[k] + d - 1).
 */
function sweepThresholds(grid: Grid, graph: OpenGraph, fire: FireWorld, w: Int32Array, starts: Int32Array) {
  const size = grid.rows * grid.cols;
  const { start, list } = graph;
  let maxW = 0;
  for (let x = 0; x < size; x++) if (w[x]! > maxW) maxW = w[x]!;
  const byDistance: number[][] = Array.from({ length: maxW + 1 }, () => []);
  for (let x = 0; x < size; x++) if (w[x]! >= 0) byDistance[w[x]!]!.push(x);

  const personGroupStart = new Int32Array(starts.length + 1);
  for (let k = 0; k < starts.length; k++) personGroupStart[k + 1] = personGroupStart[k]! + Math.max(0, w[starts[k]!]! - 1);
  const personGroup = new Int32Array(personGroupStart[starts.length]!).fill(-1);
  const cutGroup = new Int32Array(size).fill(-1);
  const groups: CutGroup[] = [];
  const uf = new UnionFind(size);
  const rootGroup = new Int32Array(size).fill(-1);
  const rootStamp = new Int32Array(size).fill(-1);

  for (let d = maxW - 1; d >= 1; d--) {
    // K cells of threshold d are those with w >= d+1: add the w = d+1 layer.
    for (const x of byDistance[d + 1]!) {
      for (let j = start[x]!; j < start[x + 1]!; j++) if (w[list[j]!]! >= d + 1) uf.union(x, list[j]!);
    }
    // Components sharing a cut cell merge (these unions also hold at lower thresholds, where the cell joins K).
    for (const c of byDistance[d]!) {
      let first = -1;
      for (let j = start[c]!; j < start[c + 1]!; j++) {
        const y = list[j]!;
        if (w[y] !== d + 1) continue;
        if (first < 0) first = y;
        else uf.union(first, y);
      }
    }
    for (const c of byDistance[d]!) {
      let inner = -1;
      for (let j = start[c]!; j < start[c + 1]!; j++) if (w[list[j]!] === d + 1) inner = list[j]!;
      if (inner < 0) continue;
      const root = uf.find(inner);
      if (rootStamp[root] !== d) {
        rootStamp[root] = d;
        rootGroup[root] = groups.length;
        groups.push({ threshold: d, cutIgnition: [], members: [] });
      }
      cutGroup[c] = rootGroup[root]!;
      groups[rootGroup[root]!]!.cutIgnition.push(fire.ignitionStep[c]!);
    }
    for (let k = 0; k < starts.length; k++) {
      const x = starts[k]!;
      if (w[x]! <= d) continue;
      const root = uf.find(x);
      // Every component has a cut cell (its cells with w = d+1 touch w = d), so the root is stamped.
      if (rootStamp[root] !== d) throw new Error('cut bound: a group without a cut');
      personGroup[personGroupStart[k]! + d - 1] = rootGroup[root]!;
    }
  }
  return { maxW, groups, cutGroup, personGroup, personGroupStart };
}

/** The maximum over thresholds of the cut bound (steps 2-5 of evacueeTimeCutBound). */
function cutThresholdMaximum(grid: Grid, fire: FireWorld, refs: References, evacuees: ArrayLike<number>, releases: Int32Array, walkEveryEvacuee: boolean): number {
  const size = grid.rows * grid.cols;
  const H = fire.maxSteps;
  const ign = fire.ignitionStep;
  const table = refs.earliestTable;
  const graph = openGraph(grid);
  const { start, list } = graph;
  const kinds = grid.kinds;
  const w = exitDistance(grid, graph);
  const starts = Int32Array.from({ length: evacuees.length }, (_, k) => refs.startCells[evacuees[k]!]!);
  const { maxW, groups, cutGroup, personGroup, personGroupStart } = sweepThresholds(grid, graph, fire, w, starts);

  // Step 3: one single-person reach BFS per evacuee in some group (O(cells) each), except for an
  // evacuee whose L_i is its wall-only distance, whose r and q per threshold are known in advance.
  const reach = new Int32Array(size);
  const stamp = new Int32Array(size).fill(-1);
  const queue = new Int32Array(size);
  const release = new Int32Array(personGroup.length).fill(NO_ESCAPE);
  const remaining = new Int32Array(personGroup.length).fill(NO_ESCAPE);
  for (let k = 0; k < starts.length; k++) {
    const x0 = starts[k]!;
    const own = w[x0]!;
    if (own < 2) continue;
    const offset = personGroupStart[k]! - 1;
    if (releases[k] === own && !walkEveryEvacuee) {
      // L_i = w(x_i): the escape walks a shortest wall-only path without a stop, so at step own - d it
      // stands on a cut cell of threshold d of its own group (the path stays in K until then) with
      // L - s = own - (own - d) = d. Both are the least possible (E_i(c) >= own - d, L(c, s) - s >= d),
      // so they are what the walk below finds, without walking.
      for (let d = 1; d < own; d++) {
        release[offset + d] = own - d;
        remaining[offset + d] = d;
      }
    } else {
      stamp[x0] = k;
      reach[x0] = 0;
      queue[0] = x0;
      let tail = 1;
      // L(c, s) - s >= w(c) = d for a cut cell of threshold d, so a threshold
      // whose q has reached d (its r was final when first set: BFS order) is
      // settled; the walk stops once every threshold below w(x_i) is.
      let unsettled = own - 1;
      for (let head = 0; head < tail && unsettled > 0; head++) {
        const x = queue[head]!;
        const t1 = reach[x]! + 1;
        if (t1 > H) continue;
        for (let j = start[x]!, end = start[x + 1]!; j < end; j++) {
          const y = list[j]!;
          // Entering y in step t1 needs y outside B(t1); exits end a walk (nobody stands on one).
          if (stamp[y] === k || ign[y]! <= t1 || kinds[y] === EXIT) continue;
          stamp[y] = k;
          reach[y] = t1;
          queue[tail++] = y;
          const g = cutGroup[y]!;
          if (g < 0) continue;
          const d = w[y]!;
          if (d >= own || personGroup[offset + d] !== g) continue;
          const l = table.at(y, t1);
          if (l === NO_ESCAPE) continue;
          if (t1 < release[offset + d]!) release[offset + d] = t1;
          if (l - t1 < remaining[offset + d]!) {
            remaining[offset + d] = l - t1;
            if (l - t1 === d) unsettled--;
          }
        }
      }
    }
    for (let d = 1; d < own; d++) {
      const r = release[offset + d]!;
      // Step 3 shows r is finite for a real evacuee (finite L_i); anything else is a forged outcome.
      if (r === NO_ESCAPE) throw new ValidationError(`person ${evacuees[k]} is recorded as evacuated but cannot cross a cut even alone`);
      groups[personGroup[offset + d]!]!.members.push({ release: r, remaining: remaining[offset + d]!, earliest: releases[k]! });
    }
  }

  // Steps 4-5: per threshold, sum(L_i) plus each group's excess over its members' L_i.
  let earliestSum = 0;
  for (const l of releases) earliestSum += l;
  const excess = new Array<number>(maxW + 1).fill(0);
  for (const group of groups) {
    if (group.members.length === 0) continue;
    let own = 0;
    for (const m of group.members) own += m.earliest;
    excess[group.threshold] = excess[group.threshold]! + groupBound(group, H) - own;
  }
  let best = earliestSum;
  for (const e of excess) if (earliestSum + e > best) best = earliestSum + e;
  return best;
}

/**
 * min over entry schedules of sum max(s_i + q_i, L_i) for one group: the
 * list schedule over the cut capacities that serves released members
 * (s >= r_i) in order of L_i - q_i (step 4 of evacueeTimeCutBound).
 */
function groupBound(group: CutGroup, horizon: number): number {
  const capacity = new SlotCapacity(group.cutIgnition, 1);
  const members = group.members.slice().sort((a, b) => a.release - b.release);
  const heap = new MinHeap();
  let total = 0;
  for (const m of members) total += m.remaining;
  let next = 0;
  let s = 0;
  while (next < members.length || heap.size > 0) {
    s = heap.size === 0 ? Math.max(s + 1, members[next]!.release) : s + 1;
    if (s > horizon) throw new ValidationError(`the evacuation steps exceed the capacity of a cut by the horizon ${horizon}`);
    while (next < members.length && members[next]!.release <= s) {
      const m = members[next++]!;
      heap.push(m.earliest - m.remaining);
    }
    for (let slots = capacity.at(s); slots > 0 && heap.size > 0; slots--) {
      const due = heap.pop();
      total += due > s ? due : s;
    }
  }
  return total;
}
