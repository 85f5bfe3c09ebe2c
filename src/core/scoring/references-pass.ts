/**
 * The backward pass of references.ts, in work proportional to what changes.
 *
 * Written in R = L - t (remaining steps), m* and D*, the step rule of
 * references.ts reads, for a cell x at snapshot t, only x's status at t
 * (burning: ignition <= t; exit usable: an adjacent exit's ignition > t; in
 * the danger zone: onset <= t) and the layer t + 1 on x and its floor
 * neighbours; t itself appears nowhere else. So x's values at t can differ
 * from its values at t + 1 only when its status differs between t and t + 1
 * (one of those three steps equals t + 1), or when the values of x or of a
 * neighbour differ between t + 1 and t + 2. The pass keeps ONE layer in
 * place and recomputes, per snapshot, just those cells: the cells whose
 * status changes (bucketed by step in advance) and the neighbourhoods of the
 * cells that changed one snapshot later. On a fire that burns out early,
 * the horizon's tail costs nothing (nothing changes there), and elsewhere
 * the work follows the fire front instead of the whole grid.
 *
 * R changes are also exactly the runs of the L table (references-table.ts),
 * logged as they happen. Snapshot H is all "no escape"; snapshot H - 1 is
 * computed for every cell (there is no H + 1 to compare with).
 */

import { EarliestTableBuilder, NO_ESCAPE, type EarliestTable } from './references-table.js';

/** "No escape" of m* and D* while adding 1 or a danger bit: far below 2^31 so a sum never overflows an Int32Array slot. */
export const UNREACHED = 0x3fffffff;

/** The standing cells (open, not an exit) and their per-cell data, by standing number k. */
export interface PassInput {
  readonly cellCount: number;
  readonly maxSteps: number;
  /** cells[k]: the cell of standing number k. */
  readonly cells: Int32Array;
  /** Floor neighbours of k as standing numbers, at [neighbourStart[k], neighbourStart[k + 1]). */
  readonly neighbourStart: Int32Array;
  readonly neighbours: Int32Array;
  /** Per k: the ignition step, the danger-zone onset, and the largest ignition step of an adjacent exit (-1: none). */
  readonly ignition: Int32Array;
  readonly dangerOnset: Int32Array;
  readonly exitOpenBefore: Int32Array;
}

export interface PassResult {
  /** Snapshot 0 by standing number: R (= L at t = 0) or NO_ESCAPE, m* and D* or UNREACHED, at 3k, 3k+1, 3k+2. */
  readonly layer0: Int32Array;
  readonly table: EarliestTable;
}

/** Per step s, the standing numbers whose status changes between s and s - 1 (a step of theirs equals s). */
function statusBuckets(input: PassInput): { start: Int32Array; list: Int32Array } {
  const H = input.maxSteps;
  const count = input.cells.length;
  const start = new Int32Array(H + 2);
  const steps = [input.ignition, input.dangerOnset, input.exitOpenBefore];
  const inRange = (s: number) => s >= 1 && s <= H;
  for (const step of steps) for (let k = 0; k < count; k++) if (inRange(step[k]!)) start[step[k]! + 1]!++;
  for (let s = 0; s <= H; s++) start[s + 1]! += start[s]!;
  const cursor = start.slice();
  const list = new Int32Array(start[H + 1]!);
  for (const step of steps) for (let k = 0; k < count; k++) if (inRange(step[k]!)) list[cursor[step[k]!]!++] = k;
  return { start, list };
}

