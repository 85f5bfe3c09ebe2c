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

import { fileDigest, sha256Hex } from '../hash.js';
import { BENCHMARK_VERSIONS, RECORD_VERSION } from '../versions.js';
import type { CellPair, Grid } from '../world/grid.js';
import { fireGrowth } from '../world/fire.js';
import { frozenPair, frozenPairTable, type FrozenPairTable } from '../world/frozen-pairs.js';
import type { EpisodeStart } from '../world/scenario-types.js';
import { DirectionStrings } from './direction-text.js';
import {
  DEAD,
  EVACUATED,
  STRANDED,
  type EpisodeObserver,
  type EpisodeOutcome,
  type StepEvent,
} from './events.js';
import { personId } from './observation.js';
import { canonicalRecordBytes, canonicalRecordText } from './record-text.js';
import type { OutcomeStatus, RecordOutcome, RecordStep, RunRecord } from './record-types.js';

export { DIRECTION_CODES, MOVED_CODES, directionString } from './direction-text.js';
export type { OutcomeStatus, RecordInitial, RecordOutcome, RecordStep, RunRecord } from './record-types.js';

/** The record's exact bytes, what its file holds: canonical JSON plus one LF. Hash and write these rather than recordText's string. */
export function recordBytes(record: RunRecord): Uint8Array {
  return canonicalRecordBytes(record);
}

/** The record's exact text: canonical JSON plus one LF. */
export function recordText(record: RunRecord): string {
  return canonicalRecordText(record);
}

/** The record digest: SHA-256 of the file text without its final LF. */
export function recordDigest(text: string): string {
  return fileDigest(text);
}

/** recordDigest of recordBytes: SHA-256 of the bytes without their final LF. */
export function recordBytesDigest(bytes: Uint8Array): string {
  return sha256Hex(bytes.subarray(0, bytes.length - 1));
}

/** The cells as `[row, col]` pairs, the grid's frozen ones (frozen-pairs.ts), as the steps' burning lists hold. */
function cellPairs(grid: Grid, cells: ArrayLike<number>): CellPair[] {
  const table = frozenPairTable(grid);
  const out = new Array<CellPair>(cells.length);
  for (let k = 0; k < cells.length; k++) out[k] = frozenPair(table, grid.cols, cells[k]!);
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

// Shared by the steps in which nothing evacuates, dies or ignites (most steps
// of a long episode): three fewer allocations a step. Frozen, so no reader
// can write into every such step at once.
const NONE: readonly never[] = Object.freeze([]);

/** The record entries of an episode's step events, in order. */
export class RecordSteps {
  private readonly actions = new DirectionStrings();
  private readonly moved = new DirectionStrings();
  /** The burning cells' pairs, shared by the scenario's records (frozen-pairs.ts). */
  private readonly pairs: FrozenPairTable;

  constructor(private readonly grid: Grid) {
    this.pairs = frozenPairTable(grid);
  }

  /** The record entry of the next step event. */
  of(event: StepEvent): RecordStep {
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
      actions: this.actions.of(moves),
      burning: event.newlyBurning.length === 0 ? NONE : this.burning(event.newlyBurning),
      died,
      evacuated: evacuated ?? NONE,
      moved: this.moved.of(moves, resolution.blocked),
    };
  }

  private burning(cells: ArrayLike<number>): CellPair[] {
    const table = this.pairs;
    const cols = this.grid.cols;
    const out = new Array<CellPair>(cells.length);
    for (let k = 0; k < cells.length; k++) {
      const cell = cells[k]!;
      out[k] = frozenPair(table, cols, cell);
    }
    return out;
  }
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
  private readonly entries: RecordSteps;
  private result: RunRecord | null = null;

  constructor(private readonly start: EpisodeStart) {
    this.entries = new RecordSteps(start.scenario.grid);
  }

  onStep(event: StepEvent): void {
    if (this.result !== null) throw new Error('the episode already ended');
    this.steps.push(this.entries.of(event));
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
