/**
 * One episode's state and its step t -> t+1 (simulator_version 1.0,
 * environment.md sections 3 and 4). The runner drives it with an agent's
 * checked actions, the replay check with recorded ones; both get the same
 * StepEvents.
 *
 * Cost per step is O(active persons + newly burning cells): B(t) membership
 * is read from the fire world's ignition steps, grid-sized arrays are built
 * once per episode, and per-step arrays come from an arena. Only the JSON
 * observation (observe) lists all of B(t), as the documented interface
 * requires; the in-process view (view) hands on the newly burning cells.
 */

import { WeakCache } from '../weak-cache.js';
import { personId, type Observation, type ObservedPerson } from './observation.js';
import { checkActionSet, checkMoveCodes, type ActionCheckContext } from './action-check.js';
import { DEAD, EVACUATED, STRANDED, type EpisodeOutcome, type StepEvent, type TerminationReason } from './events.js';
import { Arena } from './arena.js';
import type { MoveView } from './move-view.js';
import { MovementResolver } from './resolver.js';
import { FLOOR, type CellPair, type Grid } from '../world/grid.js';
import { frozenPair, frozenPairTable, type FrozenPairTable } from '../world/frozen-pairs.js';
import { fireGrowth, type FireGrowth } from '../world/fire.js';
import type { EpisodeStart, FireWorld } from '../world/scenario-types.js';

/** An empty person list, shared (a zero-length array cannot be written to). */
const NOBODY = new Int32Array(0);

// The frozen map of a grid's observations, one per grid: every episode of a
// scenario hands agents the same array, so what an agent derives from the
// map (its grid, neighbour tables, static field) is derived once.
const MAP_VIEWS = new WeakCache((grid: Grid): readonly string[] => Object.freeze([...grid.map]));

/** Merges ascending, disjoint cell lists into one ascending list. */
function mergeAscending(base: readonly number[], added: readonly number[]): number[] {
  const out = new Array<number>(base.length + added.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < base.length && j < added.length) out[k++] = base[i]! < added[j]! ? base[i++]! : added[j++]!;
  while (i < base.length) out[k++] = base[i++]!;
  while (j < added.length) out[k++] = added[j++]!;
  return out;
}

// The view's copy loops are functions of their own: inside view() the first
// loop made V8 compile view() for entry in the loop (on-stack replacement),
// and that code, reused on every call, left the optimised code after the
// loop nearly every step (seen with --trace-deopt).

/** `persons[k] = active[k]` and `out[k] = cells[active[k]]` for every active position k. */
function copyActive(active: Int32Array, cells: Int32Array, persons: Int32Array, out: Int32Array): void {
  for (let k = 0; k < active.length; k++) {
    const i = active[k]!;
    persons[k] = i;
    out[k] = cells[i]!;
  }
}

/** Copies a cell list into the front of `out` (long enough). */
function copyCells(cells: readonly number[], out: Int32Array): void {
  for (let k = 0; k < cells.length; k++) out[k] = cells[k]!;
}

export class EpisodeSimulation implements ActionCheckContext {
  readonly grid: Grid;
  readonly fire: FireWorld;
  /** The fire as far as this episode has come (computed step by step, fire.ts). */
  private readonly growth: FireGrowth;
  readonly ignitionStep: Int32Array;
  /** N. */
  readonly population: number;
  /** H. */
  readonly maxSteps: number;
  readonly ids: readonly string[];
  private idIndex: Map<string, number> | undefined;
  /** Each person's cell by person index (the exit for an evacuee, the death cell for a casualty). */
  readonly cells: Int32Array;
  readonly status: Uint8Array;
  /** Evacuation or death step, H for stranded persons; 0 while active. */
  readonly statusStep: Int32Array;

  private now = 0;
  private activeNow: Int32Array;
  private ended: TerminationReason | null = null;
  private evacuatedCount = 0;
  private deadCount = 0;
  private readonly resolver: MovementResolver;
  /** This episode's per-step arrays (arena.ts). */
  readonly arena = new Arena();

  // Observation caches: the static parts are built once and frozen, so an
  // in-process agent that mutates its observation cannot corrupt the next one.
  // Made on first use: only observe() (the documented interface) reads them,
  // and a cell-sized array cost milliseconds per episode on large grids.
  private pairTable: FrozenPairTable | undefined;
  private exitsView: readonly CellPair[] | undefined;
  private readonly mapView: readonly string[];
  private burningCells: readonly number[] = [];
  private burningView: readonly CellPair[] = Object.freeze([]);
  private burningViewStep = -1;
  // The fast path's view: scratch copies, so an agent that writes into them cannot corrupt the episode.
  private readonly viewPersons: Int32Array;
  private readonly viewCells: Int32Array;
  private viewAdded = new Int32Array(16);

