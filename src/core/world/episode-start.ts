/**
 * The start of an episode (environment.md section 3, snapshot 0): the fire
 * world of (scenario, seed), computed to the horizon, and the placed people.
 */

import { buildFireWorld } from './fire.js';
import { placePeople } from './people.js';
import type { EpisodeStart, Scenario } from './scenario-types.js';
import { parseSeed } from './seed.js';

/** Prepares an episode; a malformed seed is a ValidationError naming "seed". */
export function prepareEpisode(scenario: Scenario, seed: string): EpisodeStart {
  parseSeed(seed, 'seed');
  return { scenario, seed, fire: buildFireWorld(scenario, seed), startCells: placePeople(scenario, seed) };
}
