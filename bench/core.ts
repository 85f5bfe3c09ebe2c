/**
 * Benchmark figures of the benchmark core (issue "Benchmark core"):
 * simulation plus replay of the large hall with a baseline, in person-steps
 * per second on one core; replay cost relative to simulation; run record
 * bytes per person-step.
 */

import { readFileSync } from 'node:fs';
import { baselineFactory } from '../src/core/baselines/registry.js';
import { recordText } from '../src/core/sim/record.js';
import { replayRecord } from '../src/core/sim/replay.js';
import { runEpisode } from '../src/core/sim/runner.js';
import { prepareEpisode } from '../src/core/world/episode-start.js';
import { parseScenarioText } from '../src/core/world/scenario.js';
import { type Figure, LARGE_HALL, timeIt } from './harness.js';

export async function benchCore(): Promise<Figure[]> {
  const scenario = parseScenarioText(readFileSync(LARGE_HALL, 'utf8'), LARGE_HALL);
  const figures: Figure[] = [];
  for (const agentId of ['fire-aware-shortest-path-v1', 'congestion-aware-v1']) {
    const start = prepareEpisode(scenario, '0');
    const factory = baselineFactory(agentId)!;
    let personSteps = 0;
    let text = '';
    const simulate = await timeIt(async () => {
      const run = await runEpisode(start, await factory());
      text = recordText(run.record);
      personSteps = run.record.trajectory.reduce((n, step) => n + step.actions.length, 0);
    });
    const record = JSON.parse(text);
    const replay = await timeIt(() => replayRecord(scenario, record));
    const seconds = simulate + replay;
    figures.push(
      { name: `large hall, ${agentId}: person-steps per episode`, value: personSteps, unit: '' },
      { name: `large hall, ${agentId}: simulation (agent included) + replay`, value: personSteps / seconds, unit: 'person-steps/s', goal: '>= 1,000,000' , ok: personSteps / seconds >= 1e6 },
      { name: `large hall, ${agentId}: replay / simulation cost`, value: replay / simulate, unit: 'x', goal: '<= 1.5', ok: replay / simulate <= 1.5 },
      { name: `large hall, ${agentId}: run record size`, value: text.length / personSteps, unit: 'bytes/person-step', goal: '<= 8', ok: text.length / personSteps <= 8 },
    );
  }
  return figures;
}
