/**
 * The shape of a run record (record_version 1.0; the encoding is described in
 * record.ts). Apart from record.ts so that the writer (record-text.ts) and the
 * loader (record-codec.ts) can name it without importing the builder that
 * uses them.
 */

import type { CellPair } from '../world/grid.js';
import type { TerminationReason } from './events.js';

export type OutcomeStatus = 'evacuated' | 'dead' | 'stranded';

export type RecordStep = {
  readonly actions: string;
  readonly burning: readonly CellPair[];
  readonly died: readonly string[];
  readonly evacuated: readonly string[];
  readonly moved: string;
};

export type RecordOutcome = readonly [status: OutcomeStatus, step: number];

export type RecordInitial = {
  readonly burning: readonly CellPair[];
  readonly people: readonly CellPair[];
};

export type RunRecord = {
  readonly action_schema_version: string;
  readonly initial: RecordInitial;
  readonly observation_version: string;
  readonly outcomes: readonly RecordOutcome[];
  readonly record_version: string;
  readonly scenario_hash: string;
  readonly scenario_id: string;
  readonly seed: string;
  readonly simulator_version: string;
  readonly steps: number;
  readonly termination_reason: TerminationReason;
  readonly trajectory: readonly RecordStep[];
};
