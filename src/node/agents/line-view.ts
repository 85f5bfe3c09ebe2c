/**
 * The line protocol on the runner's fast path (MoveView): observation lines
 * written straight from the view, and action lines scanned straight into
 * direction codes, so that a step costs the evaluator O(change) string work
 * instead of building, serializing, parsing and checking objects.
 *
 * - `fullLine` is byte-identical to encodeObservationLine(observe()) (the
 *   default protocol; a test compares them on every public scenario).
 * - `deltaLine` is the opt-in form (docs/agents.md): what changed since the
 *   previous line, as canonical JSON: cells newly burning, persons gone,
 *   persons moved.
 * - `scanMoves` accepts only a line that parses (strictly) to an object
 *   naming exactly the active persons, each with one of STAY N E S W; on any
 *   other line it returns false and the caller decodes the line the slow
 *   way, so every error stays exactly that of the act path.
 */

import { canonicalJson } from '../../core/json/canonical.js';
import type { MoveView } from '../../core/sim/move-view.js';
import { personId } from '../../core/sim/observation.js';
import { gridFromMap } from '../../core/world/grid.js';
import { mergeAscending } from './merge-ascending.js';

/** Byte -> whitespace that strict JSON (and the line's allowed trailing CR) accepts between tokens. */
function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a;
}

export class LineViewCodec {
  private cols = 1;
  private mapText = '';
  private exitsText = '';
  /** "[r,c]" of each cell, made on first use. */
  private pairText: string[] = [];
  /** Burning cells, ascending, and their canonical text. */
  private burning: number[] = [];
  private burningText = '[]';
  /** The previous view's persons and cells (for deltas), and each person's position now. */
  private persons = new Int32Array(16);
  private cells = new Int32Array(16);
  private count = 0;
  private positionOf = new Int32Array(16);
  private seen = new Int32Array(16);
  private stamp = 0;
  private nextStep = 0;

  /** Reads one view (views come one per step from step 0; RangeError otherwise); call before the line functions. */
  advance(view: MoveView): void {
    if (view.step !== this.nextStep) throw new RangeError(`views must come one per step: got step ${view.step}, expected ${this.nextStep}`);
    if (view.step === 0) {
      const grid = gridFromMap(view.map);
      this.cols = grid.cols;
      this.mapText = canonicalJson(view.map as string[]);
      this.exitsText = '[' + grid.exits.map((cell) => this.pair(cell)).join(',') + ']';
    }
    this.nextStep = view.step + 1;
    const added = view.added;
    if (added.length > 0) {
      const old = this.burning;
      if (old.length === 0 || old[old.length - 1]! < added[0]!) {
        for (const cell of added) old.push(cell);
        const tail = Array.from(added, (cell) => this.pair(cell)).join(',');
        this.burningText = old.length === added.length ? `[${tail}]` : `${this.burningText.slice(0, -1)},${tail}]`;
      } else {
        this.burning = mergeAscending(old, added);
        this.burningText = '[' + this.burning.map((cell) => this.pair(cell)).join(',') + ']';
      }
    }
  }

  /** The canonical observation line of the view (keys in code-point order), LF included. */
  fullLine(view: MoveView): string {
    const { persons, cells, count } = view;
    let people = '';
    for (let k = 0; k < count; k++) {
      people += `${k === 0 ? '' : ','}{"cell":${this.pair(cells[k]!)},"id":"${personId(persons[k]!)}"}`;
    }
    return (
      `{"burning":${this.burningText},"dead":${view.dead},"evacuated":${view.evacuated},"exits":${this.exitsText},` +
      `"map":${this.mapText},"max_steps":${view.maxSteps},"people":[${people}],"step":${view.step}}\n`
    );
  }

  /** The opt-in delta line: what changed since the previous view, LF included. Call `remember` after it. */
  deltaLine(view: MoveView): string {
    const { persons, cells, count } = view;
    const gone: string[] = [];
    let moved = '';
    let j = 0;
    for (let k = 0; k < count; k++) {
      const p = persons[k]!;
      // People only leave: the current persons are a subsequence of the previous ones.
      while (j < this.count && this.persons[j] !== p) gone.push(`"${personId(this.persons[j++]!)}"`);
      if (j === this.count) throw new RangeError(`view names person ${p}, who was not active before`);
      if (this.cells[j++] !== cells[k]) moved += `${moved === '' ? '' : ','}{"cell":${this.pair(cells[k]!)},"id":"${personId(p)}"}`;
    }
    while (j < this.count) gone.push(`"${personId(this.persons[j++]!)}"`);
    const added = Array.from(view.added, (cell) => this.pair(cell)).join(',');
    return `{"added":[${added}],"dead":${view.dead},"evacuated":${view.evacuated},"gone":[${gone.join(',')}],"moved":[${moved}],"step":${view.step}}\n`;
  }