  constructor(readonly start: EpisodeStart) {
    const { scenario, fire, startCells } = start;
    const grid = scenario.grid;
    this.grid = grid;
    this.fire = fire;
    this.population = startCells.length;
    this.maxSteps = scenario.maxSteps;
    if (fire.maxSteps !== this.maxSteps) throw new RangeError('the fire world does not cover the scenario horizon');
    this.growth = fireGrowth(fire);
    // Exact for B(0) now, and for B(t) once newlyAt(t) has run: every read below is of a snapshot computed.
    this.ignitionStep = this.growth.ignitionStep;
    const ids = new Array<string>(this.population);
    const activeNow = new Int32Array(this.population);
    this.resolver = new MovementResolver(grid, this.arena);
    // A byte per cell rather than a Set: 10,000 Set insertions showed in the cost of preparing an episode.
    const seen = new Uint8Array(grid.kinds.length);
    for (let i = 0; i < this.population; i++) {
      const cell = startCells[i]!;
      // Scenario validation guarantees these; a violation is a library bug.
      if (grid.kinds[cell] !== FLOOR || this.ignitionStep[cell]! <= 0 || seen[cell] === 1) {
        throw new RangeError(`person ${i} starts on a cell that is not a free, non-burning floor cell`);
      }
      seen[cell] = 1;
      ids[i] = personId(i);
      activeNow[i] = i;
    }
    this.ids = ids;
    this.cells = Int32Array.from(startCells);
    this.status = new Uint8Array(this.population); // all ACTIVE
    this.statusStep = new Int32Array(this.population);
    this.activeNow = activeNow;
    this.mapView = MAP_VIEWS.get(grid);
    this.viewPersons = new Int32Array(this.population);
    this.viewCells = new Int32Array(this.population);
    if (this.population === 0) this.ended = 'all_resolved';
  }

  /** Person index of each ID (made on first use: only the check of an action set keyed by ID reads it). */
  get indexOfId(): ReadonlyMap<string, number> {
    if (this.idIndex === undefined) {
      this.idIndex = new Map();
      for (let i = 0; i < this.ids.length; i++) this.idIndex.set(this.ids[i]!, i);
    }
    return this.idIndex;
  }

  /** The current snapshot t. */
  get t(): number {
    return this.now;
  }

  /** Active person indices at snapshot t, in person order (do not mutate). */
  get active(): Int32Array {
    return this.activeNow;
  }

  get done(): boolean {
    return this.ended !== null;
  }

  get termination(): TerminationReason | null {
    return this.ended;
  }

  get evacuated(): number {
    return this.evacuatedCount;
  }

  get dead(): number {
    return this.deadCount;
  }

  /** A frozen `[row, col]` for a cell, shared between observations. */
  pair(cell: number): CellPair {
    return frozenPair((this.pairTable ??= frozenPairTable(this.grid)), this.grid.cols, cell);
  }

  /** The exits as frozen pairs, made on first use. */
  private exitPairs(): readonly CellPair[] {
    return (this.exitsView ??= Object.freeze(this.grid.exits.map((cell) => this.pair(cell))));
  }

  /** B(t), row-major, as the cells of the current snapshot. */
  burningAt(): readonly CellPair[] {
    if (this.burningViewStep === this.now) return this.burningView;
    let added: number[] = [];
    for (let s = this.burningViewStep + 1; s <= this.now; s++) {
      const fresh = this.growth.newlyAt(s);
      if (fresh.length > 0) added = added.length === 0 ? fresh.slice() : mergeAscending(added, fresh);
    }
    if (added.length > 0 || this.burningViewStep < 0) {
      this.burningCells = mergeAscending(this.burningCells, added);
      this.burningView = Object.freeze(this.burningCells.map((cell) => this.pair(cell)));
    }
    this.burningViewStep = this.now;
    return this.burningView;
  }

  /** The observation of snapshot t (observation_version 1.0). */
  observe(): Observation {
    const active = this.activeNow;
    const people = new Array<ObservedPerson>(active.length);
    for (let k = 0; k < active.length; k++) {
      const i = active[k]!;
      people[k] = { id: this.ids[i]!, cell: this.pair(this.cells[i]!) };
    }
    return {
      step: this.now,
      max_steps: this.maxSteps,
      map: this.mapView,
      exits: this.exitPairs(),
      burning: this.burningAt(),
      people,
      evacuated: this.evacuatedCount,
      dead: this.deadCount,
    };
  }

