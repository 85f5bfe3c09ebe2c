/**
 * The canonical JSON text of a run record, written by a writer that knows
 * the record's shape, into one buffer of ASCII bytes (ascii-buffer.ts). The
 * generic canonical writer (json/canonical.ts) lists and checks the keys of
 * every step object and recurses into every `[row, col]` pair; for a record
 * that showed in profiles as much as a simulation step. The output is
 * byte-identical to `canonicalJson(record)` (record-text.test.ts compares
 * them); every string still goes through canonicalString's rule, and a value
 * of an unexpected type falls back to the generic writer, which refuses it
 * with its usual message.
 */

import { utf8ToBytes } from '@noble/hashes/utils.js';
import { asciiText } from '../ascii-text.js';
import { canonicalJson } from '../json/canonical.js';
import { AsciiBuffer, OffShape, QuotedRepeats, asciiBytes } from './ascii-buffer.js';
import { RECORD_KEYS } from './record-codec.js';
import type { RecordStep, RunRecord } from './record-types.js';

function array(value: unknown): readonly unknown[] {
  if (!Array.isArray(value)) throw new OffShape();
  return value as readonly unknown[];
}

/** Whether `value` is a plain object with exactly `keys` (in any order), all defined. */
function hasExactly(value: unknown, keys: readonly string[]): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const own = Object.keys(value);
  if (own.length !== keys.length) return false;
  for (const key of keys) if (!Object.hasOwn(value, key) || (value as Record<string, unknown>)[key] === undefined) return false;
  return true;
}

/**
 * Whether `value` is a plain object with exactly the five step keys, all
 * defined: hasExactly's answer, without listing the keys (an array a step,
 * which the collector then freed). A prototype with enumerable keys makes
 * the count differ, and the generic writer then writes the step.
 */
function isStep(value: unknown): value is RecordStep {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const step = value as Record<string, unknown>;
  let count = 0;
  for (const _key in step) count++;
  return (
    count === 5 &&
    Object.hasOwn(step, 'actions') &&
    Object.hasOwn(step, 'burning') &&
    Object.hasOwn(step, 'died') &&
    Object.hasOwn(step, 'evacuated') &&
    Object.hasOwn(step, 'moved') &&
    step['actions'] !== undefined &&
    step['burning'] !== undefined &&
    step['died'] !== undefined &&
    step['evacuated'] !== undefined &&
    step['moved'] !== undefined
  );
}

const INITIAL_KEYS = ['burning', 'people'];
const OPEN = 0x5b; // [
const CLOSE = 0x5d; // ]
const COMMA = 0x2c;

function writeStrings(out: AsciiBuffer, value: unknown): void {
  const list = array(value);
  out.byte(OPEN);
  for (let k = 0; k < list.length; k++) {
    if (k > 0) out.byte(COMMA);
    out.quoted(list[k]);
  }
  out.byte(CLOSE);
}

function writeOutcomes(out: AsciiBuffer, value: unknown): void {
  const list = array(value);
  out.byte(OPEN);
  for (let k = 0; k < list.length; k++) {
    const outcome = array(list[k]);
    if (outcome.length !== 2) throw new OffShape();
    if (k > 0) out.byte(COMMA);
    out.byte(OPEN);
    out.quoted(outcome[0]);
    out.byte(COMMA);
    out.integer(outcome[1]);
    out.byte(CLOSE);
  }
  out.byte(CLOSE);
}

// A step's keys as bytes, with their [] when the list is empty. Most steps
// of a long episode have every list empty but the fire's.
const FIRST_STEP = asciiBytes('{"actions":');
const NEXT_STEP = asciiBytes(',{"actions":');
const EMPTY_LISTS = asciiBytes(',"burning":[],"died":[],"evacuated":[],"moved":');
const BURNING = asciiBytes(',"burning":');
const NOTHING_BURNS = asciiBytes(',"burning":[]');
const DIED = asciiBytes(',"died":');
const NOBODY_DIED = asciiBytes(',"died":[]');
const EVACUATED = asciiBytes(',"evacuated":');
const NOBODY_EVACUATED = asciiBytes(',"evacuated":[]');
const MOVED = asciiBytes(',"moved":');

function isEmptyList(value: unknown): boolean {
  return Array.isArray(value) && value.length === 0;
}

