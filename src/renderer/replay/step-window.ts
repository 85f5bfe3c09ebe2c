/**
 * The part of an observation around one person, as text: the map rows the
 * agent received with the burning cells and the other people written over
 * them, so that the step view shows at a glance what lay around a person
 * when its agent chose their action. Read from the observation alone.
 */

import type { Action } from '../../core/sim/actions.js';
import type { Observation } from '../../core/sim/observation.js';

/** Cells drawn on each side of the person (a 9 by 9 window). */
export const WINDOW_RADIUS = 4;

export const WINDOW_KEY = '@ this person · P another person · * burning · E exit · # wall · . floor · blank: off the map';

export function stepWindow(observation: Observation, personIdText: string, radius = WINDOW_RADIUS): string[] | null {
  const me = observation.people.find((p) => p.id === personIdText);
  if (me === undefined) return null;
  const [row, col] = me.cell;
  const inWindow = (r: number, c: number) => Math.abs(r - row) <= radius && Math.abs(c - col) <= radius;
  const over = new Map<string, string>();
  for (const [r, c] of observation.burning) if (inWindow(r, c)) over.set(`${r},${c}`, '*');
  for (const p of observation.people) if (inWindow(p.cell[0], p.cell[1])) over.set(`${p.cell[0]},${p.cell[1]}`, 'P');
  over.set(`${row},${col}`, '@');
  const lines: string[] = [];
  for (let r = row - radius; r <= row + radius; r++) {
    let line = '';
    for (let c = col - radius; c <= col + radius; c++) {
      const mapRow = observation.map[r];
      line += mapRow === undefined || c < 0 || c >= mapRow.length ? ' ' : (over.get(`${r},${c}`) ?? mapRow[c]!);
    }
    lines.push(line);
  }
  return lines;
}

const ACTION_WORDS: Readonly<Record<Action, string>> = { STAY: 'stay', N: 'north', E: 'east', S: 'south', W: 'west' };

export function actionWords(action: Action): string {
  return action === 'STAY' ? 'STAY (stay put)' : `${action} (${ACTION_WORDS[action]})`;
}
