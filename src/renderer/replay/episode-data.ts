/**
 * One episode made ready to draw: the scenario parsed, the run record read
 * strictly and authenticated by the core replay (what is drawn is what was
 * proven), then decoded once into typed arrays. A record that fails any of
 * these is returned as a failure naming the step or field, never animated.
 * The page does this in a Web Worker (episode-loader.ts), so that a large
 * record does not freeze it.
 */

import { EmberError } from '../../core/errors.js';
import { decodeRecordFrames, type RecordFrames } from '../../core/replay/record-frames.js';
import type { PeopleEvidence } from '../../core/scoring/episode-evaluation.js';
import { computeReferences, dangerZoneOnset, NO_ESCAPE } from '../../core/scoring/references.js';
import { parseRecordText } from '../../core/sim/record-codec.js';
import type { RecordStep, RunRecord } from '../../core/sim/record.js';
import { replayRecord } from '../../core/sim/authenticate-record.js';
import { prepareEpisode } from '../../core/world/episode-start.js';
import { parseScenarioText } from '../../core/world/scenario.js';
import type { Grid } from '../../core/world/grid.js';
import type { EpisodeStart, Scenario } from '../../core/world/scenario-types.js';
import type { EpisodeReplay } from '../../shared/api/contract.js';

/** How a lost person is classed by the score report's evidence (scoring-v1.0.md section 4). */
export const LOSS_NONE = 0;
export const LOSS_AVOIDABLE = 1;
export const LOSS_UNAVOIDABLE = 2;

/**
 * An episode authenticated and decoded: plain data and typed arrays only,
 * so that it crosses from a Web Worker to the page (episode-loader.ts) with
 * its arrays transferred, not copied.
 */
export interface DecodedEpisode {
  readonly title: string;
  readonly scenarioId: string;
  /** The scenario file's text and the seed: the references are computed from them on first use. */
  readonly scenarioText: string;
  readonly seed: string;
  readonly terminationReason: string;
  /** H, the scenario's step limit (the observation's max_steps). */
  readonly maxSteps: number;
  /** Each step's action and moved strings, kept from the record for the step view (step-observation.ts). */
  readonly trajectory: readonly Pick<RecordStep, 'actions' | 'moved'>[];
  /** The map (walls, floor, exits). */
  readonly grid: Grid;
  /** The record's outcome per person: [outcome, step]. */
  readonly outcomes: readonly (readonly [string, number])[];
  readonly frames: RecordFrames;
  /** dangerOnset[cell]: first snapshot at which the cell is within 0 < d <= 2 of the fire (until it burns). */
  readonly dangerOnset: Int32Array;
  /** loss[i]: LOSS_NONE, LOSS_AVOIDABLE or LOSS_UNAVOIDABLE, from the evidence (all LOSS_NONE without evidence). */
  readonly loss: Uint8Array;
  /** Whether the score report's evidence was there to class losses. */
  readonly hasEvidence: boolean;
}

export interface EpisodeData extends DecodedEpisode {
  /** Per-person references (L_i, m*_i, D*_i), computed on first use: one backward pass for everyone. */
  references(): PersonReferences;
}

export interface PersonReferences {
  readonly earliest: Int32Array;
  readonly fewestMoves: Int32Array;
  readonly fewestDanger: Int32Array;
}

export type EpisodeFailure = { readonly ok: false; readonly stage: 'scenario' | 'record' | 'replay' | 'missing'; readonly message: string };
export type DecodedOrFailed = { readonly ok: true; readonly data: DecodedEpisode } | EpisodeFailure;
export type LoadedEpisode = { readonly ok: true; readonly data: EpisodeData } | EpisodeFailure;

/** The loss classes of an episode's people: what the replay reads of the score report's evidence (EpisodeEvidence). */
export interface LossEvidence {
  readonly trials: readonly { readonly people: Pick<PeopleEvidence, 'avoidable_casualty_ids' | 'avoidable_stranded_ids' | 'unavoidable_casualty_ids' | 'unavoidable_stranded_ids'> | null }[];
}

/** What an episode is loaded from (the contract's episodes.replay answer). */
export type EpisodeSource = Pick<EpisodeReplay, 'scenarioId' | 'scenarioText' | 'recordText' | 'failure'> & { readonly evidence: LossEvidence | null };

