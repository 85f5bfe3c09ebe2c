/**
 * The canonical JSON text of a run record, written by a writer that knows
 * the record's shape. The generic canonical writer (json/canonical.ts) lists
 * and checks the keys of every step object and recurses into every
 * `[row, col]` pair; for a record that showed in profiles as much as a
 * simulation step. The output is byte-identical to `canonicalJson(record)`
 * (record-text.test.ts compares them); every string still goes through
 * canonicalString, and a value of an unexpected type falls back to the
 * generic writer, which refuses it with its usual message.
 */

import { canonicalJson, canonicalString } from '../json/canonical.js';
import type { CellPair } from '../world/grid.js';
import { RECORD_KEYS } from './record-codec.js';
import type { RecordOutcome, RecordStep, RunRecord } from './record-types.js';

class Unexpected extends Error {}

function integer(value: unknown): string {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new Unexpected();
  // -0 is written as 0, as canonicalJson does.
  return value === 0 ? '0' : String(value);
}

function text(value: unknown): string {
  if (typeof value !== 'string') throw new Unexpected();
  return canonicalString(value);
}

function array<T>(value: unknown): readonly T[] {
  if (!Array.isArray(value)) throw new Unexpected();
  return value as readonly T[];
}

function pairs(value: unknown): string {
  const list = array<CellPair>(value);
  if (list.length === 0) return '[]';
  let out = '[';
  for (let k = 0; k < list.length; k++) {
    const pair = array<number>(list[k]);
    if (pair.length !== 2) throw new Unexpected();
    out += (k === 0 ? '[' : ',[') + integer(pair[0]) + ',' + integer(pair[1]) + ']';
  }
  return out + ']';
}

function strings(value: unknown): string {
  const list = array<string>(value);
  if (list.length === 0) return '[]';
  let out = '[';
  for (let k = 0; k < list.length; k++) out += (k === 0 ? '' : ',') + text(list[k]);
  return out + ']';
}

/** Whether `value` is a plain object with exactly `keys` (in any order), all defined. */
function hasExactly(value: unknown, keys: readonly string[]): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const own = Object.keys(value);
  if (own.length !== keys.length) return false;
  for (const key of keys) if (!Object.hasOwn(value, key) || (value as Record<string, unknown>)[key] === undefined) return false;
  return true;
}

const INITIAL_KEYS = ['burning', 'people'];
const STEP_KEYS = ['actions', 'burning', 'died', 'evacuated', 'moved'];

function stepText(step: RecordStep): string {
  if (!hasExactly(step, STEP_KEYS)) throw new Unexpected();
  return (
    '{"actions":' +
    text(step.actions) +
    ',"burning":' +
    pairs(step.burning) +
    ',"died":' +
    strings(step.died) +
    ',"evacuated":' +
    strings(step.evacuated) +
    ',"moved":' +
    text(step.moved) +
    '}'
  );
}

function outcomesText(value: unknown): string {
  const list = array<RecordOutcome>(value);
  if (list.length === 0) return '[]';
  let out = '[';
  for (let k = 0; k < list.length; k++) {
    const outcome = array<unknown>(list[k]);
    if (outcome.length !== 2) throw new Unexpected();
    out += (k === 0 ? '[' : ',[') + text(outcome[0]) + ',' + integer(outcome[1]) + ']';
  }
  return out + ']';
}

function writeRecord(record: RunRecord): string {
  if (!hasExactly(record, RECORD_KEYS) || !hasExactly(record.initial, INITIAL_KEYS)) throw new Unexpected();
  const trajectory = array<RecordStep>(record.trajectory);
  // Joined, not appended: appending made one rope of every step's pieces,
  // hundreds of thousands of young string objects for a long episode, which
  // a scavenge then copied (one took 0.18 s of a 10,000-step `episode run`).
  const texts = new Array<string>(trajectory.length);
  for (let k = 0; k < trajectory.length; k++) texts[k] = stepText(trajectory[k]!);
  const steps = '[' + texts.join(',') + ']';
  return (
    '{"action_schema_version":' +
    text(record.action_schema_version) +
    ',"initial":{"burning":' +
    pairs(record.initial.burning) +
    ',"people":' +
    pairs(record.initial.people) +
    '},"observation_version":' +
    text(record.observation_version) +
    ',"outcomes":' +
    outcomesText(record.outcomes) +
    ',"record_version":' +
    text(record.record_version) +
    ',"scenario_hash":' +
    text(record.scenario_hash) +
    ',"scenario_id":' +
    text(record.scenario_id) +
    ',"seed":' +
    text(record.seed) +
    ',"simulator_version":' +
    text(record.simulator_version) +
    ',"steps":' +
    integer(record.steps) +
    ',"termination_reason":' +
    text(record.termination_reason) +
    ',"trajectory":' +
    steps +
    '}'
  );
}

/** `canonicalJson(record)`, faster. */
export function canonicalRecordJson(record: RunRecord): string {
  try {
    return writeRecord(record);
  } catch (error) {
    if (!(error instanceof Unexpected)) throw error;
    return canonicalJson(record);
  }
}
