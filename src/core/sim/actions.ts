/** The action alphabet (action_schema_version 1.0) and its one-character record encoding. */

import { EAST, NORTH, SOUTH, STAY, WEST, type Direction } from '../world/grid.js';

export type Action = 'STAY' | 'N' | 'E' | 'S' | 'W';

/** An action set: person ID -> action, naming exactly the active persons. */
export type ActionSet = Readonly<Record<string, Action>>;

export const ACTIONS: readonly Action[] = ['STAY', 'N', 'E', 'S', 'W'];

/** Direction code of each action, indexed like ACTIONS. */
export function actionToDirection(action: Action): Direction {
  switch (action) {
    case 'STAY':
      return STAY;
    case 'N':
      return NORTH;
    case 'E':
      return EAST;
    case 'S':
      return SOUTH;
    case 'W':
      return WEST;
  }
}

export function directionToAction(dir: Direction): Action {
  return ACTIONS[dir]!;
}

/** Record characters: `.` for STAY, else the action letter. */
export const DIRECTION_CHARS = '.NESW';

export function directionToChar(dir: Direction): string {
  return DIRECTION_CHARS[dir]!;
}

export function charToDirection(ch: string): Direction | undefined {
  const i = DIRECTION_CHARS.indexOf(ch);
  return i < 0 || ch.length !== 1 ? undefined : (i as Direction);
}

export function isAction(value: unknown): value is Action {
  return value === 'STAY' || value === 'N' || value === 'E' || value === 'S' || value === 'W';
}