function writeTrajectory(out: AsciiBuffer, value: unknown): void {
  const trajectory = array(value);
  // The direction strings of consecutive steps are often the same string.
  const actions = new QuotedRepeats();
  const moved = new QuotedRepeats();
  out.byte(OPEN);
  for (let k = 0; k < trajectory.length; k++) {
    const step = trajectory[k];
    if (!isStep(step)) throw new OffShape();
    out.literal(k === 0 ? FIRST_STEP : NEXT_STEP);
    actions.write(out, step.actions);
    const { burning, died, evacuated } = step;
    if (isEmptyList(burning) && isEmptyList(died) && isEmptyList(evacuated)) out.literal(EMPTY_LISTS);
    else {
      if (isEmptyList(burning)) out.literal(NOTHING_BURNS);
      else {
        out.literal(BURNING);
        out.pairs(burning);
      }
      if (isEmptyList(died)) out.literal(NOBODY_DIED);
      else {
        out.literal(DIED);
        writeStrings(out, died);
      }
      if (isEmptyList(evacuated)) out.literal(NOBODY_EVACUATED);
      else {
        out.literal(EVACUATED);
        writeStrings(out, evacuated);
      }
      out.literal(MOVED);
    }
    moved.write(out, step.moved);
    out.byte(0x7d); // }
  }
  out.byte(CLOSE);
}

/** The string fields between `outcomes` and `steps`, in key order. */
const STRING_KEYS = ['record_version', 'scenario_hash', 'scenario_id', 'seed', 'simulator_version'] as const;

function writeRecord(out: AsciiBuffer, record: RunRecord): void {
  if (!hasExactly(record, RECORD_KEYS) || !hasExactly(record.initial, INITIAL_KEYS)) throw new OffShape();
  out.ascii('{"action_schema_version":');
  out.quoted(record.action_schema_version);
  out.ascii(',"initial":{"burning":');
  out.pairs(record.initial.burning);
  out.ascii(',"people":');
  out.pairs(record.initial.people);
  out.ascii('},"observation_version":');
  out.quoted(record.observation_version);
  out.ascii(',"outcomes":');
  writeOutcomes(out, record.outcomes);
  for (const key of STRING_KEYS) {
    out.ascii(`,"${key}":`);
    out.quoted(record[key]);
  }
  out.ascii(',"steps":');
  out.integer(record.steps);
  out.ascii(',"termination_reason":');
  out.quoted(record.termination_reason);
  out.ascii(',"trajectory":');
  writeTrajectory(out, record.trajectory);
  out.byte(0x7d); // }
}

function lengthOf(value: unknown): number {
  return typeof value === 'string' || Array.isArray(value) ? value.length : 0;
}

/**
 * About the byte length of the record's text, from its direction strings and
 * list lengths, for AsciiBuffer's first size: exact for the strings and
 * generous for the rest, so that the buffer does not grow. It reads the
 * record without trusting its shape (the writer checks that).
 */
function textSizeHint(record: RunRecord): number {
  const initial = record.initial as unknown as Record<string, unknown> | null | undefined;
  let n = 1024 + PAIR_BYTES * (lengthOf(initial?.['burning']) + lengthOf(initial?.['people'])) + OUTCOME_BYTES * lengthOf(record.outcomes);
  const trajectory: unknown = record.trajectory;
  if (!Array.isArray(trajectory)) return n;
  for (const step of trajectory as readonly (Record<string, unknown> | null | undefined)[]) {
    n += STEP_BYTES + lengthOf(step?.['actions']) + lengthOf(step?.['moved']) + PAIR_BYTES * lengthOf(step?.['burning']);
    n += ID_BYTES * (lengthOf(step?.['died']) + lengthOf(step?.['evacuated']));
  }
  return n;
}

// Bytes of one pair, outcome, id and step's keys and punctuation, at their
// longest for a grid under 10,000 cells a side and 100,000 people.
const PAIR_BYTES = 12;
const OUTCOME_BYTES = 24;
const ID_BYTES = 10;
const STEP_BYTES = 72;

/** Writes the record's text into `out`, or returns the generic writer's bytes where the record is off the shape the writer knows. */
function writeRecordBytes(out: AsciiBuffer, record: RunRecord): Uint8Array | null {
  try {
    writeRecord(out, record);
  } catch (error) {
    if (!(error instanceof OffShape)) throw error;
    return utf8ToBytes(canonicalJson(record) + '\n');
  }
  out.byte(0x0a);
  return null;
}

/** The record's file bytes: `canonicalJson(record)` and one LF, as UTF-8 (ASCII throughout). */
export function canonicalRecordBytes(record: RunRecord): Uint8Array {
  const out = new AsciiBuffer(textSizeHint(record));
  const generic = writeRecordBytes(out, record);
  if (generic === null) return out.detach();
  out.release();
  return generic;
}

/** The record's file text: `canonicalJson(record)` and one LF. */
export function canonicalRecordText(record: RunRecord): string {
  const out = new AsciiBuffer(textSizeHint(record));
  try {
    return asciiText(writeRecordBytes(out, record) ?? out.written());
  } finally {
    out.release();
  }
}
