/**
 * The privileged references (scoring-v1.0.md section 3): the relaxed
 * single-person optimum of one person alone who knows the whole future fire
 * and follows the simulator's phase order. Other people can only block
 * moves, so every reference is a lower bound for every policy.
 *
 * Transition rule, from a live state (x, t) with t < H and x not in B(t):
 * - a move onto an exit e with e not in B(t) evacuates at once, at step t+1;
 * - staying on x, or moving to a floor neighbour y with y not in B(t), leads
 *   to (y, t+1), which must not be in B(t+1) (else the person dies).
 * Snapshot H has no successor. A state (x, t) with x in B(t) is dead.
 * Because B(t) ⊆ B(t+1), "y not in B(t+1)" already implies "y not in B(t)",
 * and a dead successor has no escape, so the recursion needs no extra test.
 *
 * All tables come from ONE backward pass over steps H..0 and the open
 * non-exit cells, never per person, with two rolling layers each: at most
 * O((H+1) * cells) time and O(cells + runs) memory. L(x, t) is kept for
 * every snapshot (route events and the cut bound read it) as per-cell runs
 * of L(x, t) - t (references-table.ts); the fewest moves and fewest
 * danger-zone states are only needed at snapshot 0.
 *
 * Once the fire stops changing (after its last ignition step, T), the
 * step rule is the same at every snapshot, and written in R = L - t, m*
 * and D* it does not depend on t. So when a layer t > T equals layer t + 1
 * in those terms, every layer down to T equals it too, and the pass jumps
 * to T: on a world whose fire burns out early, the horizon's tail is skipped.
 *
 * Why waiting never shortens an escape: shifting an escape that starts at
 * (x, t+1) one step earlier is still an escape from (x, t), because the
 * fire only grows. So L(x, t) - t is nondecreasing in t (the cut bound
 * relies on this).
 */

import { EXIT, FLOOR, type Grid } from '../world/grid.js';
import { NEVER, type FireWorld } from '../world/scenario-types.js';
import { EarliestTableBuilder, NO_ESCAPE, type EarliestTable } from './references-table.js';

export { NO_ESCAPE };

/** A person-state is in the danger zone when 0 < d <= HAZARD_RADIUS (d: Manhattan distance to B(t)). */
export const HAZARD_RADIUS = 2;

// Internal "no escape" for m* and D* while adding 1 or a danger bit: far
// below 2^31 so a sum never overflows an Int32Array slot.
const UNREACHED = 0x3fffffff;

export interface References {
  /** H. */
  readonly maxSteps: number;
  /** rows * cols. */
  readonly cellCount: number;
  /** Start cell of each person, in person order. */
  readonly startCells: Int32Array;
  /** L_i: earliest evacuation step from (x_i, 0), or NO_ESCAPE (not savable). */
  readonly earliestEvacuation: Int32Array;
  /** m*_i: fewest cell moves of any escape from (x_i, 0) (the move onto the exit counts), or NO_ESCAPE. */
  readonly fewestMoves: Int32Array;
  /** D*_i: fewest danger-zone person-states of any escape from (x_i, 0), or NO_ESCAPE. */
  readonly fewestDangerStates: Int32Array;
  /** M* (max_evacuated): the number of persons with a finite L_i. */
  readonly maxEvacuated: number;
  /**
   * L(x, t) for every snapshot t = 0..H and cell x (earliestTable.at(x, t));
   * NO_ESCAPE for walls, exits (nobody stands on one), dead states and t = H.
   */
  readonly earliestTable: EarliestTable;
}

/** L(x, t): the earliest evacuation step from cell x at snapshot t, or NO_ESCAPE. */
export function earliestFrom(refs: References, cell: number, t: number): number {
  if (!Number.isInteger(t) || t < 0 || t > refs.maxSteps) throw new RangeError(`snapshot ${t} is outside 0..${refs.maxSteps}`);
  if (!Number.isInteger(cell) || cell < 0 || cell >= refs.cellCount) throw new RangeError(`cell ${cell} is outside the grid`);
  return refs.earliestTable.at(cell, t);
}

/** Whether person i is savable (finite L_i). */
export function isSavable(refs: References, person: number): boolean {
  return refs.earliestEvacuation[person]! !== NO_ESCAPE;
}

/**
 * For each cell, the first snapshot at which some OTHER cell within
 * Manhattan distance HAZARD_RADIUS burns (walls ignored), or NEVER. The
 * cell x is in the danger zone at t exactly when onset[x] <= t <
 * ignitionStep[x]: the nearest burning cell is then at 0 < d <= 2 (d = 0
 * would mean x itself burns).
 */
