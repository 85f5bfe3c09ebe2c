/**
 * A growing buffer of ASCII bytes that becomes one string at the end, for
 * canonical JSON written by a writer that knows its shape (record-text.ts).
 * A long record written as strings was tens of thousands of short strings
 * and their concatenations, which the writer then joined and the collector
 * copied (2.9 us a step of a 10,000-step record); as bytes it is one pass,
 * which the caller hashes and writes as they are, or decodes once
 * (ascii-text.ts). Strings go through canonicalString's rule, so the bytes
 * are those canonicalJson would write.
 */

import { asciiText } from '../ascii-text.js';
import { canonicalString, isPlainString } from '../json/canonical.js';

/** The TextEncoder (src/core compiles without DOM or Node types); Node, browsers and Electron have it. */
declare const TextEncoder: (new () => { encodeInto(text: string, into: Uint8Array): unknown }) | undefined;

const encoder = typeof TextEncoder === 'function' ? new TextEncoder() : undefined;
// From this length a string is copied by one native encodeInto rather than
// character by character (whose cost grows with the length, the call's not).
const LONG = 64;

/**
 * Writes the digits of `value` (0 <= value < 1e9, an integer) at `at`; the
 * position after them. Integer arithmetic (`| 0`: the value fits 31 bits),
 * and the one to three digits of a grid's rows and columns without a loop.
 */
function writeDigits(bytes: Uint8Array, at: number, value: number): number {
  if (value < 10) {
    bytes[at] = 0x30 + value;
    return at + 1;
  }
  if (value < 100) {
    const tens = (value / 10) | 0;
    bytes[at] = 0x30 + tens;
    bytes[at + 1] = 0x30 + value - tens * 10;
    return at + 2;
  }
  if (value < 1000) {
    const hundreds = (value / 100) | 0;
    const rest = value - hundreds * 100;
    const tens = (rest / 10) | 0;
    bytes[at] = 0x30 + hundreds;
    bytes[at + 1] = 0x30 + tens;
    bytes[at + 2] = 0x30 + rest - tens * 10;
    return at + 3;
  }
  let digits = 4;
  for (let rest = (value / 1000) | 0; rest >= 10; rest = (rest / 10) | 0) digits++;
  let rest = value;
  for (let k = at + digits - 1; k >= at; k--) {
    const next = (rest / 10) | 0;
    bytes[k] = 0x30 + rest - next * 10;
    rest = next;
  }
  return at + digits;
}

/** Whether `value` is an integer that writeDigits writes (0 <= value < 1e9). */
function isSmall(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value < 1e9 && Math.floor(value) === value;
}

/** The bytes of an ASCII constant, for `AsciiBuffer.literal`. */
export function asciiBytes(text: string): Uint8Array {
  return Uint8Array.from(text, (ch) => ch.charCodeAt(0));
}

/** A value off the shape the writer knows: its caller falls back to the generic writer. */
export class OffShape extends Error {}

// The buffer of the last AsciiBuffer released, for the next: a record is
// written every episode, and a fresh buffer of tens of kilobytes each time
// cost more than the writing on a large hall. Kept up to KEPT bytes.
let spare: Uint8Array | undefined;
const KEPT = 8 << 20;
const MIN_CAPACITY = 1 << 16;

export class AsciiBuffer {
  private bytes: Uint8Array;
  private size = 0;

  /**
   * A buffer with room for `capacity` bytes (a hint: it grows past it), the
   * spare one if that is large enough; `release()` or `detach()` it when its
   * bytes have been used. Made at its size once, a record of megabytes is
   * not copied through every doubling on the way, nor are the pages of the
   * smaller buffers touched (on a virtual machine a fresh page costs more
   * than writing it).
   */
  constructor(capacity = MIN_CAPACITY) {
    const kept = spare;
    spare = undefined;
    this.bytes = kept !== undefined && kept.length >= capacity ? kept : new Uint8Array(Math.max(capacity, MIN_CAPACITY));
  }

  /** Gives the buffer back for the next AsciiBuffer; what `written()` returned is then no longer valid. */
  release(): void {
    if (this.bytes.length <= KEPT) spare = this.bytes;
    this.bytes = new Uint8Array(0);
    this.size = 0;
  }

  /** Everything written, as the caller's own bytes: the buffer is not kept for reuse, so nothing is copied. */
  detach(): Uint8Array {
    const written = this.bytes.subarray(0, this.size);
    this.bytes = new Uint8Array(0);
    this.size = 0;
    return written;
  }

  get length(): number {
    return this.size;
  }

