/**
 * Test oracle of references.ts: the former dense implementation, which
 * keeps L(x, t) for every snapshot. The library's bounded-memory
 * computeReferences must give the same values (references-dense.test.ts).
 * Nothing in the library imports this file.
 */

import { EXIT, FLOOR, type Grid } from '../../src/core/world/grid.js';
import type { FireWorld } from '../../src/core/world/scenario-types.js';
import { NO_ESCAPE, dangerZoneOnset } from '../../src/core/scoring/references.js';

const UNREACHED = 0x3fffffff;

export interface DenseReferences {
  readonly earliestEvacuation: Int32Array;
  readonly fewestMoves: Int32Array;
  readonly fewestDangerStates: Int32Array;
  readonly maxEvacuated: number;
  /** L(x, t) at t * cells + x. */
  readonly table: Int32Array;
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
 * The dense backward induction, as the library computed it before the
 * run-length table: L, m* and D* with L(x, t) for every snapshot at index
 * t * cells + x. O((H + 1) * cells) memory: a test oracle for small worlds. `startCells` are the persons'
 * start cells in person order; the fire world must reach H = fire.maxSteps.
 */
export function denseReferences(grid: Grid, fire: FireWorld, startCells: ArrayLike<number>): DenseReferences {
  const n = grid.rows * grid.cols;
  const H = fire.maxSteps;
  if (fire.ignitionStep.length !== n) throw new RangeError(`the fire world has ${fire.ignitionStep.length} cells, the grid ${n}`);
  const ign = fire.ignitionStep;
  const onset = dangerZoneOnset(grid, fire);
  const { cells, neighbourStart, neighbours, exitOpenBefore } = standingCells(grid, fire);
  const count = cells.length;

  const table = new Int32Array((H + 1) * n).fill(NO_ESCAPE);
  let movesNext = new Int32Array(n).fill(UNREACHED);
  let movesCur = new Int32Array(n).fill(UNREACHED);
  let dangerNext = new Int32Array(n).fill(UNREACHED);
  let dangerCur = new Int32Array(n).fill(UNREACHED);

  // Layer H stays NO_ESCAPE / UNREACHED: snapshot H has no successor.
  for (let t = H - 1; t >= 0; t--) {
    const base = t * n;
    const nextBase = base + n;
    for (let k = 0; k < count; k++) {
      const x = cells[k]!;
      if (ign[x]! <= t) {
        // Dead state (also clears what the rolling layer held two steps ago).
        movesCur[x] = UNREACHED;
        dangerCur[x] = UNREACHED;
        continue;
      }
      const danger = onset[x]! <= t ? 1 : 0;
      if (exitOpenBefore[k]! > t) {
        // Stepping onto the exit is best for all three: L = t+1 is the
        // least possible, one move is the least possible, and no later state counts.
        table[base + x] = t + 1;
        movesCur[x] = 1;
        dangerCur[x] = danger;
        continue;
      }
      // Staying, then every floor neighbour; a successor burning at t+1 holds NO_ESCAPE.
      let bestL = table[nextBase + x]!;
      const stayMoves = movesNext[x]!;
      let moveMoves = UNREACHED;
      let bestDanger = dangerNext[x]!;
      for (let j = neighbourStart[k]!, end = neighbourStart[k + 1]!; j < end; j++) {
        const y = neighbours[j]!;
        const l = table[nextBase + y]!;
        if (l < bestL) bestL = l;
        const m = movesNext[y]!;
        if (m < moveMoves) moveMoves = m;
        const d = dangerNext[y]!;
        if (d < bestDanger) bestDanger = d;
      }
      table[base + x] = bestL;
      const viaMove = moveMoves + 1;
      movesCur[x] = stayMoves < viaMove ? stayMoves : viaMove < UNREACHED ? viaMove : UNREACHED;
      dangerCur[x] = bestDanger < UNREACHED ? bestDanger + danger : UNREACHED;
    }
    const m = movesNext;
    movesNext = movesCur;
    movesCur = m;
    const d = dangerNext;
    dangerNext = dangerCur;
    dangerCur = d;
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
    const l = table[x]!;
    earliest[i] = l;
    if (l === NO_ESCAPE) {
      fewestMoves[i] = NO_ESCAPE;
      fewestDanger[i] = NO_ESCAPE;
    } else {
      savable++;
      fewestMoves[i] = movesNext[x]!;
      fewestDanger[i] = dangerNext[x]!;
    }
  }
  return { earliestEvacuation: earliest, fewestMoves, fewestDangerStates: fewestDanger, maxEvacuated: savable, table };
}
