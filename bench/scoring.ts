/**
 * Benchmark figures of the EMBER Score (issue "The EMBER Score"): privileged
 * references plus capacity bounds of the large hall against the cost of
 * simulating it; `score` with 2000 resamples over 30 episodes (the public
 * suite, seeds 0 1 2) and over 3,000 episodes (that evidence replicated
 * into 1,000 scenarios, so the aggregation and the bootstrap see 3,000).
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baselineFactory } from '../src/core/baselines/registry.js';
import { authenticateResult } from '../src/core/eval/authenticate.js';
import { buildManifest, manifestHash } from '../src/core/eval/manifest.js';
import { buildResult, resultText } from '../src/core/eval/result.js';
import { capacityBounds } from '../src/core/scoring/capacity-bounds.js';
import { computeReferences } from '../src/core/scoring/references.js';
import { aggregateScoreReport, buildScoreReport } from '../src/core/scoring/report.js';
import { EVACUATED } from '../src/core/sim/events.js';
import { runEpisode } from '../src/core/sim/episode.js';
import { prepareEpisode } from '../src/core/world/episode-start.js';
import { parseScenarioText } from '../src/core/world/scenario.js';
import { evaluateEpisode } from '../src/node/eval/evaluate-episode.js';
import { loadSuiteDir } from '../src/node/inputs.js';
import { scoreResults } from '../src/node/workflows/score.js';
import { timeCpu } from './cpu-time.js';
import { type Figure, LARGE_HALL, PUBLIC_SUITE, ROOT } from './harness.js';
import { STRESS_HORIZON, STRESS_PEOPLE, STRESS_SIDE, stressScenario } from './references-stress.js';
import { writeStressHallSuite } from './stress-hall-suite.js';

async function referencesVersusSimulation(): Promise<Figure[]> {
  const scenario = parseScenarioText(readFileSync(LARGE_HALL, 'utf8'), LARGE_HALL);
  const start = prepareEpisode(scenario, '0');
  const factory = baselineFactory('fire-aware-shortest-path-v1')!;
  let evacuees: number[] = [];
  const simulate = await timeCpu(async () => {
    const run = await runEpisode(start, await factory());
    evacuees = [];
    run.outcome.status.forEach((s, i) => s === EVACUATED && evacuees.push(i));
  }, 15, 10);
  const references = await timeCpu(() => {
    const refs = computeReferences(scenario.grid, start.fire, start.startCells);
    capacityBounds(scenario.grid, start.fire, refs, evacuees);
  }, 15, 10);
  const ratio = references.cpu / simulate.cpu;
  return [
    { name: 'large hall: simulate with fire-aware-shortest-path-v1, CPU / wall', value: simulate.cpu * 1000, unit: `ms / ${(simulate.wall * 1000).toFixed(1)} ms` },
    { name: 'large hall: references + capacity bounds (Q_exit, Q_cut), CPU / wall', value: references.cpu * 1000, unit: `ms / ${(references.wall * 1000).toFixed(1)} ms` },
    { name: 'large hall: references + bounds / simulation (CPU)', value: ratio, unit: 'x', goal: '<= 2', ok: ratio <= 2 },
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
  const score30 = await timeCpu(() => (report = buildScoreReport({ suite, trials: [trial], target: { kind: 'suite' } })), 3, 1);
  const withAuth = await timeCpu(() => {
    const t = authenticateResult(text, 'bench result', suite, { requireComplete: true });
    buildScoreReport({ suite, trials: [t], target: { kind: 'suite' } });
  }, 3, 1);

  // 3,000 episodes: the 30 episodes' evidence copied into 100 scenarios per original scenario.
  const copies = 100;
  const large: (typeof report.episodes)[number][] = [];
  for (let c = 0; c < copies; c++) {
    for (const e of report.episodes) large.push({ ...e, index: large.length, scenario_id: `${e.scenario_id}-${c}` });
  }
  const header = { ...report, trials: report.trials };
  const score3000 = await timeCpu(() => aggregateScoreReport(header, large), 3, 1);
  const seconds = (t: { cpu: number; wall: number }) => `s CPU / ${t.wall.toPrecision(3)} s wall`;
  return [
    { name: 'score, 30 episodes, 2000 resamples: evaluate episodes + aggregate + interval', value: score30.cpu, unit: seconds(score30) },
    { name: 'score, 30 episodes, 2000 resamples, with authentication of the result', value: withAuth.cpu, unit: seconds(withAuth) },
    {
      name: 'score, 3,000 episodes, 2000 resamples: aggregate + interval',
      value: score3000.cpu,
      unit: seconds(score3000),
      goal: '< 0.5 s CPU (issue 8, statistics)',
      ok: score3000.cpu < 0.5,
    },
  ];
}

/**
 * The largest legal scenario (references-stress.ts): CPU and wall time of
 * references + both bounds beside the simulation of the same episode with
 * fire-aware-shortest-path-v1 (whose evacuees the bounds take), and the
 * peak resident memory of a process that computes only the references and
 * bounds (the dense table of before would need (H + 1) x cells x 4 bytes).
 */
