/**
 * The start of an episode (environment.md section 3, snapshot 0): the fire
 * world of (scenario, seed), computed to the horizon, and the placed people.
 */

import { buildFireWorld } from './fire.js';
import { placePeople } from './people.js';
import type { EpisodeStart, Scenario } from './scenario-types.js';
import { parseSeed } from './seed.js';

// An episode is usually prepared twice in a row in one process: to run it and
// to replay-check its record (the CLI, the evaluation runner), or to replay it
// and compute its references (scoring). The start is a pure function of the
// scenario object and the seed and nobody mutates it, so the last few starts
// of each scenario are kept. Keyed by the Scenario object itself (a WeakMap),
// so a start never outlives its scenario and a different scenario object,
// even an identical one, is computed afresh.
const RECENT_PER_SCENARIO = 4;
const recent = new WeakMap<Scenario, Map<string, EpisodeStart>>();

/** Prepares an episode; a malformed seed is a ValidationError naming "seed". */
export function prepareEpisode(scenario: Scenario, seed: string): EpisodeStart {
  parseSeed(seed, 'seed');
  let starts = recent.get(scenario);
  const known = starts?.get(seed);
  if (known) return known;
  const start: EpisodeStart = Object.freeze({ scenario, seed, fire: buildFireWorld(scenario, seed), startCells: placePeople(scenario, seed) });
  if (!starts) recent.set(scenario, (starts = new Map()));
  if (starts.size >= RECENT_PER_SCENARIO) starts.delete(starts.keys().next().value!);
  starts.set(seed, start);
  return start;
}
