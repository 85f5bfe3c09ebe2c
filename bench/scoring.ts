/**
 * Benchmark figures of the EMBER Score (issue "The EMBER Score"): privileged
 * references plus capacity bounds of the large hall against the cost of
 * simulating it; `score` with 2000 resamples over 30 episodes (the public
 * suite, seeds 0 1 2) and over 3,000 episodes (that evidence replicated
 * into 1,000 scenarios, so the aggregation and the bootstrap see 3,000).
 */

import { readFileSync } from 'node:fs';
import { baselineFactory } from '../src/core/baselines/registry.js';
import { authenticateResult } from '../src/core/eval/authenticate.js';
import { buildManifest, manifestHash } from '../src/core/eval/manifest.js';
import { buildResult, resultText } from '../src/core/eval/result.js';
import { capacityBounds } from '../src/core/scoring/capacity-bounds.js';
import { computeReferences } from '../src/core/scoring/references.js';
import { aggregateScoreReport, buildScoreReport } from '../src/core/scoring/report.js';
import { EVACUATED } from '../src/core/sim/events.js';
import { runEpisode } from '../src/core/sim/runner.js';
import { prepareEpisode } from '../src/core/world/episode-start.js';
import { parseScenarioText } from '../src/core/world/scenario.js';
import { evaluateEpisode } from '../src/node/eval/evaluate-episode.js';
import { loadSuiteDir } from '../src/node/inputs.js';
import { type Figure, LARGE_HALL, PUBLIC_SUITE, timeIt } from './harness.js';

async function referencesVersusSimulation(): Promise<Figure[]> {
  const scenario = parseScenarioText(readFileSync(LARGE_HALL, 'utf8'), LARGE_HALL);
  const start = prepareEpisode(scenario, '0');
  const factory = baselineFactory('fire-aware-shortest-path-v1')!;
  let evacuees: number[] = [];
  const simulate = await timeIt(async () => {
    const run = await runEpisode(start, await factory());
    evacuees = [];
    run.outcome.status.forEach((s, i) => s === EVACUATED && evacuees.push(i));
  });
  const references = await timeIt(() => {
    const refs = computeReferences(scenario.grid, start.fire, start.startCells);
    capacityBounds(scenario.grid, start.fire, refs, evacuees);
  });
  return [
    { name: 'large hall: simulate with fire-aware-shortest-path-v1', value: simulate * 1000, unit: 'ms' },
    { name: 'large hall: references + capacity bounds (Q_exit, Q_cut)', value: references * 1000, unit: 'ms' },
    { name: 'large hall: references + bounds / simulation', value: references / simulate, unit: 'x', goal: '<= 2', ok: references / simulate <= 2 },
  ];
}

async function scoreFigures(): Promise<Figure[]> {
  const suite = loadSuiteDir(PUBLIC_SUITE);
  const manifest = buildManifest(suite, ['0', '1', '2']);
  const scenarios = new Map(suite.entries.map((e) => [e.scenarioId, e.scenario]));
  const factory = baselineFactory('congestion-aware-v1')!;
  const episodes = [];
  for (const ep of manifest.episodes) {
    episodes.push((await evaluateEpisode(factory, scenarios.get(ep.scenario_id)!, ep)).episode);
  }
  const text = resultText(buildResult(manifest, manifestHash(manifest), 'congestion-aware-v1', episodes, []));
  const trial = authenticateResult(text, 'bench result', suite, { requireComplete: true });
  let report = buildScoreReport({ suite, trials: [trial], target: { kind: 'suite' } });
  const score30 = await timeIt(() => (report = buildScoreReport({ suite, trials: [trial], target: { kind: 'suite' } })), 3);
  const withAuth = await timeIt(() => {
    const t = authenticateResult(text, 'bench result', suite, { requireComplete: true });
    buildScoreReport({ suite, trials: [t], target: { kind: 'suite' } });
  }, 3);

  // 3,000 episodes: the 30 episodes' evidence copied into 100 scenarios per original scenario.
  const copies = 100;
  const large = [];
  for (let c = 0; c < copies; c++) {
    for (const e of report.episodes) large.push({ ...e, index: large.length, scenario_id: `${e.scenario_id}-${c}` });
  }
  const header = { ...report, trials: report.trials };
  const start = process.hrtime.bigint();
  aggregateScoreReport(header, large);
  const score3000 = Number(process.hrtime.bigint() - start) / 1e9;
  return [
    { name: 'score, 30 episodes, 2000 resamples: evaluate episodes + aggregate + interval', value: score30, unit: 's' },
    { name: 'score, 30 episodes, 2000 resamples, with authentication of the result', value: withAuth, unit: 's' },
    { name: 'score, 3,000 episodes, 2000 resamples: aggregate + interval', value: score3000, unit: 's' },
  ];
}

export async function benchScoring(): Promise<Figure[]> {
  return [...(await referencesVersusSimulation()), ...(await scoreFigures())];
}
