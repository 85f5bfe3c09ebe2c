/**
 * Strict parsing of model answers. An answer is accepted only when its text
 * (leading and trailing whitespace aside) is exactly one strict JSON value of
 * the required shape; nothing is repaired, guessed or defaulted. Every
 * rejection is a ModelOutputError (`invalid_output`) whose message names the
 * first problem; the raw answer stays in the transcript.
 */

import { ModelOutputError } from '../errors.js';
import type { JsonObject, JsonValue } from '../json/canonical.js';
import { JsonSyntaxError, parseStrictJson } from '../json/strict-parse.js';
import { isAction, type Action, type ActionSet } from '../sim/actions.js';
import type { Observation } from '../sim/observation.js';
import { WALL, type Grid } from '../world/grid.js';

const hasOwn = Object.prototype.hasOwnProperty;

function shown(text: string): string {
  return JSON.stringify(text.length > 60 ? text.slice(0, 60) + '...' : text);
}

function jsonObject(text: string, what: string): JsonObject {
  let value: JsonValue;
  try {
    value = parseStrictJson(text.trim());
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new ModelOutputError(`the answer is not strict JSON (${error.message}): ${shown(text)}`);
    throw error;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ModelOutputError(`the answer must be ${what}, got ${shown(text)}`);
  return value;
}

/** The cell a move enters, or -1 when it is off the grid. */
function target(grid: Grid, row: number, col: number, action: Action): number {
  switch (action) {
    case 'STAY':
      return row * grid.cols + col;
    case 'N':
      return row > 0 ? (row - 1) * grid.cols + col : -1;
    case 'S':
      return row + 1 < grid.rows ? (row + 1) * grid.cols + col : -1;
    case 'E':
      return col + 1 < grid.cols ? row * grid.cols + col + 1 : -1;
    case 'W':
      return col > 0 ? row * grid.cols + col - 1 : -1;
  }
}

/**
 * A direct-mode answer: an action set naming exactly the active persons,
 * each with STAY N E S W and a legal move (in the grid, not into a wall or a
 * burning cell of the observation).
 */
export function parseDirectAnswer(text: string, observation: Observation, grid: Grid): ActionSet {
  const obj = jsonObject(text, 'a JSON object of person ID -> action');
  const burning = new Set(observation.burning.map(([r, c]) => r * grid.cols + c));
  const out: Record<string, Action> = {};
  for (const person of observation.people) {
    if (!hasOwn.call(obj, person.id)) throw new ModelOutputError(`the action set is missing ${person.id}`);
    const value = obj[person.id];
    if (!isAction(value)) throw new ModelOutputError(`action for ${person.id}: ${JSON.stringify(value)} is not one of "STAY", "N", "E", "S", "W"`);
    const cell = target(grid, person.cell[0], person.cell[1], value);
    if (cell < 0) throw new ModelOutputError(`action for ${person.id}: ${value} leaves the grid`);
    if (value !== 'STAY' && grid.kinds[cell] === WALL) throw new ModelOutputError(`action for ${person.id}: ${value} moves into a wall`);
    if (value !== 'STAY' && burning.has(cell)) throw new ModelOutputError(`action for ${person.id}: ${value} moves into a burning cell`);
    out[person.id] = value;
  }
  const keys = Object.keys(obj);
  if (keys.length !== observation.people.length) {
    const ids = new Set(observation.people.map((p) => p.id));
    const extra = keys.find((k) => !ids.has(k));
    throw new ModelOutputError(`the action set names ${shown(extra ?? '')}, which is not an active person`);
  }
  return out;
}

const EXIT_ID = /^X(0|[1-9][0-9]{0,5})$/;

/**
 * A planner-mode answer: {"targets": {ID or "*": "Xk"}}, every active person
 * covered (by its ID or by "*"), every exit ID one of X0 .. X(exitCount-1).
 * Returns the exit index of every active person.
 */
export function parsePlannerAnswer(text: string, observation: Observation, exitCount: number): Map<string, number> {
  const obj = jsonObject(text, 'a JSON object {"targets": {...}}');
  const keys = Object.keys(obj);
  if (keys.length !== 1 || keys[0] !== 'targets') throw new ModelOutputError(`the answer must have exactly one key "targets", got keys ${JSON.stringify(keys)}`);
  const targets = obj['targets'];
  if (targets === null || typeof targets !== 'object' || Array.isArray(targets)) throw new ModelOutputError('"targets" must be a JSON object of person ID (or "*") -> exit ID');
  const active = new Set(observation.people.map((p) => p.id));
  const exitOf = (key: string, value: JsonValue): number => {
    const m = typeof value === 'string' ? EXIT_ID.exec(value) : null;
    const index = m === null ? -1 : Number(m[1]);
    if (index < 0 || index >= exitCount) {
      throw new ModelOutputError(`targets[${JSON.stringify(key)}]: ${JSON.stringify(value)} is not an exit ID (X0 .. X${exitCount - 1})`);
    }
    return index;
  };
  let fallback: number | undefined;
  const named = new Map<string, number>();
  for (const key of Object.keys(targets)) {
    const value = targets[key]!;
    if (key === '*') fallback = exitOf(key, value);
    else if (active.has(key)) named.set(key, exitOf(key, value));
    else throw new ModelOutputError(`targets names ${shown(key)}, which is not an active person`);
  }
  const out = new Map<string, number>();
  for (const person of observation.people) {
    const exit = named.get(person.id) ?? fallback;
    if (exit === undefined) throw new ModelOutputError(`targets gives no exit for ${person.id} (name it or give "*")`);
    out.set(person.id, exit);
  }
  return out;
}