  /**
   * Snapshot t for an in-process agent (move-view.ts): the observation's
   * content in typed arrays, the fire as B(t) minus B(t-1). O(active persons
   * + newly burning cells).
   */
  view(): MoveView {
    const active = this.activeNow;
    const n = active.length;
    const { viewPersons, viewCells } = this;
    copyActive(active, this.cells, viewPersons, viewCells);
    const fresh = this.growth.newlyAt(this.now);
    if (this.viewAdded.length < fresh.length) this.viewAdded = new Int32Array(fresh.length);
    const added = this.viewAdded;
    copyCells(fresh, added);
    return {
      step: this.now,
      maxSteps: this.maxSteps,
      map: this.mapView,
      count: n,
      persons: viewPersons,
      cells: viewCells,
      added: fresh.length === 0 ? NOBODY : added.subarray(0, fresh.length),
      evacuated: this.evacuatedCount,
      dead: this.deadCount,
    };
  }

  /** The action check of an agent's output; returns a direction code per active person. */
  checkActions(actions: unknown): Uint8Array {
    this.assertRunning();
    return checkActionSet(this, actions);
  }

  /** The action check on direction codes (recorded actions). */
  checkMoves(moves: Uint8Array): void {
    this.assertRunning();
    checkMoveCodes(this, moves);
  }

  /**
   * Phases 3-6 of one step with checked moves (one direction code per active
   * person, as checkActions returns them; the event keeps the array, so do
   * not reuse it).
   */
  step(moves: Uint8Array): StepEvent {
    this.assertRunning();
    const active = this.activeNow;
    const n = active.length;
    if (moves.length !== n) throw new RangeError(`step needs ${n} moves, got ${moves.length}`);
    const { cells, status, statusStep, ignitionStep } = this;
    const t = this.now;
    const t1 = t + 1;

    const arena = this.arena;
    const cellsBefore = arena.int32(n);
    for (let k = 0; k < n; k++) cellsBefore[k] = cells[active[k]!]!;
    // 3. Movement. The action check kept every target out of B(t), so an exit won is non-burning.
    const resolution = this.resolver.resolve(cellsBefore, moves);

    // 4-5. Fire is B(t+1) from the fire world (computed up to t+1 here); whoever stands on it dies.
    const newlyBurning = this.growth.newlyAt(t1);
    const next = arena.int32(n);
    // Taken at the first death only: most steps have none.
    let died: Int32Array = NOBODY;
    let remaining = 0;
    let deaths = 0;
    for (let k = 0; k < n; k++) {
      const i = active[k]!;
      const cell = resolution.cells[k]!;
      cells[i] = cell;
      if (resolution.evacuated[k] === 1) {
        status[i] = EVACUATED;
        statusStep[i] = t1;
        this.evacuatedCount++;
      } else if (ignitionStep[cell]! <= t1) {
        status[i] = DEAD;
        statusStep[i] = t1;
        if (deaths === 0) died = arena.int32(n);
        died[deaths++] = i;
      } else {
        next[remaining++] = i;
      }
    }
    this.deadCount += deaths;
    this.now = t1;

    // 6. Termination.
    if (remaining === 0) {
      this.ended = 'all_resolved';
      this.activeNow = NOBODY;
    } else if (t1 === this.maxSteps) {
      this.ended = 'horizon';
      for (let k = 0; k < remaining; k++) {
        status[next[k]!] = STRANDED;
        statusStep[next[k]!] = this.maxSteps;
      }
      this.activeNow = NOBODY;
    } else {
      // A subarray only when someone left: creating one costs as much as a few people's step.
      this.activeNow = remaining === n ? next : next.subarray(0, remaining);
    }

    return {
      t,
      active,
      cellsBefore,
      moves,
      resolution,
      died: deaths === 0 ? NOBODY : died.subarray(0, deaths),
      newlyBurning,
    };
  }

  /** How the episode ended; only once it is done. */
  outcome(): EpisodeOutcome {
    if (this.ended === null) throw new Error(`the episode is still running at step ${this.now}`);
    return {
      termination: this.ended,
      steps: this.now,
      status: this.status.slice(),
      statusStep: this.statusStep.slice(),
    };
  }

  private assertRunning(): void {
    if (this.ended !== null) throw new Error(`the episode already ended at step ${this.now} (${this.ended})`);
  }
}
