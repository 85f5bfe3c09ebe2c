/**
 * The run record loader: fails closed. The text must be strict JSON, have
 * exactly the record's keys and types, and round-trip exactly (canonical
 * JSON plus one LF); otherwise ValidationError (exit 3) naming the source
 * and the field. Whether the values are right is the replay check's job.
 */

import { ValidationError } from '../errors.js';
import { HEX64 } from '../hash.js';
import { canonicalJson, type JsonObject, type JsonValue } from '../json/canonical.js';
import { parseJsonInput } from '../json/strict-parse.js';
import { isSeed } from '../world/seed.js';
import type { RunRecord } from './record-types.js';

/** The keys of a run record, in canonical order (also the shape the fast writer in record-text.ts expects). */
export const RECORD_KEYS = [
  'action_schema_version',
  'initial',
  'observation_version',
  'outcomes',
  'record_version',
  'scenario_hash',
  'scenario_id',
  'seed',
  'simulator_version',
  'steps',
  'termination_reason',
  'trajectory',
] as const;
const INITIAL_KEYS = ['burning', 'people'] as const;
const STEP_KEYS = ['actions', 'burning', 'died', 'evacuated', 'moved'] as const;

const VERSION = /^[0-9]+\.[0-9]+$/;
const SCENARIO_ID = /^[a-z0-9-]{1,64}$/;
const PERSON_ID = /^p[0-9]{4}$/;
const DIRECTIONS = /^[.NESW]*$/;
// Grids are at most 256 x 256; H and every step are at most 10,000.
const MAX_COORD = 255;
const MAX_STEP = 10_000;

class RecordReader {
  constructor(private readonly source: string) {}

  fail(field: string, problem: string): never {
    throw new ValidationError(`${this.source}: ${field}: ${problem}`);
  }

  object(value: JsonValue | undefined, field: string, keys: readonly string[]): JsonObject {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(field, 'expected an object');
    for (const key of Object.keys(value)) {
      if (!keys.includes(key)) this.fail(field, `unknown key ${JSON.stringify(key)}`);
    }
    for (const key of keys) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) this.fail(field, `missing key "${key}"`);
    }
    return value;
  }

  array(value: JsonValue | undefined, field: string): JsonValue[] {
    if (!Array.isArray(value)) this.fail(field, 'expected an array');
    return value;
  }

  string(value: JsonValue | undefined, field: string, pattern?: RegExp, what?: string): string {
    if (typeof value !== 'string') this.fail(field, 'expected a string');
    if (pattern !== undefined && !pattern.test(value)) {
      this.fail(field, `${JSON.stringify(value.length > 80 ? value.slice(0, 80) + '...' : value)} is not ${what}`);
    }
    return value;
  }

  integer(value: JsonValue | undefined, field: string, max: number): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
      this.fail(field, `expected an integer in [0, ${max}]`);
    }
    return value;
  }

  cells(value: JsonValue | undefined, field: string): void {
    const list = this.array(value, field);
    for (let k = 0; k < list.length; k++) {
      const pair = list[k];
      if (!Array.isArray(pair) || pair.length !== 2) this.fail(`${field}[${k}]`, 'expected a [row, col] pair');
      this.integer(pair[0], `${field}[${k}][0]`, MAX_COORD);
      this.integer(pair[1], `${field}[${k}][1]`, MAX_COORD);
    }
  }

  ids(value: JsonValue | undefined, field: string): void {
    const list = this.array(value, field);
    for (let k = 0; k < list.length; k++) this.string(list[k], `${field}[${k}]`, PERSON_ID, 'a person ID');
  }

  step(value: JsonValue | undefined, field: string): void {
    const step = this.object(value, field, STEP_KEYS);
    this.string(step['actions'], `${field}.actions`, DIRECTIONS, 'a string of . N E S W');
    this.cells(step['burning'], `${field}.burning`);
    this.ids(step['died'], `${field}.died`);
    this.ids(step['evacuated'], `${field}.evacuated`);
    this.string(step['moved'], `${field}.moved`, DIRECTIONS, 'a string of . N E S W');
  }

  outcome(value: JsonValue | undefined, field: string): void {
    if (!Array.isArray(value) || value.length !== 2) this.fail(field, 'expected a [status, step] pair');
    const status = value[0];
    if (status !== 'evacuated' && status !== 'dead' && status !== 'stranded') {
      this.fail(`${field}[0]`, 'expected "evacuated", "dead" or "stranded"');
    }
    this.integer(value[1], `${field}[1]`, MAX_STEP);
  }

  /** Checks every field of a run record, so that the value can be used as one. */
  record(value: JsonValue): asserts value is JsonValue & RunRecord {
    const record = this.object(value, 'record', RECORD_KEYS);
    for (const key of ['action_schema_version', 'observation_version', 'record_version', 'simulator_version']) {
      this.string(record[key], key, VERSION, 'a version');
    }
    this.string(record['scenario_hash'], 'scenario_hash', HEX64, 'a SHA-256 hex digest');
    this.string(record['scenario_id'], 'scenario_id', SCENARIO_ID, 'a scenario ID');
    // The seed is not echoed: evaluation seeds are never printed.
    if (!isSeed(record['seed'])) this.fail('seed', 'expected a decimal string in [0, 2^64 - 1]');
    this.integer(record['steps'], 'steps', MAX_STEP);
    const termination = record['termination_reason'];
    if (termination !== 'all_resolved' && termination !== 'horizon') {
      this.fail('termination_reason', 'expected "all_resolved" or "horizon"');
    }
    const initial = this.object(record['initial'], 'initial', INITIAL_KEYS);
    this.cells(initial['burning'], 'initial.burning');
    this.cells(initial['people'], 'initial.people');
    const outcomes = this.array(record['outcomes'], 'outcomes');
    for (let k = 0; k < outcomes.length; k++) this.outcome(outcomes[k], `outcomes[${k}]`);
    const trajectory = this.array(record['trajectory'], 'trajectory');
    for (let k = 0; k < trajectory.length; k++) this.step(trajectory[k], `trajectory[${k}]`);
  }
}

/**
 * Loads a run record from its file text. `source` names the file in messages
 * (`record.json: trajectory[3].moved: expected a string`).
 */
export function parseRecordText(text: string, source: string): RunRecord {
  const value = parseJsonInput(text, source);
  const reader: RecordReader = new RecordReader(source);
  reader.record(value);
  // Checked after the fields so that a wrong field is named precisely;
  // whitespace, key order, escapes and the final LF are caught here.
  if (canonicalJson(value) + '\n' !== text) {
    throw new ValidationError(`${source}: not canonical JSON plus one LF (a run record is never reformatted or repaired)`);
  }
  return value;
}

/**
 * Reads a run record embedded in another artifact (an evaluation result's
 * `episodes[i].record`): the same strict field checks as parseRecordText,
 * without the text round trip (the enclosing artifact checks its own text).
 * Messages name `${source}: ${path}: field`.
 */
export function readRecordValue(value: JsonValue, source: string, path: string): RunRecord {
  const reader: RecordReader = new RecordReader(`${source}: ${path}`);
  reader.record(value);
  return value;
}