  /** Keeps the view's persons and cells as the base of the next delta. */
  remember(view: MoveView): void {
    const n = view.count;
    if (this.persons.length < n) {
      this.persons = new Int32Array(Math.max(n, this.persons.length * 2));
      this.cells = new Int32Array(this.persons.length);
    }
    this.persons.set(view.persons.subarray(0, n));
    this.cells.set(view.cells.subarray(0, n));
    this.count = n;
  }

  /** Writes the direction codes of an action line that names exactly the view's persons with valid actions; false for any other line. */
  scanMoves(line: Uint8Array, view: MoveView, moves: Uint8Array): boolean {
    const { persons, count } = view;
    let top = 1;
    for (let k = 0; k < count; k++) if (persons[k]! >= top) top = persons[k]! + 1;
    if (this.positionOf.length < top) this.positionOf = new Int32Array(Math.max(top, this.positionOf.length * 2));
    if (this.seen.length < count) this.seen = new Int32Array(Math.max(count, this.seen.length * 2));
    const stamp = ++this.stamp;
    const { positionOf, seen } = this;
    for (let k = 0; k < count; k++) positionOf[persons[k]!] = k;
    const end = line.length;
    let i = 0;
    while (i < end && isSpace(line[i]!)) i++;
    if (line[i++] !== 0x7b /* { */) return false;
    while (i < end && isSpace(line[i]!)) i++;
    let named = 0;
    if (line[i] === 0x7d /* } */) i++;
    else {
      for (;;) {
        // Key: "p" and digits, exactly personId(index) of an active person.
        if (line[i++] !== 0x22) return false;
        const keyStart = i;
        let index = 0;
        if (line[i++] !== 0x70 /* p */) return false;
        while (i < end && line[i]! >= 0x30 && line[i]! <= 0x39) index = index * 10 + line[i++]! - 0x30;
        if (line[i] !== 0x22 || i - keyStart < 5 || i - keyStart > 12) return false;
        const k = index < top ? positionOf[index]! : -1;
        if (k < 0 || k >= count || persons[k] !== index || seen[k] === stamp) return false;
        // Canonical form only ("p0001", not "p001"): the digits' count must be personId's.
        if (personId(index).length !== i - keyStart) return false;
        i++;
        while (i < end && isSpace(line[i]!)) i++;
        if (line[i++] !== 0x3a /* : */) return false;
        while (i < end && isSpace(line[i]!)) i++;
        const code = actionCode(line, i);
        if (code < 0) return false;
        i += code === 0 ? 6 : 3;
        seen[k] = stamp;
        moves[k] = code;
        named++;
        while (i < end && isSpace(line[i]!)) i++;
        const next = line[i++];
        if (next === 0x7d) break;
        if (next !== 0x2c /* , */) return false;
        while (i < end && isSpace(line[i]!)) i++;
      }
    }
    while (i < end && isSpace(line[i]!)) i++;
    return i === end && named === count;
  }

  private pair(cell: number): string {
    return (this.pairText[cell] ??= `[${Math.floor(cell / this.cols)},${cell % this.cols}]`);
  }
}

/** The direction code of the quoted action at `at` ("STAY" "N" "E" "S" "W", quotes included), or -1. */
function actionCode(line: Uint8Array, at: number): number {
  if (line[at] !== 0x22) return -1;
  const c = line[at + 1];
  if (line[at + 2] === 0x22) {
    switch (c) {
      case 0x4e:
        return 1;
      case 0x45:
        return 2;
      case 0x53:
        return 3;
      case 0x57:
        return 4;
      default:
        return -1;
    }
  }
  return c === 0x53 && line[at + 2] === 0x54 && line[at + 3] === 0x41 && line[at + 4] === 0x59 && line[at + 5] === 0x22 ? 0 : -1;
}
