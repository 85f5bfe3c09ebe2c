/**
 * The record's direction strings (`actions` and `moved`, record.ts): one
 * character per active person, `.` for STAY or a blocked move, else N E S W.
 */

import { asciiText } from '../ascii-text.js';
import { NOT_BLOCKED } from './resolver.js';

/** Char codes of '.', 'N', 'E', 'S', 'W', indexed by direction code. */
export const DIRECTION_CODES: readonly number[] = [0x2e, 0x4e, 0x45, 0x53, 0x57];

/** `MOVED_CODES[blocked * 5 + dir]`: the `moved` character of a move with block code `blocked` (0..3): its direction's, or '.' when blocked. */
export const MOVED_CODES: Uint8Array = Uint8Array.from({ length: 20 }, (_, k) => (Math.floor(k / 5) === NOT_BLOCKED ? DIRECTION_CODES[k % 5]! : 0x2e));

// Up to this many characters, appending one at a time is cheaper than a
// decode (ascii-text.ts), which costs about a microsecond a call whatever the length
// (measured: 10 moves, 0.13 us against 0.9 us): the fixed cost of every
// step of a long episode with few people.
const SHORT = 32;
/** One-character strings by char code (only the five direction codes are ever read). */
const CHAR_OF_CODE: readonly string[] = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code));

/** The text of the first `n` character codes of `codes` (ASCII). */
function codesText(codes: Uint8Array, n: number): string {
  if (n <= SHORT) {
    let out = '';
    for (let k = 0; k < n; k++) out += CHAR_OF_CODE[codes[k]!]!;
    return out;
  }
  return asciiText(codes.subarray(0, n));
}

/** Writes the character codes of `moves` (with `blocked`, a blocked move as '.') into `codes`. */
function writeCodes(codes: Uint8Array, moves: Uint8Array, blocked: Uint8Array | undefined): void {
  const n = moves.length;
  // Table reads rather than branches: blocked and direction vary person by person.
  if (blocked === undefined) for (let k = 0; k < n; k++) codes[k] = MOVED_CODES[moves[k]!]!;
  else for (let k = 0; k < n; k++) codes[k] = MOVED_CODES[blocked[k]! * 5 + moves[k]!]!;
}

/** Writes the codes as writeCodes does; whether any differs from what was there. */
function rewriteCodes(codes: Uint8Array, moves: Uint8Array, blocked: Uint8Array | undefined): boolean {
  const n = moves.length;
  let changed = false;
  if (blocked === undefined) {
    for (let k = 0; k < n; k++) {
      const code = MOVED_CODES[moves[k]!]!;
      if (codes[k] !== code) {
        codes[k] = code;
        changed = true;
      }
    }
  } else {
    for (let k = 0; k < n; k++) {
      const code = MOVED_CODES[blocked[k]! * 5 + moves[k]!]!;
      if (codes[k] !== code) {
        codes[k] = code;
        changed = true;
      }
    }
  }
  return changed;
}

let scratch = new Uint8Array(SHORT);

/**
 * The record string of direction codes; with `blocked`, a blocked move is
 * written as `.` (the `moved` string).
 */
export function directionString(moves: Uint8Array, blocked?: Uint8Array): string {
  if (scratch.length < moves.length) scratch = new Uint8Array(Math.max(moves.length, 2 * scratch.length));
  writeCodes(scratch, moves, blocked);
  return codesText(scratch, moves.length);
}

/**
 * directionString for one field of consecutive steps: a step whose string
 * equals the step before's gets that same string back, so it is neither
 * built again nor kept twice in the record. A crowd that waits, and the
 * people stranded to the horizon of a long episode, give such steps.
 */
export class DirectionStrings {
  private codes = new Uint8Array(SHORT);
  private length = -1;
  private text = '';

  of(moves: Uint8Array, blocked?: Uint8Array): string {
    const n = moves.length;
    // Growing means a longer crowd than the last string's, which is written whole below: nothing to copy.
    if (this.codes.length < n) this.codes = new Uint8Array(Math.max(n, 2 * this.codes.length));
    // A crowd whose number changed (someone left) cannot repeat the last string: no comparison then.
    if (n === this.length && !rewriteCodes(this.codes, moves, blocked)) return this.text;
    if (n !== this.length) writeCodes(this.codes, moves, blocked);
    this.length = n;
    this.text = codesText(this.codes, n);
    return this.text;
  }
}
