/**
 * Benchmark figures of evaluations (issue "Evaluations"): the whole public
 * suite with seeds 0, 1, 2 evaluated and verified with congestion-aware-v1,
 * and the time per episode spent outside the agent; the round-trip overhead
 * per step of the module host and the line-protocol host.
 */

import { join } from 'node:path';
import { baselineFactory } from '../src/core/baselines/registry.js';
import { authenticateResult } from '../src/core/eval/authenticate.js';
import { buildManifest, manifestHash } from '../src/core/eval/manifest.js';
import { buildResult, resultText } from '../src/core/eval/result.js';
import type { Agent } from '../src/core/sim/agent.js';
import { runEpisode } from '../src/core/sim/runner.js';
import { prepareEpisode } from '../src/core/world/episode-start.js';
import { openCommandAgentFactory } from '../src/node/agents/command-agent.js';
import { openModuleAgentFactory } from '../src/node/agents/module-agent.js';
import type { AgentSession } from '../src/node/agents/spec.js';
import { defaultEntryPoints } from '../src/node/entry-points.js';
import { evaluateEpisode } from '../src/node/eval/evaluate-episode.js';
import { loadSuiteDir } from '../src/node/inputs.js';
import { benchStatistics } from './statistics.js';
import { type Figure, LARGE_HALL, PUBLIC_SUITE, ROOT } from './harness.js';
import { readFileSync } from 'node:fs';
import { parseScenarioText } from '../src/core/world/scenario.js';

function now(): number {
  return Number(process.hrtime.bigint()) / 1e9;
}

/** Wraps an agent so the time spent inside act is added to `clock.agent`. */
function timed(agent: Agent, clock: { agent: number }): Agent {
  return {
    act(observation) {
      const start = now();
      const out = agent.act(observation);
      clock.agent += now() - start;
      return out;
    },
  };
}

async function publicSuiteEvaluation(): Promise<Figure[]> {
  const suite = loadSuiteDir(PUBLIC_SUITE);
  const manifest = buildManifest(suite, ['0', '1', '2']);
  const scenarios = new Map(suite.entries.map((e) => [e.scenarioId, e.scenario]));
  const factory = baselineFactory('congestion-aware-v1')!;
  const clock = { agent: 0 };
  const started = now();
  const episodes = [];
  for (const ep of manifest.episodes) {
    // What the runner does: a fresh agent, the episode, the replay check and the metrics from the replay.
    const evaluated = await evaluateEpisode(async () => timed(await factory(), clock), scenarios.get(ep.scenario_id)!, ep);
    episodes.push(evaluated.episode);
  }
  const text = resultText(buildResult(manifest, manifestHash(manifest), 'congestion-aware-v1', episodes, []));
  const evaluated = now() - started;
  const verifyStart = now();
  authenticateResult(text, 'bench result', suite, { requireComplete: true });
  const verified = now() - verifyStart;
  const n = manifest.episodes.length;
  return [
    { name: `public suite, seeds 0 1 2 (${n} episodes), congestion-aware-v1: evaluate`, value: evaluated, unit: 's' },
    { name: 'public suite: verify (authenticate the whole result)', value: verified, unit: 's' },
    { name: 'public suite: time per episode in the agent', value: (clock.agent / n) * 1000, unit: 'ms' },
    { name: 'public suite: time per episode outside the agent (simulate, record, replay, metrics, verify)', value: ((evaluated - clock.agent + verified) / n) * 1000, unit: 'ms' },
  ];
}

/** Runs `episodes` always-stay episodes of the large hall through a session; returns seconds per step. */
async function perStep(session: AgentSession | null, episodes: number): Promise<number> {
  const scenario = parseScenarioText(readFileSync(LARGE_HALL, 'utf8'), LARGE_HALL);
  let steps = 0;
  const start = now();
  for (let e = 0; e < episodes; e++) {
    const agent = session ? await session.factory() : await baselineFactory('always-stay')!();
    const run = await runEpisode(prepareEpisode(scenario, String(e)), agent);
    steps += run.record.steps;
  }
  return (now() - start) / steps;
}

async function hostOverhead(): Promise<Figure[]> {
  const options = { actTimeoutMs: 30_000, hostEntry: defaultEntryPoints().moduleHost };
  const inProcess = await perStep(null, 3);
  const moduleSession = await openModuleAgentFactory(join(ROOT, 'bench/agents/stay.mjs'), 'makeAgent', options);
  let module: number;
  try {
    await perStep(moduleSession, 1); // warm the host
    module = await perStep(moduleSession, 3);
  } finally {
    await moduleSession.close();
  }
  const commandSession = await openCommandAgentFactory(['python3', join(ROOT, 'bench/agents/stay_agent.py')], options);
  let command: number;
  try {
    command = await perStep(commandSession, 3);
  } finally {
    await commandSession.close();
  }
  return [
    { name: 'large hall (500 people), always-stay in process: time per step', value: inProcess * 1e6, unit: 'us' },
    { name: 'module host round trip per step (over in process)', value: (module - inProcess) * 1e6, unit: 'us' },
    { name: 'line-protocol host (python3) round trip per step (over in process)', value: (command - inProcess) * 1e6, unit: 'us' },
  ];
}

export async function benchEvaluation(): Promise<Figure[]> {
  return [...(await publicSuiteEvaluation()), ...(await hostOverhead()), ...(await benchStatistics())];
}
