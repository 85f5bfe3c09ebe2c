/**
 * The public movement resolver (environment.md section 4.1): pure and
 * deterministic, exported so that agents can predict it.
 *
 * 1. Conflict: movers grouped by target cell; the earliest in person order
 *    wins, the others are blocked (`conflict`) and become stationary.
 * 2. Chains: a mover succeeds when its target is an exit, an empty cell, or
 *    the cell of a mover that succeeds. A mover whose chain ends at a
 *    stationary person is blocked (`occupied`); movers whose targets form a
 *    cycle (a swap is a cycle of two) are blocked (`cycle`); movers chained
 *    into a blocked cycle are blocked (`occupied`).
 *
 * Blocked persons stay where they are, so positions after movement are
 * distinct, and replacing every blocked move with STAY gives the same
 * positions (the scrub property).
 */

import { EXIT, STAY, WALL, neighbour, type Direction, type Grid } from '../world/grid.js';

export const NOT_BLOCKED = 0;
export const BLOCKED_OCCUPIED = 1;
export const BLOCKED_CONFLICT = 2;
export const BLOCKED_CYCLE = 3;
export type BlockCode = typeof NOT_BLOCKED | typeof BLOCKED_OCCUPIED | typeof BLOCKED_CONFLICT | typeof BLOCKED_CYCLE;
export type BlockKind = 'occupied' | 'conflict' | 'cycle';

export function blockKind(code: BlockCode): BlockKind | null {
  switch (code) {
    case NOT_BLOCKED:
      return null;
    case BLOCKED_OCCUPIED:
      return 'occupied';
    case BLOCKED_CONFLICT:
      return 'conflict';
    case BLOCKED_CYCLE:
      return 'cycle';
  }
}

export interface Resolution {
  /** Each person's cell after movement; an evacuee's is the exit it moved onto. */
  readonly cells: Int32Array;
  /** Each person's block code (NOT_BLOCKED for STAY and for successful moves). */
  readonly blocked: Uint8Array;
  /** Whether each person moved onto an exit (and so is evacuated). */
  readonly evacuated: Uint8Array;
  /** Cells targeted by two or more movers, ascending. */
  readonly contested: readonly number[];
}

// Chain-walk states of a mover.
const PENDING = 0;
const VISITING = 1;
const SUCCEEDED = 2;
const BLOCKED = 3;

/**
 * A resolver bound to one grid. It keeps grid-sized scratch arrays between
 * calls (cleared after use), so resolving a step costs O(people), not
 * O(cells). Not re-entrant; create one per simulation.
 */
export class MovementResolver {
  private readonly occupant: Int32Array;
  private readonly claims: Uint32Array;
  // Per-person scratch, grown to the largest crowd seen; reused across steps.
  private target = new Int32Array(0);
  private state = new Uint8Array(0);
  private readonly path: number[] = [];

  constructor(readonly grid: Grid) {
    const size = grid.rows * grid.cols;
    this.occupant = new Int32Array(size).fill(-1);
    this.claims = new Uint32Array(size);
  }

  /**
   * Resolves one step. `cells[i]` is active person i's cell (persons in
   * person order) and `moves[i]` its direction. Every move must target an
   * in-grid, non-wall cell (the action check guarantees it); anything else
   * throws a RangeError.
   */
  resolve(cells: ArrayLike<number>, moves: ArrayLike<number>): Resolution {
    const n = cells.length;
    const { grid, occupant, claims } = this;
    const kinds = grid.kinds;
    if (this.target.length < n) {
      this.target = new Int32Array(n);
      this.state = new Uint8Array(n);
    }
    const target = this.target;
    const state = this.state;
    target.fill(-1, 0, n);
    state.fill(PENDING, 0, n);
    const blocked = new Uint8Array(n);
    const contested: number[] = [];

    for (let i = 0; i < n; i++) occupant[cells[i]!] = i;

    // 1. Conflict: the earliest claimant of each target cell keeps it.
    for (let i = 0; i < n; i++) {
      const dir = moves[i]! as Direction;
      if (dir === STAY) continue;
      const t = neighbour(grid, cells[i]!, dir);
      if (t < 0 || kinds[t] === WALL) {
        this.clear(cells, target);
        throw new RangeError(`person ${i} moves ${dir} into a wall or off the grid`);
      }
      target[i] = t;
      const count = claims[t]!;
      claims[t] = count + 1;
      if (count > 0) {
        blocked[i] = BLOCKED_CONFLICT;
        state[i] = BLOCKED;
        if (count === 1) contested.push(t);
      }
    }

    // 2. Chains: follow each pending mover to the occupant of its target.
    const path = this.path;
    for (let i = 0; i < n; i++) {
      if (target[i]! < 0 || state[i] !== PENDING) continue;
      path.length = 0;
      let cur = i;
      let success: boolean;
      let cycleStart = -1;
      for (;;) {
        const s = state[cur]!;
        if (s === SUCCEEDED || s === BLOCKED) {
          // A conflict loser reached here is stationary: the chain is occupied.
          success = s === SUCCEEDED;
          break;
        }
        if (s === VISITING) {
          success = false;
          cycleStart = path.indexOf(cur);
          break;
        }
        state[cur] = VISITING;
        path.push(cur);
        const t = target[cur]!;
        if (kinds[t] === EXIT) {
          success = true;
          break;
        }
        const o = occupant[t]!;
        if (o < 0) {
          success = true;
          break;
        }
        if (target[o]! < 0) {
          success = false; // a STAY person holds the target
          break;
        }
        cur = o;
      }
      for (let k = 0; k < path.length; k++) {
        const p = path[k]!;
        if (success) state[p] = SUCCEEDED;
        else {
          state[p] = BLOCKED;
          blocked[p] = cycleStart >= 0 && k >= cycleStart ? BLOCKED_CYCLE : BLOCKED_OCCUPIED;
        }
      }
    }

    const out = new Int32Array(n);
    const evacuated = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      if (state[i] === SUCCEEDED) {
        const t = target[i]!;
        out[i] = t;
        if (kinds[t] === EXIT) evacuated[i] = 1;
      } else out[i] = cells[i]!;
    }
    this.clear(cells, target);
    if (contested.length > 1) contested.sort((a, b) => a - b);
    return { cells: out, blocked, evacuated, contested };
  }

  private clear(cells: ArrayLike<number>, target: Int32Array): void {
    // `target` may be longer than this step's crowd: only the first cells.length entries are this step's.
    for (let i = 0; i < cells.length; i++) {
      this.occupant[cells[i]!] = -1;
      const t = target[i]!;
      if (t >= 0) this.claims[t] = 0;
    }
  }
}

/** Resolves one step on a grid (allocates a resolver; simulations keep one instead). */
export function resolveMoves(grid: Grid, cells: ArrayLike<number>, moves: ArrayLike<number>): Resolution {
  return new MovementResolver(grid).resolve(cells, moves);
}
