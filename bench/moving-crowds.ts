/**
 * Worlds where everyone keeps moving (issue 21): open floors with exits all
 * along the border, so that nobody waits long in a queue. The stress hall
 * of scale-world.ts is queue-dominated (four doors for 10,000 people), and
 * a waiting person costs less than a moving one, which flatters the rate.
 *
 * - `open-200`: 200 x 200 cells, 10,000 people, an exit every fourth
 *   border cell (196 exits), a slow fire in the middle.
 * - `exits-256`: 256 x 256 cells, 10,000 people, 128 exits (32 per side,
 *   every eighth border cell), two slow fires.
 * - `lanes-256` (`episode run` only, lanesWorld): 127 one-cell lanes of
 *   254 cells, each with its exit at the west end, 10,000 people: every
 *   person moves on every step (a lane's file moves as one chain) for up to
 *   254 steps, 1.27 M person-steps, against 0.39 M on `open-200`, whose
 *   episode is over in 119 steps (39 moves per person on average).
 */

import { EpisodeSimulation } from '../src/core/sim/simulation.js';
import { prepareEpisode } from '../src/core/world/episode-start.js';
import { validateScenario } from '../src/core/world/scenario.js';
import type { Scenario } from '../src/core/world/scenario-types.js';
import { rateFigures } from './goals.js';
import { timeCpu } from './cpu-time.js';
import type { Figure } from './harness.js';
import { simulateAndReplay } from './scale-world.js';

export interface MovingCrowdWorld {
  readonly label: string;
  readonly scenario: Scenario;
}

function openFloor(id: string, side: number, exitEvery: number, people: number, ignitions: readonly [number, number][]): Scenario {
  const map: string[] = [];
  for (let r = 0; r < side; r++) {
    let row = '';
    for (let c = 0; c < side; c++) {
      const rowEdge = r === 0 || r === side - 1;
      const colEdge = c === 0 || c === side - 1;
      const corner = rowEdge && colEdge;
      const exit = !corner && ((rowEdge && c % exitEvery === exitEvery / 2) || (colEdge && r % exitEvery === exitEvery / 2));
      row += exit ? 'E' : rowEdge || colEdge ? '#' : '.';
    }
    map.push(row);
  }
  return validateScenario(
    {
      schema_version: '1.0',
      scenario_id: id,
      title: `Bench: ${side} x ${side} open floor, ${people} people, exits all along the border`,
      families: ['bench'],
      map,
      people: [{ zone: [1, 1, side - 2, side - 2], count: people }],
      fire: { ignitions: ignitions.map((cell) => ({ cell: [...cell], step: 0 })), spread_probability: '0.05' },
      max_steps: 1000,
      development_seed: '0',
    },
    `bench ${id} scenario`,
  );
}

export function movingCrowdWorlds(): MovingCrowdWorld[] {
  return [
    { label: '200 x 200 open floor, 10,000 people, 196 exits', scenario: openFloor('bench-open-200', 200, 4, 10_000, [[100, 100]]) },
    {
      label: '256 x 256 open floor, 10,000 people, 128 exits',
      scenario: openFloor('bench-exits-256', 256, 8, 10_000, [
        [90, 90],
        [166, 166],
      ]),
    },
  ];
}

/** A long moving-crowd episode (see the header): 256 x 256, 127 lanes, 10,000 people, a slow fire at the far end of the last lane. */
export function lanesWorld(): MovingCrowdWorld {
  const side = 256;
  const map: string[] = [];
  for (let r = 0; r < side; r++) {
    const lane = r % 2 === 1 && r < side - 1;
    let row = '';
    for (let c = 0; c < side; c++) row += !lane ? '#' : c === 0 ? 'E' : c === side - 1 ? '#' : '.';
    map.push(row);
  }
  const scenario = validateScenario(
    {
      schema_version: '1.0',
      scenario_id: 'bench-lanes-256',
      title: 'Bench: 256 x 256, 127 one-cell lanes with an exit at the west end of each, 10,000 people',
      families: ['bench'],
      map,
      people: [{ zone: [1, 1, side - 2, side - 2], count: 10_000 }],
      fire: { ignitions: [{ cell: [side - 3, side - 2], step: 0 }], spread_probability: '0.05' },
      max_steps: 1000,
      development_seed: '0',
    },
    'bench bench-lanes-256 scenario',
  );
  return { label: '256 x 256, 127 lanes of 254 cells, 10,000 people who move every step', scenario };
}

/** Issue 21's goals on these worlds, static agent. */
const SIMULATION_GOAL = 7e6;
const WARM_REPLAY_GOAL = 15e6;
const PREPARE_GOAL_MS = 20;
const AGENT = 'static-shortest-path-v1';

/**
 * Per world: the simulation (prepare the episode from a fresh scenario
 * object, run it, build the record text), the warm replay of its record,
 * and the fixed cost of preparing an episode (the fire world, the people
 * and the simulation's own arrays), in CPU time beside wall time. An
 * episode is short here (about 0.4-0.6 M person-steps), so the median of
 * seven runs after three untimed ones is reported.
 */
export async function movingCrowdFigures(): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const { label, scenario: world } of movingCrowdWorlds()) {
    const { personSteps, simulate, warmReplay } = await simulateAndReplay(world, AGENT, 7, 3);
    const prepare = await timeCpu(() => new EpisodeSimulation(prepareEpisode({ ...world }, '0')), 7, 3);
    const name = `${label}, ${AGENT}`;
    figures.push(
      { name: `${name}: person-steps per episode`, value: personSteps, unit: '' },
      ...rateFigures(`${name}: simulation`, personSteps, simulate, SIMULATION_GOAL),
      ...rateFigures(`${name}: warm replay`, personSteps, warmReplay, WARM_REPLAY_GOAL),
      {
        name: `${label}: fixed cost of preparing an episode (CPU)`,
        value: prepare.cpu * 1e3,
        unit: 'ms',
        goal: `< ${PREPARE_GOAL_MS}`,
        ok: prepare.cpu * 1e3 < PREPARE_GOAL_MS,
      },
      { name: `${label}: fixed cost of preparing an episode (wall)`, value: prepare.wall * 1e3, unit: 'ms' },
    );
  }
  return figures;
}