function lossClasses(evidence: LossEvidence | null, people: number): { loss: Uint8Array; hasEvidence: boolean } {
  const loss = new Uint8Array(people);
  const p = evidence?.trials[0]?.people;
  if (p === undefined || p === null) return { loss, hasEvidence: false };
  const mark = (ids: readonly string[], value: number) => {
    for (const id of ids) {
      const i = Number(id.slice(1));
      if (Number.isInteger(i) && i >= 0 && i < people) loss[i] = value;
    }
  };
  mark(p.avoidable_casualty_ids, LOSS_AVOIDABLE);
  mark(p.avoidable_stranded_ids, LOSS_AVOIDABLE);
  mark(p.unavoidable_casualty_ids, LOSS_UNAVOIDABLE);
  mark(p.unavoidable_stranded_ids, LOSS_UNAVOIDABLE);
  return { loss, hasEvidence: true };
}

function messageOf(error: unknown): string {
  return error instanceof EmberError || error instanceof Error ? error.message : String(error);
}

/** Parses, authenticates and decodes one episode into plain data (the work of the episode worker); never throws. */
export function decodeEpisode(replay: EpisodeSource): DecodedOrFailed {
  if (replay.recordText === null) {
    return { ok: false, stage: 'missing', message: replay.failure === null ? 'this episode has no run record' : `${replay.failure.kind}: ${replay.failure.message}` };
  }
  let scenario: Scenario;
  try {
    scenario = parseScenarioText(replay.scenarioText, `${replay.scenarioId}.json`);
  } catch (error) {
    return { ok: false, stage: 'scenario', message: messageOf(error) };
  }
  let record: RunRecord;
  try {
    record = parseRecordText(replay.recordText, 'run record');
  } catch (error) {
    return { ok: false, stage: 'record', message: messageOf(error) };
  }
  let frames: RecordFrames;
  let start: EpisodeStart;
  try {
    replayRecord(scenario, record, [], 'run record');
    start = prepareEpisode(scenario, record.seed);
    frames = decodeRecordFrames(scenario.grid, record);
  } catch (error) {
    return { ok: false, stage: 'replay', message: messageOf(error) };
  }
  const { loss, hasEvidence } = lossClasses(replay.evidence, frames.people);
  return {
    ok: true,
    data: {
      title: scenario.title,
      scenarioId: scenario.scenarioId,
      scenarioText: replay.scenarioText,
      seed: record.seed,
      terminationReason: record.termination_reason,
      maxSteps: scenario.maxSteps,
      trajectory: record.trajectory.map((t) => ({ actions: t.actions, moved: t.moved })),
      grid: scenario.grid,
      outcomes: record.outcomes,
      frames,
      dangerOnset: dangerZoneOnset(scenario.grid, start.fire),
      loss,
      hasEvidence,
    },
  };
}

/** The decoded episode with its references on demand (from its scenario text and seed: the worker's objects do not cross). */
export function episodeData(decoded: DecodedEpisode): EpisodeData {
  let refs: PersonReferences | null = null;
  return {
    ...decoded,
    references() {
      if (refs === null) {
        const scenario = parseScenarioText(decoded.scenarioText, `${decoded.scenarioId}.json`);
        const start = prepareEpisode(scenario, decoded.seed);
        const r = computeReferences(scenario.grid, start.fire, start.startCells);
        refs = { earliest: r.earliestEvacuation, fewestMoves: r.fewestMoves, fewestDanger: r.fewestDangerStates };
      }
      return refs;
    },
  };
}

/** Parses, authenticates and decodes one episode in this thread; never throws. */
export function loadEpisode(replay: EpisodeSource): LoadedEpisode {
  const decoded = decodeEpisode(replay);
  return decoded.ok ? { ok: true, data: episodeData(decoded.data) } : decoded;
}

/** The typed arrays of a decoded episode, to transfer rather than copy. */
export function transferablesOf(decoded: DecodedEpisode): ArrayBuffer[] {
  const { frames } = decoded;
  const arrays = [frames.cells, frames.status, frames.burnStep, frames.blocked, frames.counts, decoded.dangerOnset, decoded.loss, decoded.grid.kinds];
  // Each buffer once (a transfer list may not name one twice).
  return [...new Set(arrays.map((a) => a.buffer as ArrayBuffer))];
}

/** A reference value for people: "none" when the person cannot escape. */
export function referenceText(value: number): string {
  return value === NO_ESCAPE ? 'none (no escape)' : String(value);
}

/** The step at which person i's outcome was decided, and the outcome. */
export function outcomeOf(data: Pick<DecodedEpisode, 'outcomes'>, i: number): string {
  const o = data.outcomes[i];
  return o === undefined ? 'unknown' : `${o[0]} at step ${o[1]}`;
}
