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

import { sortAscending } from '../world/frontier.js';
import { Arena } from './arena.js';
import { WeakCache } from '../weak-cache.js';
import { EAST, EXIT, NORTH, SOUTH, STAY, WALL, WEST, type Grid } from '../world/grid.js';

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

// The resolver's per-cell slots (MovementResolver.slots).
const SLOTS = 4;
const OCCUPANT_GEN = 0;
const OCCUPANT = 1;
const CLAIM_GEN = 2;
const CLAIMS = 3;

// Chain-walk states of a mover.
const PENDING = 0;
const VISITING = 1;
const SUCCEEDED = 2;
const BLOCKED = 3;

/**
 * Which moves a cell allows, in one byte per cell: bit `dir` (1..4) is set
 * when the cell one step in `dir` is on the grid and not a wall; that cell
 * is then `cell + step[dir]`. A fortieth of the neighbour table's size, so
 * that the per-person checks of a large crowd stay in the CPU's cache.
 */
export interface MoveTable {
  /** `open[cell] >> dir & 1`: the move is on the grid and not into a wall. Do not write to it. */
  readonly open: Uint8Array;
  /** `step[dir]`: the cell offset of a move (0 for STAY). */
  readonly step: Int32Array;
}

// One move table per grid, shared by every resolver and agent of it (a grid
// is never changed after it is built, and episodes of a scenario share it).
const MOVE_TABLES = new WeakCache((grid: Grid): MoveTable => {
  const { rows, cols, kinds } = grid;
  const open = new Uint8Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const cell = r * cols + c;
      let bits = 0;
      if (r > 0 && kinds[cell - cols] !== WALL) bits |= 1 << NORTH;
      if (c + 1 < cols && kinds[cell + 1] !== WALL) bits |= 1 << EAST;
      if (r + 1 < rows && kinds[cell + cols] !== WALL) bits |= 1 << SOUTH;
      if (c > 0 && kinds[cell - 1] !== WALL) bits |= 1 << WEST;
      open[cell] = bits;
    }
  }
  return { open, step: Int32Array.of(0, -cols, 1, cols, -1) };
});

export function moveTable(grid: Grid): MoveTable {
  return MOVE_TABLES.get(grid);
}

/** Whether `dir` is a direction code (1..4) that `open` (a MoveTable's byte of a cell) allows. */
export function moveAllowed(open: number, dir: number): boolean {
  // The range check first: a shift count is taken modulo 32.
  return dir >= NORTH && dir <= WEST && ((open >> dir) & 1) === 1;
}

/**
 * The scratch state of the resolvers of one grid: four Int32 slots per
 * cell, side by side so that a cell's are one cache line ([OCCUPANT_GEN]
 * stamp, [OCCUPANT] the mover index standing on it, [CLAIM_GEN] stamp,
 * [CLAIMS] the number of movers targeting it), valid only where their stamp
 * is the current call's generation, and per-person arrays grown to the
 * largest crowd seen. A call is synchronous and takes a fresh generation,
 * so every resolver of the grid shares one (episodes of a scenario, one
 * after another or interleaved): a simulation of 10,000 people on a
 * 256 x 256 grid no longer allocates and zeroes a megabyte of slots.
 */
class Workspace {
  readonly slots: Int32Array;
  private gen = 0;
  target = new Int32Array(0);
  state = new Uint8Array(0);
  path = new Int32Array(0);
  contested = new Int32Array(0);

  constructor(cellCount: number) {
    this.slots = new Int32Array(cellCount * SLOTS);
  }

  /** A fresh generation; after 2^32 - 1 calls the stamps are cleared once. */
  nextGen(): number {
    if (this.gen === 0xffffffff) {
      this.slots.fill(0);
      this.gen = 0;
    }
    // Stored in Int32 slots: compare as Int32.
    return ++this.gen | 0;
  }

  /** Per-person arrays for `n` people. */
  fit(n: number): void {
    if (this.target.length >= n) return;
    this.target = new Int32Array(n);
    this.state = new Uint8Array(n);
    this.path = new Int32Array(n);
    this.contested = new Int32Array(n);
  }
}

const WORKSPACES = new WeakCache((grid: Grid) => new Workspace(grid.rows * grid.cols));

/**
 * A resolver bound to one grid. Its scratch state (Workspace) is kept
 * between calls and cleared by generation stamps, not by writing, so a
 * step costs O(people), not O(cells); a move's target is the cell plus
 * the move table's offset. Not re-entrant (nothing it calls can call back).
 */
export class MovementResolver {
  private readonly moves: MoveTable;
  private readonly workspace: Workspace;

  /** `arena` supplies the result arrays (a simulation shares its own); by default the resolver has one. */
  constructor(
    readonly grid: Grid,
    private readonly arena: Arena = new Arena(),
  ) {
    this.workspace = WORKSPACES.get(grid);
    this.moves = moveTable(grid);
  }

  /**
   * Resolves one step. `cells[i]` is active person i's cell (persons in
   * person order) and `moves[i]` its direction. Every move must target an
   * in-grid, non-wall cell (the action check guarantees it); anything else
   * throws a RangeError.
   */
  resolve(cells: ArrayLike<number>, moves: ArrayLike<number>): Resolution {
    const n = cells.length;
    const workspace = this.workspace;
    workspace.fit(n);
    const gen = workspace.nextGen();
    const arena = this.arena;
    const out = arena.int32(n);
    const blocked = arena.uint8(n);
    const evacuated = arena.uint8(n);
    // Each phase is its own function: one function holding both loops was
    // compiled for entry in the middle of its first loop (on-stack
    // replacement), and that code, reused on every call, left the
    // optimised code at the call after the loops on every call again.
    const contestedCount = claimTargets(workspace, this.moves, cells, moves, gen, out, blocked);
    followChains(workspace, this.grid.kinds, n, gen, out, blocked, evacuated);
    // A plain array: a typed array's own buffer cost more to allocate than its copy.
    const contestedScratch = workspace.contested;
    const contested = new Array<number>(contestedCount);
    for (let k = 0; k < contestedCount; k++) contested[k] = contestedScratch[k]!;
    return new StepResolution(out, blocked, evacuated, contested);
  }
}

