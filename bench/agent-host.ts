/**
 * The agent hosts' round trip per step (issue 8), in CPU time of both
 * processes: the evaluator (process.cpuUsage, over the same episodes run
 * in process) and the agent process (utime + stime from /proc/<pid>/stat,
 * Linux only; the agent's own act is included, and is tiny: everyone stays).
 * The large hall with its 500 people, always-stay agents:
 *
 * - module host: what the runner does (ACT_ON_VIEW: deltas over IPC, digits back);
 * - line protocol (python3), delta observations (opted in; docs/agents.md);
 * - line protocol (python3), full observations (the default; the Python
 *   agent's figure is its own parsing of full lines, so it carries no goal);
 * - for reference, both hosts driven through act(observation) as before
 *   issue 8 (the observation object, JSON over the channel, the action set
 *   object checked in the evaluator).
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baselineFactory } from '../src/core/baselines/registry.js';
import type { Agent } from '../src/core/sim/agent.js';
import { runEpisode } from '../src/core/sim/runner.js';
import { prepareEpisode } from '../src/core/world/episode-start.js';
import { parseScenarioText } from '../src/core/world/scenario.js';
import { openCommandAgentFactory } from '../src/node/agents/command-agent.js';
import { openModuleAgentFactory } from '../src/node/agents/module-agent.js';
import type { AgentSession } from '../src/node/agents/spec.js';
import { defaultEntryPoints } from '../src/node/entry-points.js';
import { type Figure, LARGE_HALL, ROOT } from './harness.js';

const GOAL_US = 200;
const EPISODES = 6;

/** CPU seconds (user + system) of a live process, from /proc; NaN where there is no /proc. */
function processCpu(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return Number.NaN;
  }
}

function selfCpu(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1e6;
}

/** The agent's process CPU from after its first act to its close, summed over episodes. */
class AgentClock {
  cpu = 0;
  steps = 0;

  wrap(agent: Agent, viaView: boolean): Agent {
    const pid = (agent as { pid?: number }).pid;
    let from = Number.NaN;
    const wrapped: Agent = {
      act: async (observation) => {
        const out = await agent.act(observation);
        if (Number.isNaN(from)) from = processCpu(pid);
        else this.steps++;
        return out;
      },
      close: async () => {
        this.cpu += processCpu(pid) - from;
        await agent.close?.();
      },
    };
    if (!viaView) return wrapped;
    // Keep the view method (the runner's path), timing around it the same way.
    const symbols = Object.getOwnPropertySymbols(Object.getPrototypeOf(agent) as object);
    for (const symbol of symbols) {
      const method = (agent as unknown as Record<symbol, (...args: unknown[]) => Promise<unknown>>)[symbol]!;
      (wrapped as unknown as Record<symbol, unknown>)[symbol] = async (...args: unknown[]) => {
        const out = await method.apply(agent, args);
        if (Number.isNaN(from)) from = processCpu(pid);
        else this.steps++;
        return out;
      };
    }
    return wrapped;
  }
}

interface Cost {
  readonly evaluator: number;
  readonly agent: number;
}

/** Evaluator CPU seconds per step of `EPISODES` episodes, and the agent process's. */
async function perStep(make: () => Promise<Agent>, clock: AgentClock | null): Promise<{ evaluator: number; agent: number }> {
  const scenario = parseScenarioText(readFileSync(LARGE_HALL, 'utf8'), LARGE_HALL);
  let steps = 0;
  const start = selfCpu();
  for (let e = 0; e < EPISODES; e++) {
    const run = await runEpisode(prepareEpisode(scenario, String(e)), await make());
    steps += run.record.steps;
  }
  const evaluator = (selfCpu() - start) / steps;
  return { evaluator, agent: clock === null ? 0 : clock.cpu / clock.steps };
}

async function measure(session: AgentSession, viaView: boolean, inProcess: number): Promise<Cost> {
  try {
    const warm = new AgentClock();
    await perStep(async () => warm.wrap(await session.factory(), viaView), warm);
    const clock = new AgentClock();
    const cost = await perStep(async () => clock.wrap(await session.factory(), viaView), clock);
    return { evaluator: cost.evaluator - inProcess, agent: cost.agent };
  } finally {
    await session.close();
  }
}

/** The two figures of a host; `goals` says which carry the goal (the others are references). */
function figures(label: string, cost: Cost, goals: { evaluator: boolean; agent: boolean }): Figure[] {
  const figure = (name: string, us: number, withGoal: boolean): Figure =>
    withGoal ? { name, value: us, unit: 'us', goal: `< ${GOAL_US}`, ok: us < GOAL_US } : { name, value: us, unit: 'us' };
  return [
    figure(`${label}: evaluator CPU per step (over in process)`, cost.evaluator * 1e6, goals.evaluator),
    figure(`${label}: agent process CPU per step`, cost.agent * 1e6, goals.agent),
  ];
}

const BOTH = { evaluator: true, agent: true };
const NEITHER = { evaluator: false, agent: false };

export async function benchAgentHost(): Promise<Figure[]> {
  const options = { actTimeoutMs: 30_000, hostEntry: defaultEntryPoints().moduleHost };
  const stay = baselineFactory('always-stay')!;
  await perStep(async () => stay(), null);
  const inProcess = (await perStep(async () => stay(), null)).evaluator;
  const moduleFile = join(ROOT, 'bench/agents/stay.mjs');
  const python = ['python3', join(ROOT, 'bench/agents/stay_agent.py')];
  const out: Figure[] = [{ name: 'large hall (500 people), always-stay in process: evaluator CPU per step', value: inProcess * 1e6, unit: 'us' }];
  const module = (): Promise<AgentSession> => openModuleAgentFactory(moduleFile, 'makeAgent', options);
  out.push(...figures('module host', await measure(await module(), true, inProcess), BOTH));
  out.push(...figures('module host, act path (JSON observations, the path before issue 8)', await measure(await module(), false, inProcess), NEITHER));
  const pythonDelta = ['python3', join(ROOT, 'bench/agents/stay_delta_agent.py')];
  const command = (argv: string[]): Promise<AgentSession> => openCommandAgentFactory(argv, options);
  out.push(...figures('line protocol (python3), delta observations (opted in)', await measure(await command(pythonDelta), true, inProcess), BOTH));
  // The agent's figure here is Python parsing a full observation each step: what opting in saves.
  out.push(...figures('line protocol (python3), full observations (the default)', await measure(await command(python), true, inProcess), { evaluator: true, agent: false }));
  out.push(...figures('line protocol (python3), act path (the path before issue 8)', await measure(await command(python), false, inProcess), NEITHER));
  return out;
}
