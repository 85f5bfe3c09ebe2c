/**
 * The largest legal scenario for the references and capacity bounds
 * (issue 8): a 256 x 256 hall split by wall rows with doors, five exits,
 * 10,000 people, H = 10,000, and a fire spreading from two of three
 * candidate cells. Before issue 8 the references held L(x, t) as a dense
 * (H + 1) x cells Int32 table: 2.6 GB here.
 *
 * Run as a program (`node --import tsx bench/references-stress.ts FILE`,
 * FILE a JSON list of the evacuees' person indices), it computes the
 * references and both bounds once and prints {"maxRssMiB", "rssBeforeMiB",
 * "tableBytes"} on stdout: the peak resident memory of a process that did
 * nothing else (no simulation), for `npm run bench`.
 */

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { capacityBounds } from '../src/core/scoring/capacity-bounds.js';
import { computeReferences } from '../src/core/scoring/references.js';
import { prepareEpisode } from '../src/core/world/episode-start.js';
import { validateScenario } from '../src/core/world/scenario.js';
import type { Scenario } from '../src/core/world/scenario-types.js';

export const STRESS_SIDE = 256;
export const STRESS_HORIZON = 10_000;
export const STRESS_PEOPLE = 10_000;

export function stressScenario(): Scenario {
  const map: string[] = [];
  for (let r = 0; r < STRESS_SIDE; r++) {
    let row = '';
    for (let c = 0; c < STRESS_SIDE; c++) {
      const border = r === 0 || c === 0 || r === STRESS_SIDE - 1 || c === STRESS_SIDE - 1;
      const exit = ((r === 0 || r === STRESS_SIDE - 1) && c % 64 === 32) || (c === 0 && r === 128);
      // Every 32nd row is a wall with a door every 16 cells: the crowd queues at doors.
      const wall = border || (r % 32 === 0 && c % 16 !== 8);
      row += exit ? 'E' : wall ? '#' : '.';
    }
    map.push(row);
  }
  return validateScenario(
    {
      schema_version: '1.0',
      scenario_id: 'bench-references-stress',
      title: 'Bench: the largest legal grid, horizon and crowd',
      families: ['bench'],
      map,
      people: [{ zone: [1, 1, STRESS_SIDE - 2, STRESS_SIDE - 2], count: STRESS_PEOPLE }],
      fire: {
        ignitions: [],
        ignition_candidates: {
          cells: [
            [100, 100],
            [150, 200],
            [40, 40],
          ],
          count: 2,
        },
        spread_probability: '0.12',
      },
      max_steps: STRESS_HORIZON,
      development_seed: '0',
    },
    'bench references stress scenario',
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const evacuees = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as number[];
  const scenario = stressScenario();
  const start = prepareEpisode(scenario, '0');
  const rssBeforeMiB = process.memoryUsage().rss / 2 ** 20;
  const refs = computeReferences(scenario.grid, start.fire, start.startCells);
  capacityBounds(scenario.grid, start.fire, refs, evacuees);
  process.stdout.write(JSON.stringify({ maxRssMiB: process.resourceUsage().maxRSS / 1024, rssBeforeMiB, tableBytes: refs.earliestTable.byteLength }) + '\n');
}
