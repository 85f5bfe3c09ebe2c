/**
 * The action check (environment.md section 4, phase 2): an action set must
 * be a plain object naming exactly the active persons, each with one of
 * `STAY N E S W`, and every move must target an in-grid, non-wall cell that
 * is not in B(t). Anything else is a model output error (`invalid_output`).
 *
 * The same check runs on recorded actions during replay (as direction
 * codes), so an illegal recorded action can never be replayed.
 */

import { ModelOutputError } from '../errors.js';
import { STAY, WALL, WEST, neighbour, type Direction, type Grid } from '../world/grid.js';
import { actionToDirection, isAction } from './actions.js';
import { moveAllowed, moveTable } from './resolver.js';
import { ACTIVE, statusName, type PersonStatus } from './events.js';

/** What the action check reads from snapshot t. */
export interface ActionCheckContext {
  readonly grid: Grid;
  /** The snapshot the actions are for. */
  readonly t: number;
  /** First snapshot each cell burns in: a cell is in B(t) iff `ignitionStep[cell] <= t`. */
  readonly ignitionStep: Int32Array;
  /** Person IDs by person index. */
  readonly ids: readonly string[];
  /** Person index of each ID. */
  readonly indexOfId: ReadonlyMap<string, number>;
  /** Active person indices at snapshot t, in person order. */
  readonly active: Int32Array;
  /** Each person's cell, by person index. */
  readonly cells: Int32Array;
  /** Each person's status, by person index. */
  readonly status: Uint8Array;
}

const LETTERS = '.NESW';
const hasOwn = Object.prototype.hasOwnProperty;

/** The direction of an action value, or -1 when it is not one of STAY N E S W. */
function directionOf(value: unknown): number {
  return isAction(value) ? actionToDirection(value) : -1;
}

/** A short, printable description of an untrusted value for an error message. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string': {
      const shown = value.length > 40 ? value.slice(0, 40) + '...' : value;
      return JSON.stringify(shown);
    }
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'undefined':
      return 'undefined';
    case 'object':
      return 'an object';
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
  }
  return 'a value';
}

/** A key as it appears in a message: bare when short and printable, else JSON-quoted. */
function describeKey(key: string): string {
  return /^[\x21-\x7e]{1,40}$/.test(key) ? key : describeValue(key);
}

function pairText(grid: Grid, cell: number): string {
  return `[${Math.floor(cell / grid.cols)},${cell % grid.cols}]`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Checks one move of active person `i` at snapshot t; throws
 * ModelOutputError when it leaves the grid or targets a wall or a burning cell.
 */
function checkMove(ctx: ActionCheckContext, i: number, dir: Direction, t: number): void {
  if (dir === STAY) return;
  const { grid } = ctx;
  const from = ctx.cells[i]!;
  const to = neighbour(grid, from, dir);
  // The message is built only on failure: this runs for every move of every step.
  if (to < 0) throw moveError(ctx, i, dir, `leaves the grid from ${pairText(grid, from)}`);
  if (grid.kinds[to] === WALL) throw moveError(ctx, i, dir, `targets a wall at ${pairText(grid, to)}`);
  if (ctx.ignitionStep[to]! <= t) throw moveError(ctx, i, dir, `targets a burning cell at ${pairText(grid, to)}`);
}

function moveError(ctx: ActionCheckContext, i: number, dir: Direction, problem: string): ModelOutputError {
  return new ModelOutputError(`action for ${ctx.ids[i]}: move ${LETTERS[dir]} ${problem}`);
}

/** The error for a key that is not an active person's ID. */
function extraKeyError(ctx: ActionCheckContext, key: string): ModelOutputError {
  const index = ctx.indexOfId.get(key);
  if (index === undefined) return new ModelOutputError(`action set names unknown person ${describeKey(key)}`);
  const status = statusName(ctx.status[index]! as PersonStatus);
  return new ModelOutputError(`action set names ${key}, which is not active (${status})`);
}

/**
 * The action check of an agent's output at snapshot t. Returns the direction
 * code of each active person, in person order; throws ModelOutputError with a
 * message that names the first problem (persons checked in person order).
 */
export function checkActionSet(ctx: ActionCheckContext, actions: unknown): Uint8Array {
  if (!isPlainObject(actions)) {
    throw new ModelOutputError(`action set must be a JSON object, got ${describeValue(actions)}`);
  }
  const { active, ids, t } = ctx;
  const n = active.length;
  const moves = new Uint8Array(n);
  for (let k = 0; k < n; k++) {
    const i = active[k]!;
    const id = ids[i]!;
    const value = actions[id];
    const dir = directionOf(value);
    if (dir < 0) {
      if (!hasOwn.call(actions, id)) throw new ModelOutputError(`action set is missing ${id}`);
      throw new ModelOutputError(`action for ${id}: ${describeValue(value)} is not one of STAY N E S W`);
    }
    // A valid letter read through the prototype (an inherited key) is not the agent's own answer.
    if (!hasOwn.call(actions, id)) throw new ModelOutputError(`action set is missing ${id}`);
    checkMove(ctx, i, dir as Direction, t);
    moves[k] = dir;
  }
  // Every active person is named; any further own key is one too many.
  const keys = Object.keys(actions);
  if (keys.length !== n) {
    for (const key of keys) {
      const index = ctx.indexOfId.get(key);
      if (index === undefined || ctx.status[index] !== ACTIVE) throw extraKeyError(ctx, key);
    }
  }
  return moves;
}

/**
 * The action check on direction codes (recorded actions during replay): one
 * code 0..4 per active person, each move legal at snapshot t.
 */
export function checkMoveCodes(ctx: ActionCheckContext, moves: Uint8Array): void {
  const { active, t, cells, ignitionStep } = ctx;
  if (moves.length !== active.length) {
    throw new ModelOutputError(`action set has ${moves.length} actions but ${active.length} persons are active`);
  }
  // The same checks as checkMove, on the move table in one loop (this
  // runs for every move of every step); a failing move goes to checkMove
  // for its message.
  const { open, step } = moveTable(ctx.grid);
  for (let k = 0; k < moves.length; k++) {
    const dir = moves[k]!;
    if (dir === STAY) continue;
    if (dir > WEST) throw new ModelOutputError(`action for ${ctx.ids[active[k]!]}: direction code ${dir} is not one of 0..4`);
    const cell = cells[active[k]!]!;
    if (!moveAllowed(open[cell]!, dir) || ignitionStep[cell + step[dir]!]! <= t) checkMove(ctx, active[k]!, dir as Direction, t);
  }
}
