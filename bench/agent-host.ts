/**
 * The agent hosts' round trip per step (issue 8), in CPU time of both
 * processes: the evaluator (process.cpuUsage, over the same episodes run
 * in process) and the agent process (its threads' run time from /proc,
 * Linux only; the agent's own act is included, and is tiny: everyone stays).
 * Both are counted from the end of an episode's first act to its close: the
 * round trip of a step, without starting the process and its first, full
 * observation (a cost per episode, printed apart for the evaluator).
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

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baselineFactory } from '../src/core/baselines/registry.js';
import type { Agent } from '../src/core/sim/agent.js';
import { runEpisode } from '../src/core/sim/episode.js';
import { prepareEpisode } from '../src/core/world/episode-start.js';
import { parseScenarioText } from '../src/core/world/scenario.js';
import { openCommandAgentFactory } from '../src/node/agents/command-agent.js';
import { openModuleAgentFactory } from '../src/node/agents/module-agent.js';
import type { AgentSession } from '../src/node/agents/spec.js';
import { defaultEntryPoints } from '../src/node/entry-points.js';
import { type Figure, LARGE_HALL, ROOT } from './harness.js';

const GOAL_US = 200;
const EPISODES = 6;

/**
 * CPU seconds of a live process, from /proc: the nanosecond run time of each
 * of its threads (task/<tid>/schedstat), whose sum is exact where the
 * utime + stime of /proc/<pid>/stat count 10 ms ticks (a step here costs a
 * few hundred microseconds); that sum, the fallback, where schedstat is
 * missing; NaN where there is no /proc.
 */
function processCpu(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    if (Number.isFinite(ns)) return ns / 1e9;
  } catch {
    // No schedstat (or the process is gone): the tick counts below.
  }
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

/** The agent process's CPU and the evaluator's from after an episode's first act to its close, summed over episodes. */
class AgentClock {
  cpu = 0;
  evaluatorCpu = 0;
  steps = 0;

  wrap(agent: Agent, viaView: boolean): Agent {
    const pid = (agent as { pid?: number }).pid;
    let first = true;
    let from = Number.NaN;
    let evaluatorFrom = 0;
    const acted = (): void => {
      if (!first) {
        this.steps++;
        return;
      }
      first = false;
      // An agent in process has no pid: its agent figure stays NaN, unused.
      from = processCpu(pid);
      evaluatorFrom = selfCpu();
    };
    const wrapped: Agent = {
      act: async (observation) => {
        const out = await agent.act(observation);
        acted();
        return out;
      },
      close: async () => {
        this.evaluatorCpu += selfCpu() - evaluatorFrom;
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
        acted();
        return out;
      };
    }
    return wrapped;
  }
}

interface Cost {
  /** Per step, after the first act. */
  readonly evaluator: number;
  readonly agent: number;
  /** Evaluator CPU seconds per episode outside those steps: starting the agent, its first observation, closing. */
  readonly perEpisode: number;
}

/** CPU seconds of `EPISODES` episodes, each agent timed by a clock: per step after the first act, and per episode. */
async function perStep(make: () => Agent | Promise<Agent>, viaView: boolean): Promise<Cost> {
  const scenario = parseScenarioText(readFileSync(LARGE_HALL, 'utf8'), LARGE_HALL);
  const clock = new AgentClock();
  const start = selfCpu();
  for (let e = 0; e < EPISODES; e++) await runEpisode(prepareEpisode(scenario, String(e)), clock.wrap(await make(), viaView));
  const total = selfCpu() - start;
  return { evaluator: clock.evaluatorCpu / clock.steps, agent: clock.cpu / clock.steps, perEpisode: (total - clock.evaluatorCpu) / EPISODES };
}

/** A host's costs over the same episodes run in process (`inProcess`); a first pass warms up. */
async function measure(session: AgentSession, viaView: boolean, inProcess: Cost): Promise<Cost> {
  try {
    await perStep(() => session.factory(), viaView);
    const cost = await perStep(() => session.factory(), viaView);
    return { evaluator: cost.evaluator - inProcess.evaluator, agent: cost.agent, perEpisode: cost.perEpisode - inProcess.perEpisode };
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
    { name: `${label}: evaluator CPU per episode to start the agent and send its first observation (over in process)`, value: cost.perEpisode * 1e3, unit: 'ms' },
  ];
}

const BOTH = { evaluator: true, agent: true };
const NEITHER = { evaluator: false, agent: false };

export async function benchAgentHost(): Promise<Figure[]> {
  const options = { actTimeoutMs: 30_000, hostEntry: defaultEntryPoints().moduleHost };
  const stay = baselineFactory('always-stay')!;
  await perStep(async () => stay(), true);
  const inProcess = await perStep(async () => stay(), true);
  const moduleFile = join(ROOT, 'bench/agents/stay.mjs');
  const python = ['python3', join(ROOT, 'bench/agents/stay_agent.py')];
  const out: Figure[] = [{ name: 'large hall (500 people), always-stay in process: evaluator CPU per step', value: inProcess.evaluator * 1e6, unit: 'us' }];
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
