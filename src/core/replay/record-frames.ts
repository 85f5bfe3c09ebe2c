/**
 * A run record decoded once into flat typed arrays for drawing: where every
 * person is at every snapshot, their status, and when each cell starts to
 * burn. The replay view (pixi.js) and the HTML report animate from this.
 *
 * Decode only a record that has been authenticated (replayRecord, or a
 * verified result or bundle): this reads the record's own `moved`,
 * `evacuated`, `died` and `burning` fields, which the replay check has
 * proven equal to the simulation's.
 */

import { ValidationError } from '../errors.js';
import type { RunRecord } from '../sim/record.js';
import { cellIndex, type Grid } from '../world/grid.js';

export const FRAME_ACTIVE = 0;
export const FRAME_EVACUATED = 1;
export const FRAME_DEAD = 2;
export const FRAME_STRANDED = 3;

/** A cell that never burns within the record. */
export const NEVER_BURNS = 0x7fffffff;

export interface RecordFrames {
  readonly rows: number;
  readonly cols: number;
  /** Persons. */
  readonly people: number;
  /** Steps; snapshots are 0..steps. */
  readonly steps: number;
  /** cells[s * people + i]: person i's cell at snapshot s (an evacuee keeps the exit it left by). */
  readonly cells: Int32Array;
  /** status[s * people + i]: FRAME_ACTIVE, FRAME_EVACUATED or FRAME_DEAD at snapshot s; stranded at the last. */
  readonly status: Uint8Array;
  /** burnStep[cell]: the first snapshot at which the cell burns, or NEVER_BURNS. */
  readonly burnStep: Int32Array;
  /** blocked[s * people + i] = 1 when person i asked to move in step s -> s+1 and did not. */
  readonly blocked: Uint8Array;
  /** Per snapshot: [active, evacuated, dead, stranded] counts. */
  readonly counts: Int32Array;
}

const DELTA: Readonly<Record<string, readonly [number, number]>> = { N: [-1, 0], E: [0, 1], S: [1, 0], W: [0, -1], '.': [0, 0] };

function personIndex(id: string, people: number, where: string): number {
  const index = /^p[0-9]{4,}$/.test(id) ? Number(id.slice(1)) : -1;
  if (index < 0 || index >= people) throw new ValidationError(`${where}: unknown person ${JSON.stringify(id)}`);
  return index;
}

export function decodeRecordFrames(grid: Grid, record: RunRecord): RecordFrames {
  const people = record.initial.people.length;
  const steps = record.steps;
  if (record.trajectory.length !== steps) throw new ValidationError(`run record: ${record.trajectory.length} trajectory steps, but steps is ${steps}`);
  const size = (steps + 1) * people;
  const cells = new Int32Array(size);
  const status = new Uint8Array(size);
  const blocked = new Uint8Array(size);
  const counts = new Int32Array((steps + 1) * 4);
  const burnStep = new Int32Array(grid.rows * grid.cols).fill(NEVER_BURNS);
  for (const [r, c] of record.initial.burning) burnStep[cellIndex(grid, r, c)] = 0;
  record.initial.people.forEach(([r, c], i) => (cells[i] = cellIndex(grid, r, c)));

  for (let s = 0; s < steps; s++) {
    const step = record.trajectory[s]!;
    const from = s * people;
    const to = from + people;
    cells.copyWithin(to, from, from + people);
    status.copyWithin(to, from, from + people);
    let k = 0;
    for (let i = 0; i < people; i++) {
      if (status[from + i] !== FRAME_ACTIVE) continue;
      const moved = step.moved[k];
      const asked = step.actions[k];
      k += 1;
      const delta = moved === undefined ? undefined : DELTA[moved];
      if (delta === undefined) throw new ValidationError(`run record: trajectory[${s}].moved is too short or holds ${JSON.stringify(moved)}`);
      if (delta[0] !== 0 || delta[1] !== 0) cells[to + i] = cells[from + i]! + delta[0] * grid.cols + delta[1];
      if (asked !== undefined && asked !== '.' && moved === '.') blocked[from + i] = 1;
    }
    for (const id of step.evacuated) status[to + personIndex(id, people, `trajectory[${s}].evacuated`)] = FRAME_EVACUATED;
    for (const id of step.died) status[to + personIndex(id, people, `trajectory[${s}].died`)] = FRAME_DEAD;
    for (const [r, c] of step.burning) burnStep[cellIndex(grid, r, c)] = s + 1;
  }
  // Whoever is still active after the last step is stranded.
  const last = steps * people;
  for (let i = 0; i < people; i++) if (status[last + i] === FRAME_ACTIVE) status[last + i] = FRAME_STRANDED;
  for (let s = 0; s <= steps; s++) {
    for (let i = 0; i < people; i++) counts[s * 4 + status[s * people + i]!]! += 1;
  }
  return { rows: grid.rows, cols: grid.cols, people, steps, cells, status, burnStep, blocked, counts };
}