export function dangerZoneOnset(grid: Grid, fire: FireWorld): Int32Array {
  const { rows, cols } = grid;
  const ign = fire.ignitionStep;
  const onset = new Int32Array(rows * cols).fill(NEVER);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      let first = NEVER;
      for (let dr = -HAZARD_RADIUS; dr <= HAZARD_RADIUS; dr++) {
        const rr = r + dr;
        if (rr < 0 || rr >= rows) continue;
        const span = HAZARD_RADIUS - Math.abs(dr);
        for (let dc = -span; dc <= span; dc++) {
          const cc = c + dc;
          if (cc < 0 || cc >= cols || (dr === 0 && dc === 0)) continue;
          const s = ign[rr * cols + cc]!;
          if (s < first) first = s;
        }
      }
      onset[r * cols + c] = first;
    }
  }
  return onset;
}

/** Open non-exit cells with their floor neighbours (CSR) and exit neighbours' last usable step. */
interface StandingCells {
  readonly cells: Int32Array;
  readonly neighbourStart: Int32Array;
  readonly neighbours: Int32Array;
  /**
   * Per standing cell (same index as `cells`): the largest ignition step of
   * an adjacent exit, or -1. An exit neighbour is usable from (x, t) iff it
   * is not in B(t), i.e. iff this value > t.
   */
  readonly exitOpenBefore: Int32Array;
}

function standingCells(grid: Grid, fire: FireWorld): StandingCells {
  const { rows, cols, kinds } = grid;
  const ign = fire.ignitionStep;
  const cells: number[] = [];
  const start: number[] = [0];
  const list: number[] = [];
  const exitOpen: number[] = [];
  for (let x = 0; x < rows * cols; x++) {
    if (kinds[x] !== FLOOR) continue;
    cells.push(x);
    let best = -1;
    const col = x % cols;
    const around = [x >= cols ? x - cols : -1, col + 1 < cols ? x + 1 : -1, x + cols < rows * cols ? x + cols : -1, col > 0 ? x - 1 : -1];
    for (const y of around) {
      if (y < 0) continue;
      if (kinds[y] === FLOOR) list.push(y);
      else if (kinds[y] === EXIT && ign[y]! > best) best = ign[y]!;
    }
    start.push(list.length);
    exitOpen.push(best);
  }
  return {
    cells: Int32Array.from(cells),
    neighbourStart: Int32Array.from(start),
    neighbours: Int32Array.from(list),
    exitOpenBefore: Int32Array.from(exitOpen),
  };
}

/** The per-cell data of the backward pass, by standing number (computeReferences). */
interface Pass {
  readonly count: number;
  readonly ignK: Int32Array;
  readonly dangerOnsetK: Int32Array;
  readonly exitOpenBefore: Int32Array;
  readonly neighbourStart: Int32Array;
  readonly neighbourSlots: Int32Array;
  readonly runRemaining: Int32Array;
  readonly deathK: Int32Array;
  readonly cells: Int32Array;
}

/**
 * Layer t (into `cur`) from layer t + 1 (`next`), logging the runs of R that
 * end at t + 1; returns whether the layer differs from the next one in R, m*
 * or D* (a small function of its own, so that the JIT optimizes the hot loop well).
 */
function layer(pass: Pass, t: number, next: Int32Array, cur: Int32Array, runs: EarliestTableBuilder): boolean {
  const { count, ignK, dangerOnsetK, exitOpenBefore, neighbourStart, neighbourSlots, runRemaining, deathK, cells } = pass;
  let changed = false;
  for (let k = 0, b = 0; k < count; k++, b += 3) {
    if (ignK[k]! <= t) {
      // Dead state (also clears what the rolling layer held two steps ago).
      cur[b] = NO_ESCAPE;
      cur[b + 1] = UNREACHED;
      cur[b + 2] = UNREACHED;
      continue;
    }
    const danger = dangerOnsetK[k]! <= t ? 1 : 0;
    let bestL: number;
    let moves: number;
    let bestDanger: number;
    if (exitOpenBefore[k]! > t) {
      // Stepping onto the exit is best for all three: L = t+1 is the
      // least possible, one move is the least possible, and no later state counts.
      bestL = t + 1;
      moves = 1;
      bestDanger = danger;
    } else {
      // Staying, then every floor neighbour; a successor burning at t+1 holds NO_ESCAPE.
      bestL = next[b]!;
      const stayMoves = next[b + 1]!;
      let moveMoves = UNREACHED;
      bestDanger = next[b + 2]!;
      for (let j = neighbourStart[k]!, end = neighbourStart[k + 1]!; j < end; j++) {
        const y = neighbourSlots[j]!;
        const l = next[y]!;
        if (l < bestL) bestL = l;
        const m = next[y + 1]!;
        if (m < moveMoves) moveMoves = m;
        const d = next[y + 2]!;
        if (d < bestDanger) bestDanger = d;
      }
      const viaMove = moveMoves + 1;
      moves = stayMoves < viaMove ? stayMoves : viaMove < UNREACHED ? viaMove : UNREACHED;
      bestDanger = bestDanger < UNREACHED ? bestDanger + danger : UNREACHED;
    }
    cur[b] = bestL;
    cur[b + 1] = moves;
    cur[b + 2] = bestDanger;
    if (moves !== next[b + 1]! || bestDanger !== next[b + 2]!) changed = true;
    if (bestL === NO_ESCAPE) continue;
    // The finite L(x, .) are a prefix of the snapshots: the first finite one met going down is D(x) - 1.
    const remaining = bestL - t;
    if (deathK[k] === 0) {
      deathK[k] = t + 1;
      changed = true;
    } else if (remaining !== runRemaining[k]!) {
      runs.push(cells[k]!, t + 1, runRemaining[k]!);
      changed = true;
    }
    runRemaining[k] = remaining;
  }
  return changed;
}

