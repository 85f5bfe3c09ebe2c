/**
 * A scenario for the per-step cost that does not depend on the crowd: the
 * largest legal grid (256 x 256) and horizon (H = 10,000), a fire that
 * keeps growing over the whole episode (about 50,000 cells by H), and a
 * few people sealed in a room without an exit, so that they stay active
 * (and still) to the horizon. What a step costs beyond its person-steps is
 * the floor every step pays: before issue 8 it re-read the whole burning set.
 */

import { validateScenario } from '../src/core/world/scenario.js';
import type { Scenario } from '../src/core/world/scenario-types.js';

export const SIDE = 256;
export const HORIZON = 10_000;
/** The sealed room: columns ROOM_COL + 1 .. SIDE - 2, behind a wall at column ROOM_COL. */
const ROOM_COL = 200;

/** The scenario with `people` people (1 to 2,500) in the sealed room. */
export function longHorizonScenario(people: number): Scenario {
  const map: string[] = [];
  for (let r = 0; r < SIDE; r++) {
    let row = '';
    for (let c = 0; c < SIDE; c++) {
      const border = r === 0 || c === 0 || r === SIDE - 1 || c === SIDE - 1 || c === ROOM_COL;
      row += r === 0 && c === 1 ? 'E' : border ? '#' : '.';
    }
    map.push(row);
  }
  return validateScenario(
    {
      schema_version: '1.0',
      scenario_id: 'bench-long-horizon',
      title: 'Bench: a growing fire over 10,000 steps beside a sealed room',
      families: ['bench'],
      map,
      people: [{ zone: [100, ROOM_COL + 1, 150, SIDE - 2], count: people }],
      fire: { ignitions: [{ cell: [128, 100], step: 0 }], spread_probability: '0.05' },
      max_steps: HORIZON,
      development_seed: '0',
    },
    'bench long-horizon scenario',
  );
}