  /** The buffer, with room for `n` more bytes. */
  private room(n: number): Uint8Array {
    if (this.size + n > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.size + n, 2 * this.bytes.length));
      grown.set(this.bytes.subarray(0, this.size));
      this.bytes = grown;
    }
    return this.bytes;
  }

  /** Appends `text`, which the caller knows to be ASCII. */
  ascii(text: string): void {
    const n = text.length;
    const bytes = this.room(n);
    const at = this.size;
    if (n >= LONG && encoder !== undefined) encoder.encodeInto(text, bytes.subarray(at, at + n));
    else for (let k = 0; k < n; k++) bytes[at + k] = text.charCodeAt(k);
    this.size = at + n;
  }

  /** Appends `bytes` (ASCII: the writer's constant pieces, encoded once). */
  literal(bytes: Uint8Array): void {
    const n = bytes.length;
    const into = this.room(n);
    const at = this.size;
    for (let k = 0; k < n; k++) into[at + k] = bytes[k]!;
    this.size = at + n;
  }

  byte(code: number): void {
    this.room(1)[this.size++] = code;
  }

  /** An integer as canonical JSON writes it (-0 as 0); anything else is OffShape. */
  integer(value: unknown): void {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new OffShape();
    if (value < 0 || value >= 1e9) this.ascii(String(value));
    else this.size = writeDigits(this.room(9), this.size, value);
  }

  /**
   * A list of `[row,col]` pairs of integers, as canonical JSON writes it;
   * anything else is OffShape. Pairs of small non-negative integers (all a
   * record holds) are written straight into room made for the whole list.
   */
  pairs(value: unknown): void {
    if (!Array.isArray(value)) throw new OffShape();
    const list = value as readonly unknown[];
    const n = list.length;
    // Room for every pair at its longest (a comma, brackets, nine digits each) and the brackets of the list.
    let bytes = this.room(2 + n * 22);
    let at = this.size;
    bytes[at++] = 0x5b; // [
    for (let k = 0; k < n; k++) {
      const pair = list[k];
      if (!Array.isArray(pair) || pair.length !== 2) throw new OffShape();
      const row: unknown = pair[0];
      const col: unknown = pair[1];
      if (k > 0) bytes[at++] = 0x2c; // ,
      if (isSmall(row) && isSmall(col)) {
        bytes[at++] = 0x5b;
        at = writeDigits(bytes, at, row);
        bytes[at++] = 0x2c;
        at = writeDigits(bytes, at, col);
        bytes[at++] = 0x5d;
      } else {
        // Rare: negative, large or not integers at all (then OffShape).
        this.size = at;
        this.byte(0x5b);
        this.integer(row);
        this.byte(0x2c);
        this.integer(col);
        this.byte(0x5d);
        bytes = this.room(2 + (n - k) * 22);
        at = this.size;
      }
    }
    bytes[at++] = 0x5d; // ]
    this.size = at;
  }

  /** A string as canonicalString writes it; anything else is OffShape. */
  quoted(value: unknown): void {
    if (typeof value !== 'string') throw new OffShape();
    const n = value.length;
    if (n < LONG) {
      // Checked as it is copied: most strings here are short ids and
      // statuses, for which a regular expression cost more than the copy.
      const bytes = this.room(n + 2);
      let at = this.size;
      bytes[at++] = 0x22;
      for (let k = 0; k < n; k++) {
        const code = value.charCodeAt(k);
        if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) {
          this.ascii(canonicalString(value)); // escaped: ASCII throughout
          return;
        }
        bytes[at++] = code;
      }
      bytes[at++] = 0x22;
      this.size = at;
    } else if (isPlainString(value)) {
      this.byte(0x22);
      this.ascii(value);
      this.byte(0x22);
    } else {
      this.ascii(canonicalString(value));
    }
  }

  /** Appends a copy of bytes [start, end) already written. */
  repeat(start: number, end: number): void {
    const bytes = this.room(end - start);
    bytes.copyWithin(this.size, start, end);
    this.size += end - start;
  }

  /** Everything written, as a view of the buffer (no copy), valid until `release()`. */
  written(): Uint8Array {
    return this.bytes.subarray(0, this.size);
  }

  /** The text of everything written. */
  text(): string {
    return asciiText(this.written());
  }
}

/**
 * `AsciiBuffer.quoted` for one field of consecutive steps: a value equal to
 * the last one is copied from where it was written. The steps of a waiting
 * crowd share their direction strings (direction-text.ts).
 */
export class QuotedRepeats {
  private value: string | undefined;
  private start = 0;
  private end = 0;

  write(out: AsciiBuffer, value: unknown): void {
    if (value === this.value && this.value !== undefined) {
      out.repeat(this.start, this.end);
      return;
    }
    const start = out.length;
    out.quoted(value);
    this.value = value as string;
    this.start = start;
    this.end = out.length;
  }
}
