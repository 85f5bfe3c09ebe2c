/**
 * The evaluator's side of view requests (agent-protocol.ts ViewDelta): turns
 * the runner's MoveView of each step into the change since the previous one
 * (persons gone, persons moved, cells newly burning), so a step costs the
 * channel O(change), not O(crowd + fire). The module host rebuilds the full
 * observation from it (view-observation.ts). Decodes the host's digits too.
 */

import type { MoveView } from '../../core/sim/move-view.js';
import type { ViewDelta } from '../../shared/agent-protocol.js';

export class ViewDeltaWriter {
  private persons = new Int32Array(16);
  private cells = new Int32Array(16);
  private count = 0;
  private nextStep = 0;

  /** The delta of `view`; views must come one per step from step 0 (RangeError otherwise). */
  next(view: MoveView): ViewDelta {
    if (view.step !== this.nextStep) throw new RangeError(`views must come one per step: got step ${view.step}, expected ${this.nextStep}`);
    const first = this.nextStep === 0;
    this.nextStep = view.step + 1;
    const n = view.count;
    const gone: number[] = [];
    const people: number[] = [];
    const { persons, cells } = view;
    if (first) {
      for (let k = 0; k < n; k++) people.push(persons[k]!, cells[k]!);
    } else {
      // People only leave, so the current persons are a subsequence of the previous ones.
      const before = this.persons;
      const beforeCells = this.cells;
      let j = 0;
      for (let k = 0; k < n; k++) {
        const p = persons[k]!;
        while (j < this.count && before[j] !== p) gone.push(before[j++]!);
        if (j === this.count) throw new RangeError(`view names person ${p}, who was not active before`);
        if (beforeCells[j++] !== cells[k]) people.push(p, cells[k]!);
      }
      while (j < this.count) gone.push(before[j++]!);
    }
    if (this.persons.length < n) {
      this.persons = new Int32Array(Math.max(n, this.persons.length * 2));
      this.cells = new Int32Array(this.persons.length);
    }
    this.persons.set(persons.subarray(0, n));
    this.cells.set(cells.subarray(0, n));
    this.count = n;
    const added = Array.from(view.added);
    const common = { step: view.step, evacuated: view.evacuated, dead: view.dead };
    return first ? { ...common, start: { max_steps: view.maxSteps, map: view.map }, gone, people, added } : { ...common, gone, people, added };
  }
}

/**
 * Writes the host's digits (0..4 per active person) into `moves`; false when
 * they are not exactly that (the host, which runs agent code, is then not
 * to be trusted).
 */
export function decodeMoves(digits: string, moves: Uint8Array): boolean {
  if (digits.length !== moves.length) return false;
  for (let k = 0; k < digits.length; k++) {
    const code = digits.charCodeAt(k) - 48;
    if (code < 0 || code > 4) return false;
    moves[k] = code;
  }
  return true;
}
