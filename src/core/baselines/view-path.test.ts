// The runner's fast path (move-view.ts) must not change a single move: each
// baseline run through it gives the same record, byte for byte, as the same
// baseline behind the documented interface (act(observation) -> action set).
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../sim/agent.js';
import { isViewAgent } from '../sim/move-view.js';
import { recordText } from '../sim/record.js';
import { runEpisode } from '../sim/episode.js';
import { prepareEpisode } from '../world/episode-start.js';
import { parseScenarioText } from '../world/scenario.js';
import { BASELINE_IDS, baselineFactory } from './registry.js';

const SUITE = new URL('../../../scenarios/public/v1/', import.meta.url);
const scenarios = readdirSync(SUITE)
  .filter((name) => name.startsWith('v1-pub-'))
  .map((name) => parseScenarioText(readFileSync(new URL(name, SUITE), 'utf8'), name));

/** The agent behind the documented interface only (the symbol-keyed fast path hidden). */
function observationOnly(agent: Agent): Agent {
  return { act: (observation) => agent.act(observation) };
}

describe('the fast path of the built-in agents', () => {
  it('is taken by every baseline but the scrubbing adversary', async () => {
    for (const id of BASELINE_IDS) {
      const agent = await baselineFactory(id)!();
      expect(isViewAgent(agent), id).toBe(id !== 'adv-block-scrub');
    }
  });

  for (const id of BASELINE_IDS) {
    it(`gives ${id} the records of the observation path`, async () => {
      for (const scenario of scenarios) {
        for (const seed of ['0', '7']) {
          const start = prepareEpisode(scenario, seed);
          const fast = await runEpisode(start, await baselineFactory(id)!());
          const slow = await runEpisode(start, observationOnly(await baselineFactory(id)!()));
          expect(recordText(fast.record), `${scenario.scenarioId} seed ${seed}`).toBe(recordText(slow.record));
        }
      }
    });
  }
});