export function backwardPass(input: PassInput): PassResult {
  const { cells, neighbourStart, neighbours, ignition, dangerOnset, exitOpenBefore, maxSteps: H } = input;
  const count = cells.length;
  const runs = new EarliestTableBuilder(input.cellCount, H);
  const buckets = statusBuckets(input);
  // The layer, in place: R, m*, D* at 3k, 3k+1, 3k+2 (snapshot H: no escape anywhere).
  const layer = new Int32Array(3 * count);
  for (let k = 0; k < count; k++) {
    layer[3 * k] = NO_ESCAPE;
    layer[3 * k + 1] = UNREACHED;
    layer[3 * k + 2] = UNREACHED;
  }
  const death = new Int32Array(count);
  // This snapshot's work list and new values; the cells that changed at the previous (later) snapshot.
  const work = new Int32Array(count);
  const fresh = new Int32Array(3 * count);
  const queued = new Int32Array(count).fill(-1);
  let changed = new Int32Array(count);
  let changedCount = 0;
  let nextChanged = new Int32Array(count);

  for (let t = H - 1; t >= 0; t--) {
    let size = 0;
    if (t === H - 1) {
      for (let k = 0; k < count; k++) work[size++] = k;
    } else {
      for (let j = buckets.start[t + 1]!, end = buckets.start[t + 2]!; j < end; j++) {
        const k = buckets.list[j]!;
        if (queued[k] !== t) {
          queued[k] = t;
          work[size++] = k;
        }
      }
      for (let c = 0; c < changedCount; c++) {
        const x = changed[c]!;
        if (queued[x] !== t) {
          queued[x] = t;
          work[size++] = x;
        }
        for (let j = neighbourStart[x]!, end = neighbourStart[x + 1]!; j < end; j++) {
          const y = neighbours[j]!;
          if (queued[y] !== t) {
            queued[y] = t;
            work[size++] = y;
          }
        }
      }
    }
    if (size === 0) continue;
    // New values from the layer as it stands (snapshot t + 1)...
    for (let w = 0; w < size; w++) {
      const k = work[w]!;
      const b = 3 * w;
      if (ignition[k]! <= t) {
        fresh[b] = NO_ESCAPE;
        fresh[b + 1] = UNREACHED;
        fresh[b + 2] = UNREACHED;
        continue;
      }
      const danger = dangerOnset[k]! <= t ? 1 : 0;
      if (exitOpenBefore[k]! > t) {
        // Stepping onto the exit is best for all three (references.ts).
        fresh[b] = 1;
        fresh[b + 1] = 1;
        fresh[b + 2] = danger;
        continue;
      }
      // Staying, then every floor neighbour; a successor burning at t+1 holds no escape.
      let bestR = layer[3 * k]!;
      const stayMoves = layer[3 * k + 1]!;
      let moveMoves = UNREACHED;
      let bestDanger = layer[3 * k + 2]!;
      for (let j = neighbourStart[k]!, end = neighbourStart[k + 1]!; j < end; j++) {
        const y = 3 * neighbours[j]!;
        const r = layer[y]!;
        if (r < bestR) bestR = r;
        const m = layer[y + 1]!;
        if (m < moveMoves) moveMoves = m;
        const d = layer[y + 2]!;
        if (d < bestDanger) bestDanger = d;
      }
      const viaMove = moveMoves + 1;
      fresh[b] = bestR === NO_ESCAPE ? NO_ESCAPE : bestR + 1;
      fresh[b + 1] = stayMoves < viaMove ? stayMoves : viaMove < UNREACHED ? viaMove : UNREACHED;
      fresh[b + 2] = bestDanger < UNREACHED ? bestDanger + danger : UNREACHED;
    }
    // ... then written back (snapshot t), noting what changed and the runs of R that end at t + 1.
    let nextCount = 0;
    for (let w = 0; w < size; w++) {
      const k = work[w]!;
      const b = 3 * w;
      const r = fresh[b]!;
      const old = layer[3 * k]!;
      if (r === old && fresh[b + 1] === layer[3 * k + 1] && fresh[b + 2] === layer[3 * k + 2]) continue;
      nextChanged[nextCount++] = k;
      layer[3 * k + 1] = fresh[b + 1]!;
      layer[3 * k + 2] = fresh[b + 2]!;
      if (r === old) continue;
      layer[3 * k] = r;
      // The finite L(x, .) are a prefix of the snapshots (references.ts): going down, R only ever
      // turns finite (then t + 1 is D(x)) or changes between finite values (a run boundary).
      if (old === NO_ESCAPE) death[k] = t + 1;
      else runs.push(cells[k]!, t + 1, old);
    }
    const swap = changed;
    changed = nextChanged;
    nextChanged = swap;
    changedCount = nextCount;
  }
  for (let k = 0; k < count; k++) {
    if (death[k] === 0) continue;
    runs.death[cells[k]!] = death[k]!;
    runs.push(cells[k]!, 0, layer[3 * k]!);
  }
  return { layer0: layer, table: runs.build() };
}
