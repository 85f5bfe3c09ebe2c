/**
 * The replay check (environment.md section 7): re-simulates a run record
 * from the scenario and its seed with the recorded actions (no agent) and
 * requires every version, the scenario identity, the initial state, every
 * step and the outcome to be equal. A difference is a MismatchError (exit 5)
 * naming the first differing field; a replayable prefix that stops before
 * the episode terminates is a ValidationError (exit 3).
 *
 * Observers receive the replayed step events, each only after its step has
 * been compared, so metrics are computed from the authenticated trajectory.
 */

import type { Arena } from './arena.js';
import { MismatchError, ModelOutputError, ValidationError } from '../errors.js';
import { BENCHMARK_VERSIONS, RECORD_VERSION } from '../versions.js';
import { prepareEpisode } from '../world/episode-start.js';
import { fireGrowth } from '../world/fire.js';
import type { CellPair, Grid } from '../world/grid.js';
import type { EpisodeStart, Scenario } from '../world/scenario-types.js';
import { stepArraysRecyclable, type EpisodeObserver, type EpisodeOutcome, type StepEvent, type TerminationReason } from './events.js';
import { DIRECTION_CODES, MOVED_CODES, directionString, recordBytes, recordBytesDigest, recordOutcomes, type RecordOutcome, type RecordStep, type RunRecord } from './record.js';
import { EpisodeSimulation } from './simulation.js';

export interface ReplayResult {
  readonly steps: number;
  readonly termination: TerminationReason;
  readonly outcome: EpisodeOutcome;
  /** The record digest (SHA-256 of its canonical text). */
  readonly digest: string;
}

// Direction code of each record character code, -1 for any other character.
const DIRECTION_OF_CHAR = new Int8Array(128).fill(-1);
DIRECTION_CODES.forEach((code, dir) => {
  DIRECTION_OF_CHAR[code] = dir;
});

// Strings longer than this are reported by position rather than in full.
const SHOWN = 60;

function showList(items: readonly string[]): string {
  const shown = items.length > 8 ? [...items.slice(0, 8), '...'] : items;
  return `[${shown.join(',')}]`;
}

class ReplayComparer {
  constructor(
    private readonly source: string,
    private readonly grid: Grid,
  ) {}

  fail(field: string, problem: string): never {
    throw new MismatchError(`${this.source}: ${field}: ${problem}`);
  }

  differ(field: string, recorded: string, replayed: string): never {
    return this.fail(field, `recorded ${recorded} but replay gives ${replayed}`);
  }

  pairText(cell: number): string {
    return `[${Math.floor(cell / this.grid.cols)},${cell % this.grid.cols}]`;
  }

  cells(field: string, recorded: readonly CellPair[], cells: ArrayLike<number>): void {
    const cols = this.grid.cols;
    const n = Math.min(recorded.length, cells.length);
    for (let k = 0; k < n; k++) {
      const pair = recorded[k]!;
      const cell = cells[k]!;
      if (pair[0] !== Math.floor(cell / cols) || pair[1] !== cell % cols) {
        this.differ(`${field}[${k}]`, `[${pair[0]},${pair[1]}]`, this.pairText(cell));
      }
    }
    if (recorded.length !== cells.length) {
      const extra = recorded.length > cells.length ? '' : ` (next ${this.pairText(cells[n]!)})`;
      this.differ(field, `${recorded.length} cells`, `${cells.length}${extra}`);
    }
  }

  ids(field: string, recorded: readonly string[], replayed: readonly string[]): void {
    const same = recorded.length === replayed.length && recorded.every((id, k) => id === replayed[k]);
    if (!same) this.differ(field, showList(recorded), showList(replayed));
  }