/**
 * A step's resolution. The contested cells are found in person order and
 * sorted when first read: only metrics read them (as a count and a set),
 * and sorting them every step was 4 % of a simulation of the large hall,
 * whose queues at the doors contest cells on every step.
 */
class StepResolution implements Resolution {
  private sorted: readonly number[] | undefined;

  constructor(
    readonly cells: Int32Array,
    readonly blocked: Uint8Array,
    readonly evacuated: Uint8Array,
    /** This step's own copy, in person order (the workspace's is the next step's scratch). */
    private readonly unsorted: number[],
  ) {}

  get contested(): readonly number[] {
    if (this.sorted === undefined) {
      const cells = this.unsorted;
      // A typed sort without comparator calls: Array.prototype.sort's setup cost showed in profiles.
      const typed = Int32Array.from(cells);
      sortAscending(typed, typed.length);
      for (let k = 0; k < cells.length; k++) cells[k] = typed[k]!;
      this.sorted = cells;
    }
    return this.sorted;
  }
}

/**
 * Phase 1, conflict: the earliest claimant of each target cell keeps it.
 * The same pass records who stands where (read only by phase 2) and starts
 * everyone on their own cell (phase 2 moves the successful movers).
 * Returns the number of contested cells written to the workspace.
 */
function claimTargets(
  workspace: Workspace,
  { open, step }: MoveTable,
  cells: ArrayLike<number>,
  moves: ArrayLike<number>,
  gen: number,
  out: Int32Array,
  blocked: Uint8Array,
): number {
  const n = cells.length;
  const { slots, target, state } = workspace;
  const contestedScratch = workspace.contested;
  let contestedCount = 0;
  for (let i = 0; i < n; i++) {
    const cell = cells[i]!;
    slots[cell * SLOTS + OCCUPANT_GEN] = gen;
    slots[cell * SLOTS + OCCUPANT] = i;
    out[i] = cell;
    const dir = moves[i]!;
    state[i] = PENDING;
    if (dir === STAY) {
      target[i] = -1;
      continue;
    }
    if (!moveAllowed(open[cell]!, dir)) throw new RangeError(`person ${i} moves ${dir} into a wall or off the grid`);
    const t = cell + step[dir]!;
    target[i] = t;
    const claim = t * SLOTS;
    if (slots[claim + CLAIM_GEN] !== gen) {
      slots[claim + CLAIM_GEN] = gen;
      slots[claim + CLAIMS] = 1;
      continue;
    }
    const count = slots[claim + CLAIMS]!;
    slots[claim + CLAIMS] = count + 1;
    blocked[i] = BLOCKED_CONFLICT;
    state[i] = BLOCKED;
    if (count === 1) contestedScratch[contestedCount++] = t;
  }
  return contestedCount;
}

/** Phase 2, chains: follows each pending mover to the occupant of its target. */
function followChains(
  workspace: Workspace,
  kinds: Uint8Array,
  n: number,
  gen: number,
  out: Int32Array,
  blocked: Uint8Array,
  evacuated: Uint8Array,
): void {
  const { slots, target, state, path } = workspace;
  for (let i = 0; i < n; i++) {
    if (state[i] !== PENDING) continue;
    const first = target[i]!;
    if (first < 0) continue;
    // Most movers of a moving crowd step onto an exit or an empty cell: the
    // chain walk below would find that on its first link, through the path.
    const kind = kinds[first];
    if (kind === EXIT || slots[first * SLOTS + OCCUPANT_GEN] !== gen) {
      state[i] = SUCCEEDED;
      out[i] = first;
      if (kind === EXIT) evacuated[i] = 1;
      continue;
    }
    let length = 0;
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
        // A loop, not path.indexOf: a call seen rarely (cycles are rare) would leave the optimised code when one comes.
        cycleStart = 0;
        while (path[cycleStart] !== cur) cycleStart++;
        break;
      }
      state[cur] = VISITING;
      path[length++] = cur;
      const t = target[cur]!;
      if (kinds[t] === EXIT || slots[t * SLOTS + OCCUPANT_GEN] !== gen) {
        success = true;
        break;
      }
      const o = slots[t * SLOTS + OCCUPANT]!;
      if (target[o]! < 0) {
        success = false; // a STAY person holds the target
        break;
      }
      cur = o;
    }
    if (success) {
      for (let k = 0; k < length; k++) {
        const p = path[k]!;
        const t = target[p]!;
        state[p] = SUCCEEDED;
        out[p] = t;
        if (kinds[t] === EXIT) evacuated[p] = 1;
      }
    } else {
      for (let k = 0; k < length; k++) {
        const p = path[k]!;
        state[p] = BLOCKED;
        blocked[p] = cycleStart >= 0 && k >= cycleStart ? BLOCKED_CYCLE : BLOCKED_OCCUPIED;
      }
    }
  }
}

/** Resolves one step on a grid (allocates a resolver; simulations keep one instead). */
export function resolveMoves(grid: Grid, cells: ArrayLike<number>, moves: ArrayLike<number>): Resolution {
  return new MovementResolver(grid).resolve(cells, moves);
}
