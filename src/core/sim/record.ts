/**
 * The run record (record_version 1.0, environment.md section 7): one
 * episode as canonical JSON plus one LF, replayable on its own with the
 * scenario file.
 *
 * Encoding (environment.md section 7 leaves it to the project; this is it):
 * - `initial`: `people` = start cells in person order, `burning` = B(0) row-major.
 * - per step t -> t+1 (`trajectory[t]`): `actions` has one character per
 *   person active at snapshot t, in person order (`.` STAY, else N E S W);
 *   `moved` has the same length: the direction the person actually moved,
 *   or `.` when it stayed (STAY or blocked), so its next cell is its cell plus
 *   that direction (an evacuee's is the exit it left by); `evacuated` and
 *   `died` are the person IDs evacuated / dead at t+1 in person order;
 *   `burning` is B(t+1) minus B(t), row-major.
 * - `outcomes`: per person `[status, step]`, the evacuation or death step,
 *   H for the stranded.
 * Two bytes per active person-step plus a few per event: far under the
 * 8-byte-per-person-step budget on large halls.
 */

import { fileDigest } from '../hash.js';
import { BENCHMARK_VERSIONS, RECORD_VERSION } from '../versions.js';
import { cellPair, type CellPair, type Grid } from '../world/grid.js';
import { fireGrowth } from '../world/fire.js';
import type { EpisodeStart } from '../world/scenario-types.js';
import { NOT_BLOCKED } from './resolver.js';
import {
  DEAD,
  EVACUATED,
  STRANDED,
  type EpisodeObserver,
  type EpisodeOutcome,
  type StepEvent,
} from './events.js';
import { personId } from './observation.js';
import { canonicalRecordJson } from './record-text.js';
import type { OutcomeStatus, RecordOutcome, RecordStep, RunRecord } from './record-types.js';

export type { OutcomeStatus, RecordInitial, RecordOutcome, RecordStep, RunRecord } from './record-types.js';

/** The record's exact text: canonical JSON plus one LF. */
export function recordText(record: RunRecord): string {
  return canonicalRecordJson(record) + '\n';
}

/** The record digest: SHA-256 of the file text without its final LF. */
export function recordDigest(text: string): string {
  return fileDigest(text);
}

/** Char codes of '.', 'N', 'E', 'S', 'W', indexed by direction code. */
export const DIRECTION_CODES: readonly number[] = [0x2e, 0x4e, 0x45, 0x53, 0x57];

/** `MOVED_CODES[blocked * 5 + dir]`: the `moved` character of a move with block code `blocked` (0..3): its direction's, or '.' when blocked. */
export const MOVED_CODES: Uint8Array = Uint8Array.from({ length: 20 }, (_, k) => (Math.floor(k / 5) === NOT_BLOCKED ? DIRECTION_CODES[k % 5]! : 0x2e));

/** The one TextDecoder use (src/core compiles without DOM or Node types); Node, browsers and Electron have it. */
declare const TextDecoder: (new () => { decode(bytes: Uint8Array): string }) | undefined;

// The record's direction characters are ASCII, so their bytes are their
// UTF-8: one pass into a reused byte buffer (directionString is
// synchronous) and one native decode, instead of a string built from char
// codes in chunks (which cost as much as the resolver). Without a
// TextDecoder the chunks remain.
const decoder = typeof TextDecoder === 'function' ? new TextDecoder() : undefined;
const CHUNK = 8192;
let charBytes = new Uint8Array(CHUNK);
/** The record characters by direction code. */
const DIRECTION_CHARS: readonly string[] = DIRECTION_CODES.map((code) => String.fromCharCode(code));
// Up to this many moves, appending one character at a time is cheaper than
// a pass into bytes and a decode, which cost about a microsecond a call
// whatever the length (measured: 10 moves, 0.13 us against 0.9 us): the
// fixed cost of every step of a long episode with few people.
const SHORT = 32;

function asciiText(bytes: Uint8Array): string {
  if (decoder !== undefined) return decoder.decode(bytes);
  let out = '';
  for (let start = 0; start < bytes.length; start += CHUNK) {
    // Reflect.apply takes the typed array as the argument list directly (Function.prototype.apply is typed for arrays only).
    out += String(Reflect.apply(String.fromCharCode, null, bytes.subarray(start, start + CHUNK)));
  }
  return out;
}

