/**
 * Benchmark figures of the benchmark core (issue "Benchmark core"):
 * simulation plus replay of the large hall with a baseline, in person-steps
 * per second on one core; replay cost relative to simulation; run record
 * bytes per person-step.
 *
 * "Simulation" is what `episode run` does before writing: prepare the episode
 * (fire world, people), run it with the agent, build the record text.
 * "Replay" is the replay check of that record. In one process the replay
 * reuses the prepared fire world, as the evaluation runner does; the cold
 * replay (a fresh scenario object, as `replay verify` in its own process)
 * is reported too, and the replay/simulation ratio uses it.
 */

import { readFileSync } from 'node:fs';
import { baselineFactory } from '../src/core/baselines/registry.js';
import { recordText, type RunRecord } from '../src/core/sim/record.js';
import { replayRecord } from '../src/core/sim/replay.js';
import { runEpisode } from '../src/core/sim/runner.js';
import { prepareEpisode } from '../src/core/world/episode-start.js';
import { parseScenarioText } from '../src/core/world/scenario.js';
import type { Scenario } from '../src/core/world/scenario-types.js';
import { type Figure, LARGE_HALL, timeIt } from './harness.js';

export async function benchCore(): Promise<Figure[]> {
  const parsed = parseScenarioText(readFileSync(LARGE_HALL, 'utf8'), LARGE_HALL);
  // A copy is a new cache key: prepareEpisode computes its fire world afresh.
  const fresh = (): Scenario => ({ ...parsed });
  const figures: Figure[] = [];
  for (const agentId of ['static-shortest-path-v1', 'fire-aware-shortest-path-v1', 'congestion-aware-v1']) {
    const factory = baselineFactory(agentId)!;
    let personSteps = 0;
    let text = '';
    let scenario = fresh();
    const simulate = await timeIt(async () => {
      scenario = fresh();
      const run = await runEpisode(prepareEpisode(scenario, '0'), await factory());
      text = recordText(run.record);
      personSteps = run.record.trajectory.reduce((n, step) => n + step.actions.length, 0);
    }, 15, 10);
    const record = JSON.parse(text) as RunRecord;
    const warmReplay = await timeIt(() => replayRecord(scenario, record), 15, 10);
    const coldReplay = await timeIt(() => replayRecord(fresh(), record), 15, 10);
    const rate = personSteps / (simulate + warmReplay);
    figures.push(
      { name: `large hall, ${agentId}: person-steps per episode`, value: personSteps, unit: '' },
      { name: `large hall, ${agentId}: simulation (agent included) + replay`, value: rate, unit: 'person-steps/s', goal: '>= 1,000,000', ok: rate >= 1e6 },
      { name: `large hall, ${agentId}: cold replay / simulation cost`, value: coldReplay / simulate, unit: 'x', goal: '<= 1.5', ok: coldReplay / simulate <= 1.5 },
      { name: `large hall, ${agentId}: run record size`, value: text.length / personSteps, unit: 'bytes/person-step', goal: '<= 8', ok: text.length / personSteps <= 8 },
    );
  }
  return figures;
}
