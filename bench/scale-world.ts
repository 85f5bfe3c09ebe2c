/**
 * Issue 8's goals on the largest crowd of the stress suite: the large hall
 * of scenarios/generated/stress.json (batch seed 1): 256 x 256 cells, 10,000
 * people, four one-cell doors, up to 1,000 steps; episode seed 0. Per agent:
 * the simulation (prepare, run, record text) and the warm replay of its
 * record, in person-steps per CPU second. An episode here is 8 M
 * person-steps, so one untimed episode warms the JIT and the median of
 * three timed ones is reported.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baselineFactory } from '../src/core/baselines/registry.js';
import { parseGeneratorConfigText } from '../src/core/generate/config.js';
import { generateBatch } from '../src/core/generate/generate.js';
import { asciiText } from '../src/core/ascii-text.js';
import { recordBytes, type RunRecord } from '../src/core/sim/record.js';
import { replayRecord } from '../src/core/sim/authenticate-record.js';
import { runEpisode } from '../src/core/sim/episode.js';
import { prepareEpisode } from '../src/core/world/episode-start.js';
import type { Scenario } from '../src/core/world/scenario-types.js';
import { SIMULATION_GOAL, WARM_REPLAY_GOAL, rateFigures } from './goals.js';
import { timeCpu, type Timing } from './cpu-time.js';
import { ROOT, type Figure } from './harness.js';

const STRESS_CONFIG = join(ROOT, 'scenarios', 'generated', 'stress.json');
const FAMILY = 'large_hall_crowd';
const AGENTS = ['static-shortest-path-v1', 'congestion-aware-v1'];

function stressHall(): Scenario {
  const config = parseGeneratorConfigText(readFileSync(STRESS_CONFIG, 'utf8'), STRESS_CONFIG);
  const generated = generateBatch(config, '1').scenarios.find((s) => s.family === FAMILY);
  if (generated === undefined) throw new Error(`${STRESS_CONFIG} has no ${FAMILY} family`);
  return generated.scenario;
}

/**
 * The simulation of episode seed 0 (prepared from a fresh copy of `world`
 * each run, so its fire world is computed afresh; run; record text) and the
 * warm replay of its record, each the median of `runs` after `warmups`.
 */
export async function simulateAndReplay(world: Scenario, agentId: string, runs: number, warmups: number): Promise<{ personSteps: number; simulate: Timing; warmReplay: Timing }> {
  const factory = baselineFactory(agentId)!;
  let scenario: Scenario = { ...world };
  let bytes: Uint8Array = new Uint8Array(0);
  let personSteps = 0;
  const simulate = await timeCpu(
    async () => {
      scenario = { ...world };
      const run = await runEpisode(prepareEpisode(scenario, '0'), await factory());
      bytes = recordBytes(run.record);
      personSteps = run.record.trajectory.reduce((n, step) => n + step.actions.length, 0);
    },
    runs,
    warmups,
  );
  const record = JSON.parse(asciiText(bytes)) as RunRecord;
  bytes = new Uint8Array(0);
  const warmReplay = await timeCpu(() => replayRecord(scenario, record), runs, warmups);
  return { personSteps, simulate, warmReplay };
}

export async function scaleWorld(): Promise<Figure[]> {
  const hall = stressHall();
  const figures: Figure[] = [];
  for (const agentId of AGENTS) {
    const { personSteps, simulate, warmReplay } = await simulateAndReplay(hall, agentId, 3, 1);
    const label = `256 x 256, 10,000 people, ${agentId}`;
    figures.push(
      { name: `${label}: person-steps per episode`, value: personSteps, unit: '' },
      ...rateFigures(`${label}: simulation`, personSteps, simulate, SIMULATION_GOAL[agentId]),
      ...rateFigures(`${label}: warm replay`, personSteps, warmReplay, WARM_REPLAY_GOAL),
    );
  }
  return figures;
}
