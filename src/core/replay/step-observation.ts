/**
 * The step view of any agent: the observation the agent received at one
 * snapshot of an authenticated run record, and the action it gave each
 * person there, rebuilt from the record's decoded frames (record-frames.ts)
 * rather than stored. Nothing new is kept: the observation is a function of
 * the state at snapshot s (observation_version 1.0, observation.ts), and the
 * frames already hold that state for every snapshot, so one step costs
 * O(people + cells) whatever its number, with no re-simulation from step 0.
 *
 * The result is equal, field for field and in order, to what
 * EpisodeSimulation.observe() handed the agent at that step (the test
 * records what an agent received during a run and compares).
 */

import { ValidationError } from '../errors.js';
import { directionToAction, type Action } from '../sim/actions.js';
import { personId, type Observation, type ObservedPerson } from '../sim/observation.js';
import { DIRECTION_CODES } from '../sim/record.js';
import type { RecordStep } from '../sim/record-types.js';
import type { CellPair, Grid } from '../world/grid.js';
import { FRAME_ACTIVE, type RecordFrames } from './record-frames.js';

/** What one person was asked to do at a snapshot, and what the movement resolution made of it. */
export interface PersonStep {
  readonly id: string;
  /** The action in the agent's action set for this person (the record's `actions`). */
  readonly action: Action;
  /** The move that happened (the record's `moved`): STAY when the move was blocked. */
  readonly moved: Action;
}

function pairOf(cols: number, cell: number): CellPair {
  return [Math.floor(cell / cols), cell % cols];
}

function checkStep(frames: RecordFrames, step: number): void {
  if (!Number.isInteger(step) || step < 0 || step > frames.steps) {
    throw new ValidationError(`step: ${step} is not a snapshot of this record; choose a step from 0 to ${frames.steps}`);
  }
}

/**
 * The observation of snapshot `step` (0 .. frames.steps). The last snapshot
 * has no active person when the episode ended by the horizon or with
 * everyone resolved; it is still the state's observation, though no agent
 * was asked to act on it.
 */
export function observationAt(grid: Grid, frames: RecordFrames, maxSteps: number, step: number): Observation {
  checkStep(frames, step);
  const { people, cols, cells, status, burnStep } = frames;
  const base = step * people;
  const observed: ObservedPerson[] = [];
  // At the horizon's snapshot the people still inside are stranded, no longer active, as in the simulation.
  for (let i = 0; i < people; i++) {
    if (status[base + i] === FRAME_ACTIVE) observed.push({ id: personId(i), cell: pairOf(cols, cells[base + i]!) });
  }
  const burning: CellPair[] = [];
  for (let cell = 0; cell < burnStep.length; cell++) if (burnStep[cell]! <= step) burning.push(pairOf(cols, cell));
  const counts = frames.counts;
  return {
    step,
    max_steps: maxSteps,
    map: grid.map,
    exits: grid.exits.map((cell) => pairOf(cols, cell)),
    burning,
    people: observed,
    evacuated: counts[step * 4 + 1]!,
    dead: counts[step * 4 + 2]!,
  };
}

const ACTION_OF_CODE = new Map<number, Action>(DIRECTION_CODES.map((code, dir) => [code, directionToAction(dir as 0 | 1 | 2 | 3 | 4)]));

function actionOf(text: string, k: number, where: string): Action {
  const action = ACTION_OF_CODE.get(text.charCodeAt(k));
  if (action === undefined) throw new ValidationError(`run record: ${where}[${k}] is not one of . N E S W`);
  return action;
}

/**
 * Person `person`'s action at snapshot `step`: null when the person was not
 * active there (already out, dead, or the episode had ended), since the
 * agent was not asked about them.
 */
export function personStepAt(trajectory: readonly Pick<RecordStep, 'actions' | 'moved'>[], frames: RecordFrames, step: number, person: number): PersonStep | null {
  checkStep(frames, step);
  if (person < 0 || person >= frames.people || !Number.isInteger(person)) throw new ValidationError(`person: no person ${person} in this record (it has ${frames.people})`);
  if (step === frames.steps) return null;
  const base = step * frames.people;
  if (frames.status[base + person] !== FRAME_ACTIVE) return null;
  // Actions are listed for the active people in person order: count those before this one.
  let k = 0;
  for (let i = 0; i < person; i++) if (frames.status[base + i] === FRAME_ACTIVE) k += 1;
  const entry = trajectory[step]!;
  return { id: personId(person), action: actionOf(entry.actions, k, `trajectory[${step}].actions`), moved: actionOf(entry.moved, k, `trajectory[${step}].moved`) };
}