/**
 * The record string of direction codes; with `blocked`, a blocked move is
 * written as `.` (the `moved` string).
 */
export function directionString(moves: Uint8Array, blocked?: Uint8Array): string {
  const n = moves.length;
  if (n <= SHORT) {
    let out = '';
    for (let k = 0; k < n; k++) out += DIRECTION_CHARS[blocked !== undefined && blocked[k] !== NOT_BLOCKED ? 0 : moves[k]!]!;
    return out;
  }
  if (charBytes.length < n) charBytes = new Uint8Array(Math.max(n, 2 * charBytes.length));
  const bytes = charBytes;
  // Table reads rather than branches: blocked and direction vary person by person.
  if (blocked === undefined) for (let k = 0; k < n; k++) bytes[k] = MOVED_CODES[moves[k]!]!;
  else for (let k = 0; k < n; k++) bytes[k] = MOVED_CODES[blocked[k]! * 5 + moves[k]!]!;
  return asciiText(bytes.subarray(0, n));
}

export function cellPairs(grid: Grid, cells: ArrayLike<number>): CellPair[] {
  const out = new Array<CellPair>(cells.length);
  for (let k = 0; k < cells.length; k++) out[k] = cellPair(grid, cells[k]!);
  return out;
}

function outcomeStatus(status: number): OutcomeStatus {
  switch (status) {
    case EVACUATED:
      return 'evacuated';
    case DEAD:
      return 'dead';
    case STRANDED:
      return 'stranded';
    default:
      throw new RangeError(`person status ${status} is not a final status`);
  }
}

/** The record entry of one step event. */
// Shared by the steps in which nothing evacuates, dies or ignites (most steps
// of a long episode): three fewer allocations a step. Frozen, so no reader
// can write into every such step at once.
const NONE: readonly never[] = Object.freeze([]);

export function recordStepOf(grid: Grid, event: StepEvent): RecordStep {
  const { active, moves, resolution } = event;
  let evacuated: string[] | undefined;
  for (let k = 0; k < active.length; k++) {
    if (resolution.evacuated[k] === 1) (evacuated ??= []).push(personId(active[k]!));
  }
  let died: readonly string[] = NONE;
  if (event.died.length > 0) {
    const ids = new Array<string>(event.died.length);
    for (let k = 0; k < ids.length; k++) ids[k] = personId(event.died[k]!);
    died = ids;
  }
  return {
    actions: directionString(moves),
    burning: event.newlyBurning.length === 0 ? NONE : cellPairs(grid, event.newlyBurning),
    died,
    evacuated: evacuated ?? NONE,
    moved: directionString(moves, resolution.blocked),
  };
}

/** The outcomes list of an ended episode, in person order. */
export function recordOutcomes(outcome: EpisodeOutcome): RecordOutcome[] {
  const out = new Array<RecordOutcome>(outcome.status.length);
  for (let i = 0; i < out.length; i++) out[i] = [outcomeStatus(outcome.status[i]!), outcome.statusStep[i]!];
  return out;
}

/** Builds the run record of an episode from its events. */
export class RecordBuilder implements EpisodeObserver {
  private readonly steps: RecordStep[] = [];
  private result: RunRecord | null = null;

  constructor(private readonly start: EpisodeStart) {}

  onStep(event: StepEvent): void {
    if (this.result !== null) throw new Error('the episode already ended');
    this.steps.push(recordStepOf(this.start.scenario.grid, event));
  }

  onEnd(outcome: EpisodeOutcome): void {
    const { scenario, fire, seed, startCells } = this.start;
    this.result = {
      action_schema_version: BENCHMARK_VERSIONS.action_schema_version,
      initial: {
        burning: cellPairs(scenario.grid, fireGrowth(fire).newlyAt(0)),
        people: cellPairs(scenario.grid, startCells),
      },
      observation_version: BENCHMARK_VERSIONS.observation_version,
      outcomes: recordOutcomes(outcome),
      record_version: RECORD_VERSION,
      scenario_hash: scenario.hash,
      scenario_id: scenario.scenarioId,
      seed,
      simulator_version: BENCHMARK_VERSIONS.simulator_version,
      steps: outcome.steps,
      termination_reason: outcome.termination,
      trajectory: this.steps,
    };
  }

  /** The finished record (after onEnd). */
  record(): RunRecord {
    if (this.result === null) throw new Error('the episode has not ended');
    return this.result;
  }
}