/**
 * Computes L, m* and D* by backward induction. `startCells` are the persons'
 * start cells in person order; the fire world must reach H = fire.maxSteps.
 */
export function computeReferences(grid: Grid, fire: FireWorld, startCells: ArrayLike<number>): References {
  const n = grid.rows * grid.cols;
  const H = fire.maxSteps;
  if (fire.ignitionStep.length !== n) throw new RangeError(`the fire world has ${fire.ignitionStep.length} cells, the grid ${n}`);
  const ign = fire.ignitionStep;
  const onset = dangerZoneOnset(grid, fire);
  const { cells, neighbourStart, neighbours, exitOpenBefore } = standingCells(grid, fire);
  const count = cells.length;
  let lastIgnition = 0;
  for (let x = 0; x < n; x++) if (ign[x]! !== NEVER && ign[x]! > lastIgnition) lastIgnition = ign[x]!;

  const runs = new EarliestTableBuilder(n, H);
  const death = runs.death;
  // The pass works on standing-cell numbers k (cells[k] is the cell), with the three layers
  // interleaved (L, m*, D* at 3k, 3k+1, 3k+2) and each neighbour stored as 3 * its number: the
  // reads of one cell are sequential and a neighbour's three values share a cache line.
  const ignK = new Int32Array(count);
  const dangerOnsetK = new Int32Array(count);
  const numberOf = new Int32Array(n).fill(-1);
  for (let k = 0; k < count; k++) {
    numberOf[cells[k]!] = k;
    ignK[k] = ign[cells[k]!]!;
    dangerOnsetK[k] = onset[cells[k]!]!;
  }
  const neighbourSlots = Int32Array.from(neighbours, (y) => 3 * numberOf[y]!);
  // R = L - t of each cell's open run (the run that holds at snapshot t + 1), and D(x) by number.
  const runRemaining = new Int32Array(count);
  const deathK = new Int32Array(count);
  let next = new Int32Array(3 * count);
  let cur = new Int32Array(3 * count);
  for (let k = 0; k < count; k++) {
    next[3 * k] = NO_ESCAPE;
    next[3 * k + 1] = UNREACHED;
    next[3 * k + 2] = UNREACHED;
  }

  // Layer H stays NO_ESCAPE / UNREACHED: snapshot H has no successor.
  const pass: Pass = { count, ignK, dangerOnsetK, exitOpenBefore, neighbourStart, neighbourSlots, runRemaining, deathK, cells };
  for (let t = H - 1; t >= 0; t--) {
    const changed = layer(pass, t, next, cur, runs);
    const swap = next;
    next = cur;
    cur = swap;
    if (!changed && t - 1 >= lastIgnition) {
      // A fixed point of the fire-free rule (module comment): layers lastIgnition..t are all this one.
      const shift = t - lastIgnition;
      for (let b = 0; b < 3 * count; b += 3) if (next[b]! !== NO_ESCAPE) next[b]! -= shift;
      t = lastIgnition;
    }
  }
  for (let k = 0; k < count; k++) {
    if (deathK[k]! === 0) continue;
    death[cells[k]!] = deathK[k]!;
    runs.push(cells[k]!, 0, runRemaining[k]!);
  }

  // After the last swap the t = 0 layers are in the "next" arrays.
  const persons = startCells.length;
  const earliest = new Int32Array(persons);
  const fewestMoves = new Int32Array(persons);
  const fewestDanger = new Int32Array(persons);
  let savable = 0;
  for (let i = 0; i < persons; i++) {
    const x = startCells[i]!;
    if (!Number.isInteger(x) || x < 0 || x >= n) throw new RangeError(`person ${i} starts outside the grid (cell ${x})`);
    // Nobody escapes from a wall or an exit cell (no standing number).
    const slot = 3 * numberOf[x]!;
    const l = slot < 0 ? NO_ESCAPE : next[slot]!;
    earliest[i] = l;
    if (l === NO_ESCAPE) {
      fewestMoves[i] = NO_ESCAPE;
      fewestDanger[i] = NO_ESCAPE;
    } else {
      savable++;
      fewestMoves[i] = next[slot + 1]!;
      fewestDanger[i] = next[slot + 2]!;
    }
  }
  return {
    maxSteps: H,
    cellCount: n,
    startCells: Int32Array.from(startCells),
    earliestEvacuation: earliest,
    fewestMoves,
    fewestDangerStates: fewestDanger,
    maxEvacuated: savable,
    earliestTable: runs.build(),
  };
}
