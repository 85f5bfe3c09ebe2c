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
 * non-exit cells, never per person (references-pass.ts): one layer kept in
 * place, and per snapshot only the cells whose values can change are
 * recomputed, so at most O((H+1) * cells) time and O(cells + runs) memory.
 * L(x, t) is kept for every snapshot (route events and the cut bound read
 * it) as per-cell runs of L(x, t) - t (references-table.ts); the fewest
 * moves and fewest danger-zone states are only needed at snapshot 0.
 *
 * Why waiting never shortens an escape: shifting an escape that starts at
 * (x, t+1) one step earlier is still an escape from (x, t), because the
 * fire only grows. So L(x, t) - t is nondecreasing in t (the cut bound
 * relies on this).
 */

import { EXIT, FLOOR, type Grid } from '../world/grid.js';
import { NEVER, type FireWorld } from '../world/scenario-types.js';
import { backwardPass } from './references-pass.js';
import { NO_ESCAPE, type EarliestTable } from './references-table.js';

export { NO_ESCAPE };

/** A person-state is in the danger zone when 0 < d <= HAZARD_RADIUS (d: Manhattan distance to B(t)). */
export const HAZARD_RADIUS = 2;

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
  const numberOf = new Int32Array(n).fill(-1);
  for (let k = 0; k < count; k++) numberOf[cells[k]!] = k;
  const { layer0: next, table } = backwardPass({
    cellCount: n,
    maxSteps: H,
    cells,
    neighbourStart,
    neighbours: Int32Array.from(neighbours, (y) => numberOf[y]!),
    ignition: Int32Array.from(cells, (x) => ign[x]!),
    dangerOnset: Int32Array.from(cells, (x) => onset[x]!),
    exitOpenBefore,
  });

  // Snapshot 0: R = L.
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
    earliestTable: table,
  };
}
