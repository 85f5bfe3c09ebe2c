/**
 * The prompts of `builtin:openai-chat` (system prompt version 1.0).
 *
 * Every call is stateless: the system prompt plus one user message that
 * renders the whole observation, so an answer depends only on what the
 * observation shows (never on the seed, the scenario ID or earlier calls).
 *
 * The user message, compactly:
 *
 *   step 3 of 120; evacuated 2; dead 0; active 4
 *   map (row 0 at the top, column 0 at the left; # wall, . floor, E exit, F burning, P person):
 *   #####
 *   E.P.#
 *   ...
 *   exits: X0 (5,0) (6,0); X1 (1,23)
 *   people (id row,col): p0000 5,3; p0002 7,9
 *
 * Exit IDs X0, X1, ... number the exit groups (4-connected exit cells, a
 * door several cells wide is one exit) in row-major order of their first
 * cell; the IDs are the same at every step of an episode.
 */

import { exitGroups } from '../baselines/distance-fields.js';
import type { Observation } from '../sim/observation.js';
import type { Grid } from '../world/grid.js';
import type { AdapterMode, SystemPromptVersion } from './config.js';

export interface ChatMessage {
  readonly role: 'system' | 'user';
  readonly content: string;
}

const RULES_1_0 = [
  'You direct people out of a burning building on a grid, one step at a time.',
  'Each step every person moves one cell: N (row - 1), E (column + 1), S (row + 1), W (column - 1), or STAY.',
  'A person who steps onto an exit cell (E) is safe and leaves the grid.',
  'A move into a wall (#), off the grid or into a burning cell (F) is illegal. People on a cell that catches fire die.',
  'The fire spreads to neighbouring cells over time and exits can be lost to it. Two people cannot share a cell; blocked moves wait.',
].join('\n');

function directInstructions1_0(): string {
  return [
    'Answer with ONE JSON object and nothing else (no prose, no code fence).',
    'Its keys are exactly the IDs of the people listed, its values one of "STAY", "N", "E", "S", "W".',
    'Example: {"p0000":"N","p0001":"STAY"}',
    'An answer that is not exactly such an object, or that moves someone illegally, ends the episode as invalid output.',
  ].join('\n');
}

function plannerInstructions1_0(interval: number): string {
  return [
    'You plan; a deterministic path follower moves the people: each person walks its shortest fire-free path to the exit you assign.',
    `You are asked again every ${interval} step(s), and earlier when an assigned exit can no longer be reached.`,
    'Answer with ONE JSON object and nothing else (no prose, no code fence): {"targets": {...}}.',
    'Keys of "targets" are person IDs, or "*" for every person not named; values are exit IDs ("X0", "X1", ...). Every listed person must get an exit.',
    'Example: {"targets":{"*":"X0","p0003":"X1"}}',
    'An answer that is not exactly such an object, or names an unknown person or exit, ends the episode as invalid output.',
  ].join('\n');
}

/** The system prompt of a version and mode. */
export function systemPrompt(version: SystemPromptVersion, mode: AdapterMode, plannerInterval: number | null): string {
  switch (version) {
    case '1.0':
      switch (mode) {
        case 'direct':
          return `${RULES_1_0}\n${directInstructions1_0()}`;
        case 'planner':
          return `${RULES_1_0}\n${plannerInstructions1_0(plannerInterval ?? 1)}`;
      }
  }
}

/** Exit group IDs "X0", "X1", ... of a grid, with their cells. */
export function exitIds(grid: Grid): { readonly id: string; readonly cells: readonly number[] }[] {
  return exitGroups(grid).map((cells, k) => ({ id: `X${k}`, cells }));
}

/** The user message: the observation, rendered compactly (see the file comment). */
export function renderObservation(observation: Observation, grid: Grid): string {
  const rows = observation.map.map((line) => line.split(''));
  for (const [r, c] of observation.burning) rows[r]![c] = 'F';
  for (const person of observation.people) rows[person.cell[0]]![person.cell[1]] = 'P';
  const cols = grid.cols;
  const cell = (i: number): string => `(${Math.floor(i / cols)},${i % cols})`;
  const exits = exitIds(grid)
    .map((e) => `${e.id} ${e.cells.map(cell).join(' ')}`)
    .join('; ');
  const people = observation.people.map((p) => `${p.id} ${p.cell[0]},${p.cell[1]}`).join('; ');
  return [
    `step ${observation.step} of ${observation.max_steps}; evacuated ${observation.evacuated}; dead ${observation.dead}; active ${observation.people.length}`,
    'map (row 0 at the top, column 0 at the left; # wall, . floor, E exit, F burning, P person):',
    ...rows.map((r) => r.join('')),
    `exits: ${exits}`,
    `people (id row,col): ${people}`,
  ].join('\n');
}

/** The messages of one call. */
export function promptMessages(system: string, observation: Observation, grid: Grid): ChatMessage[] {
  return [
    { role: 'system', content: system },
    { role: 'user', content: renderObservation(observation, grid) },
  ];
}
