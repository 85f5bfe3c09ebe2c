/**
 * Benchmark figures of evaluations (issue "Evaluations"): the whole public
 * suite with seeds 0, 1, 2 evaluated and verified with congestion-aware-v1,
 * and the time per episode spent outside the agent; the round trip per step
 * of the module host and the line-protocol host (agent-host.ts).
 */

import { baselineFactory } from '../src/core/baselines/registry.js';
import { authenticateResult } from '../src/core/eval/authenticate.js';
import { buildManifest, manifestHash } from '../src/core/eval/manifest.js';
import { buildResult, resultText } from '../src/core/eval/result.js';
import type { Agent } from '../src/core/sim/agent.js';
import { evaluateEpisode } from '../src/node/eval/evaluate-episode.js';
import { loadSuiteDir } from '../src/node/inputs.js';
import { benchAgentHost } from './agent-host.js';
import { benchSandboxStart } from './sandbox-start.js';
import { benchStatistics } from './statistics.js';
import { type Figure, PUBLIC_SUITE } from './harness.js';

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

export async function benchEvaluation(): Promise<Figure[]> {
  return [...(await publicSuiteEvaluation()), ...(await benchAgentHost()), ...(await benchSandboxStart()), ...(await benchStatistics())];
}