async function stressFigures(): Promise<Figure[]> {
  const scenario = stressScenario();
  const start = prepareEpisode(scenario, '0');
  const factory = baselineFactory('fire-aware-shortest-path-v1')!;
  let evacuees: number[] = [];
  const simulate = await timeCpu(async () => {
    // A copy is a new cache key: prepareEpisode computes the fire world afresh, as `episode run` does.
    const run = await runEpisode(prepareEpisode({ ...scenario }, '0'), await factory());
    evacuees = [];
    run.outcome.status.forEach((s, i) => s === EVACUATED && evacuees.push(i));
  }, 3, 1);
  const references = await timeCpu(() => {
    const refs = computeReferences(scenario.grid, start.fire, start.startCells);
    capacityBounds(scenario.grid, start.fire, refs, evacuees);
  }, 3, 1);
  const dir = mkdtempSync(join(tmpdir(), 'ember-bench-'));
  let peak = { maxRssMiB: Number.NaN, rssBeforeMiB: Number.NaN, tableBytes: Number.NaN };
  try {
    writeFileSync(join(dir, 'evacuees.json'), JSON.stringify(evacuees));
    const child = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/references-stress.ts'), join(dir, 'evacuees.json')], { cwd: ROOT, encoding: 'utf8' });
    if (child.status === 0) peak = JSON.parse(child.stdout) as typeof peak;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const cells = STRESS_SIDE * STRESS_SIDE;
  const denseMiB = ((STRESS_HORIZON + 1) * cells * 4) / 2 ** 20;
  const what = `${STRESS_SIDE} x ${STRESS_SIDE}, H = ${STRESS_HORIZON.toLocaleString('en-US')}, ${STRESS_PEOPLE.toLocaleString('en-US')} people`;
  return [
    { name: `${what}: simulate with fire-aware-shortest-path-v1 (${evacuees.length} evacuated), CPU / wall`, value: simulate.cpu * 1000, unit: `ms / ${(simulate.wall * 1000).toFixed(0)} ms` },
    {
      name: `${what}: references + capacity bounds, CPU / wall`,
      value: references.cpu * 1000,
      unit: `ms / ${(references.wall * 1000).toFixed(0)} ms`,
      goal: '<= the simulation (CPU)',
      ok: references.cpu <= simulate.cpu,
    },
    { name: `${what}: the dense L table of before (not built)`, value: denseMiB, unit: 'MiB' },
    { name: `${what}: L table as runs`, value: peak.tableBytes / 2 ** 20, unit: 'MiB' },
    { name: `${what}: peak resident memory of a process computing references + bounds`, value: peak.maxRssMiB, unit: 'MiB', goal: '< 256 MiB', ok: peak.maxRssMiB < 256 },
    { name: `${what}: of which resident before the references (Node, scenario, fire world)`, value: peak.rssBeforeMiB, unit: 'MiB' },
  ];
}

/**
 * A large result: 8 episodes of 2,500 people x 2,000 steps of the stress
 * generator's large hall (about 70 MiB), authenticated alone (what
 * `evaluation verify` does) and scored (authenticated, every episode's
 * references, route events and evidence, the report). Route events were
 * the bulk of scoring (a search of the whole grid at every step the fire
 * changed) until their distance field was repaired instead.
 */
async function largeResultFigures(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ember-bench-score-'));
  try {
    const suiteDir = join(dir, 'suite');
    writeStressHallSuite(suiteDir, 'bench-score', { people: 2500, steps: 2000, scenarios: 4 });
    const suite = loadSuiteDir(suiteDir);
    const manifest = buildManifest(suite, ['0', '1']);
    const factory = baselineFactory('always-stay')!;
    const scenarios = new Map(suite.entries.map((e) => [e.scenarioId, e.scenario]));
    const episodes = [];
    for (const job of manifest.episodes) episodes.push((await evaluateEpisode(factory, scenarios.get(job.scenario_id)!, job)).episode);
    const text = resultText(buildResult(manifest, manifestHash(manifest), 'bench', episodes, []));
    const verify = await timeCpu(() => authenticateResult(text, 'result', suite), 1, 0);
    const score = await timeCpu(() => scoreResults({ suite, pack: null, results: [{ text, source: 'result' }] }), 1, 0);
    const what = `score of a ${(Buffer.byteLength(text) / 2 ** 20).toFixed(0)} MiB result (8 episodes of 2,500 people x 2,000 steps)`;
    return [
      { name: `${what}: authentication alone, CPU / wall`, value: verify.cpu, unit: `s / ${verify.wall.toFixed(1)} s` },
      { name: `${what}: the whole score, CPU / wall`, value: score.cpu, unit: `s / ${score.wall.toFixed(1)} s` },
      { name: `${what}: score / authentication (CPU)`, value: score.cpu / verify.cpu, unit: 'x' },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchScoring(): Promise<Figure[]> {
  return [...(await referencesVersusSimulation()), ...(await stressFigures()), ...(await scoreFigures()), ...(await largeResultFigures())];
}
