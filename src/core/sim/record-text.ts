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

/** Writes the record's file bytes (canonicalJson(record) and one LF) and hands them to `use`, which must not keep them. */
function withRecordBytes<T>(record: RunRecord, use: (bytes: Uint8Array) => T): T {
  const out = new AsciiBuffer();
  try {
    try {
      writeRecord(out, record);
    } catch (error) {
      if (!(error instanceof OffShape)) throw error;
      return use(utf8ToBytes(canonicalJson(record) + '\n'));
    }
    out.byte(0x0a);
    return use(out.written());
  } finally {
    out.release();
  }
}

/** The record's file bytes: `canonicalJson(record)` and one LF, as UTF-8 (ASCII throughout). */
export function canonicalRecordBytes(record: RunRecord): Uint8Array {
  return withRecordBytes(record, (bytes) => bytes.slice());
}

/** The record's file text: `canonicalJson(record)` and one LF. */
export function canonicalRecordText(record: RunRecord): string {
  return withRecordBytes(record, asciiText);
}