  /** Compares a recorded direction string with the replayed one, char by char (no string built unless they differ). */
  directions(field: string, recorded: string, moves: Uint8Array, blocked: Uint8Array | undefined, ids: readonly string[], active: Int32Array): void {
    let k = 0;
    const n = moves.length;
    if (recorded.length === n) {
      if (blocked === undefined) {
        for (; k < n; k++) if (recorded.charCodeAt(k) !== MOVED_CODES[moves[k]!]) break;
      } else {
        // A table read rather than a branch per person (record.ts MOVED_CODES).
        for (; k < n; k++) if (recorded.charCodeAt(k) !== MOVED_CODES[blocked[k]! * 5 + moves[k]!]) break;
      }
      if (k === n) return;
    }
    const replayed = directionString(moves, blocked);
    if (recorded.length <= SHOWN && n <= SHOWN) this.differ(field, JSON.stringify(recorded), JSON.stringify(replayed));
    if (recorded.length !== n) this.differ(field, `${recorded.length} characters`, `${n}`);
    this.differ(`${field}[${k}] (${ids[active[k]!]})`, JSON.stringify(recorded[k]), JSON.stringify(replayed[k]));
  }
}

/** Versions, scenario identity and seed: everything checked before simulating. */
function checkHeader(compare: ReplayComparer, record: RunRecord, scenario: Scenario, seed: string | null): void {
  const versions: [keyof RunRecord, string][] = [
    ['record_version', RECORD_VERSION],
    ['simulator_version', BENCHMARK_VERSIONS.simulator_version],
    ['observation_version', BENCHMARK_VERSIONS.observation_version],
    ['action_schema_version', BENCHMARK_VERSIONS.action_schema_version],
  ];
  for (const [field, running] of versions) {
    const recorded = record[field];
    if (recorded !== running) compare.fail(field, `recorded ${JSON.stringify(recorded)} but the running version is ${JSON.stringify(running)}`);
  }
  if (record.scenario_id !== scenario.scenarioId) {
    compare.fail('scenario_id', `recorded ${JSON.stringify(record.scenario_id)} but the scenario is ${JSON.stringify(scenario.scenarioId)}`);
  }
  if (record.scenario_hash !== scenario.hash) {
    compare.fail('scenario_hash', `recorded ${record.scenario_hash} but the scenario's hash is ${scenario.hash}`);
  }
  // Seeds are not printed (cli-v1.0.md): the message only says they differ.
  if (seed !== null && record.seed !== seed) compare.fail('seed', 'the record was made with a different seed');
}

/** Decodes a recorded actions string to direction codes (carved from the simulation's arena, as the runner's are), or null when it holds another character. */
function decodeActions(actions: string, arena: Arena): Uint8Array | null {
  const moves = arena.uint8(actions.length);
  for (let k = 0; k < actions.length; k++) {
    const code = actions.charCodeAt(k);
    const dir = code < 128 ? DIRECTION_OF_CHAR[code]! : -1;
    if (dir < 0) return null;
    moves[k] = dir;
  }
  return moves;
}

/**
 * The IDs of the evacuated, in person order. A function of its own: with
 * this loop inside replayStep, the step was compiled for entry in the loop
 * (on-stack replacement), and that code, reused on every step, was left on
 * nearly every step (a burning-cell list of another array shape after it).
 */
function evacuatedIds(active: Int32Array, evacuated: Uint8Array, ids: readonly string[]): string[] {
  const out: string[] = [];
  for (let k = 0; k < active.length; k++) if (evacuated[k] === 1) out.push(ids[active[k]!]!);
  return out;
}

function replayStep(compare: ReplayComparer, sim: EpisodeSimulation, step: RecordStep, field: string): StepEvent {
  const active = sim.active;
  if (step.actions.length !== active.length) {
    compare.differ(`${field}.actions`, `${step.actions.length} actions`, `${active.length} active persons`);
  }
  const moves = decodeActions(step.actions, sim.arena);
  if (moves === null) compare.fail(`${field}.actions`, 'holds a character other than . N E S W');
  try {
    sim.checkMoves(moves);
  } catch (error) {
    if (error instanceof ModelOutputError) compare.fail(`${field}.actions`, `a recorded action fails the action check: ${error.message}`);
    throw error;
  }
  const event = sim.step(moves);
  const { resolution } = event;
  compare.directions(`${field}.moved`, step.moved, moves, resolution.blocked, sim.ids, active);
  compare.ids(`${field}.evacuated`, step.evacuated, evacuatedIds(active, resolution.evacuated, sim.ids));
  compare.cells(`${field}.burning`, step.burning, event.newlyBurning);
  compare.ids(`${field}.died`, step.died, Array.from(event.died, (i) => sim.ids[i]!));
  return event;
}

