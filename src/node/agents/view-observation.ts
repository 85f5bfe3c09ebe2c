/**
 * The module host's side of view requests (agent-protocol.ts ViewDelta):
 * it keeps the previous snapshot (active persons, their cells, the burning
 * cells) and rebuilds from each delta the very observation the evaluator's
 * `observe()` would have sent, as fresh objects every step (agent code may
 * mutate what it gets). It also reduces an action set to one digit per
 * active person when the set names exactly the active persons with valid
 * actions; any other set goes back whole, so the evaluator's action check
 * reports it exactly as for `act`.
 */

import type { CellPair } from '../../core/world/grid.js';
import { gridFromMap } from '../../core/world/grid.js';
import { personId, type Observation, type ObservedPerson } from '../../core/sim/observation.js';
import type { ViewDelta } from '../../shared/agent-protocol.js';
import { mergeAscending } from './merge-ascending.js';

const CODES: Readonly<Record<string, number>> = { STAY: 0, N: 1, E: 2, S: 3, W: 4 };
const hasOwn = Object.prototype.hasOwnProperty;

/** The digit (character code) of an action string, -1 for anything else. */
function codeOf(value: unknown): number {
  return typeof value === 'string' && hasOwn.call(CODES, value) ? 48 + CODES[value]! : -1;
}

export class ViewObservations {
  private map: readonly string[] = [];
  /** Row and column of every cell, so that the [row, col] pairs of a step cost no division. */
  private rowOf = new Int32Array(0);
  private colOf = new Int32Array(0);
  private maxSteps = 0;
  private exits: readonly number[] = [];
  /** Active person indices, in person order. */
  private active: number[] = [];
  /** Cell and active position of each person, by person index. */
  private cellOf = new Int32Array(16);
  private positionOf = new Int32Array(16);
  /** Person index of each ID of this episode (the IDs of the start view). */
  private readonly indexOfId = new Map<string, number>();
  /** Burning cells, ascending. */
  private burning: number[] = [];
  private nextStep = 0;
  private codes = new Uint8Array(16);

  /** Applies one delta and returns the observation of its snapshot; Error when the delta does not follow the previous one. */
  observe(delta: ViewDelta): Observation {
    if (delta.start !== undefined) this.begin(delta.start.map, delta.start.max_steps);
    else if (delta.step !== this.nextStep || this.nextStep === 0) throw new Error(`view of step ${delta.step} does not follow the previous view`);
    this.nextStep = delta.step + 1;
    this.applyPeople(delta);
    this.mergeBurning(delta.added);
    const { rowOf, colOf, active, cellOf } = this;
    const pair = (cell: number): CellPair => [rowOf[cell]!, colOf[cell]!];
    const people = new Array<ObservedPerson>(active.length);
    for (let k = 0; k < active.length; k++) {
      const p = active[k]!;
      people[k] = { id: personId(p), cell: pair(cellOf[p]!) };
    }
    // The key order of the evaluator's observe(), which the JSON channel keeps.
    return {
      step: delta.step,
      max_steps: this.maxSteps,
      map: this.map.slice(),
      exits: this.exits.map(pair),
      burning: this.burning.map(pair),
      people,
      evacuated: delta.evacuated,
      dead: delta.dead,
    };
  }

  /**
   * The digits (0..4 per active person, in person order) of an action set
   * that names exactly the active persons, each with one of STAY N E S W;
   * undefined for any other set. `entries` are the set's own entries, read once.
   */
  movesOf(entries: readonly (readonly [string, unknown])[]): string | undefined {
    const { active, positionOf } = this;
    const n = active.length;
    if (entries.length !== n) return undefined;
    if (this.codes.length < n) this.codes = new Uint8Array(Math.max(n, this.codes.length * 2));
    const codes = this.codes;
    // Most agents fill the set in observation order: then entry k names active person k.
    let k = 0;
    for (; k < n; k++) {
      const [key, value] = entries[k]!;
      if (key !== personId(active[k]!)) break;
      const code = codeOf(value);
      if (code < 0) return undefined;
      codes[k] = code;
    }
    // Any other order: each key found by its ID. Keys are distinct, so n keys
    // that each name a different active person name them all.
    for (; k < n; k++) {
      const [key, value] = entries[k]!;
      const p = this.indexOfId.get(key);
      if (p === undefined) return undefined;
      const position = positionOf[p]!;
      const code = codeOf(value);
      if (position < 0 || active[position] !== p || code < 0) return undefined;
      codes[position] = code;
    }
    return Buffer.from(codes.buffer, codes.byteOffset, n).toString('latin1');
  }

  private begin(map: readonly string[], maxSteps: number): void {
    const grid = gridFromMap(map);
    this.map = map;
    const size = grid.rows * grid.cols;
    this.rowOf = new Int32Array(size);
    this.colOf = new Int32Array(size);
    for (let cell = 0; cell < size; cell++) {
      this.rowOf[cell] = Math.floor(cell / grid.cols);
      this.colOf[cell] = cell % grid.cols;
    }
    this.maxSteps = maxSteps;
    this.exits = grid.exits;
    this.active = [];
    this.burning = [];
    this.indexOfId.clear();
    this.positionOf.fill(-1);
  }

  private applyPeople(delta: ViewDelta): void {
    const { people, gone } = delta;
    if (delta.start !== undefined) {
      for (let j = 0; j < people.length; j += 2) {
        const p = people[j]!;
        this.ensurePerson(p);
        this.active.push(p);
        this.indexOfId.set(personId(p), p);
      }
    }
    if (gone.length > 0) {
      for (const p of gone) if (p < this.positionOf.length) this.positionOf[p] = -1;
      this.active = this.active.filter((p) => this.positionOf[p] !== -1);
    }
    for (let k = 0; k < this.active.length; k++) this.positionOf[this.active[k]!] = k;
    for (let j = 0; j < people.length; j += 2) {
      const p = people[j]!;
      if (p >= this.positionOf.length || this.active[this.positionOf[p]!] !== p) throw new Error(`view moves person ${p}, who is not active`);
      this.cellOf[p] = people[j + 1]!;
    }
  }

  private ensurePerson(p: number): void {
    if (p < this.cellOf.length) return;
    const size = Math.max(p + 1, this.cellOf.length * 2);
    const cells = new Int32Array(size);
    cells.set(this.cellOf);
    const positions = new Int32Array(size).fill(-1);
    positions.set(this.positionOf);
    this.cellOf = cells;
    this.positionOf = positions;
  }

  /** Merges the ascending newly burning cells into the ascending burning list. */
  private mergeBurning(added: readonly number[]): void {
    if (added.length === 0) return;
    const old = this.burning;
    if (old.length === 0 || old[old.length - 1]! < added[0]!) {
      for (const cell of added) old.push(cell);
      return;
    }
    this.burning = mergeAscending(old, added);
  }
}