// The loops of the replay are functions of their own: a loop inside
// replayFromStart made it compiled for entry in the loop (on-stack
// replacement), and that code, reused by every replay, was left after the
// loop each time, so the rest of the check ran unoptimised.

/** Replays the trajectory until the simulation ends; returns the number of steps replayed. */
function replaySteps(compare: ReplayComparer, sim: EpisodeSimulation, trajectory: readonly RecordStep[], observers: readonly EpisodeObserver[], source: string): number {
  let s = 0;
  for (; !sim.done; s++) {
    if (s >= trajectory.length) {
      throw new ValidationError(`${source}: the record ends at step ${s} before the episode terminates`);
    }
    const event = replayStep(compare, sim, trajectory[s]!, `trajectory[${s}]`);
    for (const observer of observers) observer.onStep(event);
    sim.arena.stepDone();
  }
  return s;
}

/** Compares the outcomes both have (their counts are compared after). */
function compareOutcomes(compare: ReplayComparer, recorded: readonly RecordOutcome[], outcomes: readonly RecordOutcome[], ids: readonly string[]): void {
  for (let i = 0; i < Math.min(outcomes.length, recorded.length); i++) {
    const [status, step] = recorded[i]!;
    const [replayStatus, replayStep] = outcomes[i]!;
    if (status !== replayStatus || step !== replayStep) {
      compare.differ(`outcomes[${i}] (${ids[i]})`, JSON.stringify([status, step]), JSON.stringify([replayStatus, replayStep]));
    }
  }
}

/** The replay check from a prepared episode start (replayRecord prepares it from the scenario). */
export function replayFromStart(
  start: EpisodeStart,
  record: RunRecord,
  observers: readonly EpisodeObserver[] = [],
  source = 'run record',
): ReplayResult {
  const { scenario } = start;
  const compare = new ReplayComparer(source, scenario.grid);
  checkHeader(compare, record, scenario, start.seed);
  const sim = new EpisodeSimulation(start);
  compare.cells('initial.people', record.initial.people, start.startCells);
  compare.cells('initial.burning', record.initial.burning, fireGrowth(start.fire).newlyAt(0));

  const { trajectory } = record;
  // The comparison reads each event before the next step; observers might keep them unless they say otherwise.
  if (stepArraysRecyclable(observers)) sim.arena.recycle();
  const s = replaySteps(compare, sim, trajectory, observers, source);
  const outcome = sim.outcome();
  if (trajectory.length > s) {
    compare.fail(`trajectory[${s}]`, `the replay terminates at step ${s} (${outcome.termination}) but the record continues`);
  }
  if (record.termination_reason !== outcome.termination) {
    compare.differ('termination_reason', JSON.stringify(record.termination_reason), JSON.stringify(outcome.termination));
  }
  if (record.steps !== outcome.steps) compare.differ('steps', String(record.steps), String(outcome.steps));
  const outcomes = recordOutcomes(outcome);
  compareOutcomes(compare, record.outcomes, outcomes, sim.ids);
  if (record.outcomes.length !== outcomes.length) {
    compare.differ('outcomes', `${record.outcomes.length} persons`, `${outcomes.length}`);
  }
  for (const observer of observers) observer.onEnd(outcome);
  // The digest costs a canonical text and a SHA-256 of the whole record, as
  // much as the replay itself; callers that have the file text hash that
  // instead, so it is computed on first read only.
  let digest: string | undefined;
  return {
    steps: outcome.steps,
    termination: outcome.termination,
    outcome,
    get digest(): string {
      return (digest ??= recordBytesDigest(recordBytes(record)));
    },
  };
}

/**
 * The replay check of a run record against its scenario: prepares the
 * episode from the scenario and the record's seed, then replays. `source`
 * names the record in messages (`record.json: trajectory[12].moved: ...`).
 */
export function replayRecord(
  scenario: Scenario,
  record: RunRecord,
  observers: readonly EpisodeObserver[] = [],
  source = 'run record',
): ReplayResult {
  // Identity first: a record of another scenario or version is not simulated at all.
  checkHeader(new ReplayComparer(source, scenario.grid), record, scenario, null);
  return replayFromStart(prepareEpisode(scenario, record.seed), record, observers, source);
}
