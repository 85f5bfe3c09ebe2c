/**
 * The sandbox's start cost per episode (issue 19), in wall time, median of
 * a few episodes:
 *
 * - a command agent (the system Python, which answers one observation):
 *   its start in the sandbox (launcher, bubblewrap, syscall filter,
 *   prlimit, the limits' watchdog) over the same start unsandboxed. Each
 *   episode starts it fresh (the line protocol has no reset).
 * - a module agent: an episode in a host kept from the previous one (one
 *   sandbox per session, the default without a CPU cap), from the
 *   factory call to the first answer, over the same unsandboxed. The host
 *   is reset between episodes: the module's factory builds a new agent, the
 *   evaluator drops the old one (module-host-main.ts).
 * - for reference, a fresh sandboxed module host (what every episode pays
 *   under a CPU cap, where hosts are not reused).
 */

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Observation } from '../src/core/sim/observation.js';
import { openCommandAgentFactory } from '../src/node/agents/command-agent.js';
import { openModuleAgentFactory } from '../src/node/agents/module-agent.js';
import { probeSandbox } from '../src/node/agents/sandbox.js';
import { DEFAULT_AGENT_SANDBOX_OPTIONS } from '../src/node/agents/sandbox-options.js';
import type { AgentSession } from '../src/node/agents/spec.js';
import { defaultEntryPoints } from '../src/node/entry-points.js';
import { type Figure, ROOT } from './harness.js';

const GOAL_MS = 30;
const EPISODES = 7;
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const OBSERVATION: Observation = { step: 0, max_steps: 10, map: ['#####', '#...E', '#####'], exits: [[1, 4]], burning: [], people: [{ id: 'p0000', cell: [1, 1] }], evacuated: 0, dead: 0 } as unknown as Observation;
const SANDBOX = { options: DEFAULT_AGENT_SANDBOX_OPTIONS, agentPaths: [] as string[] };

/** Median wall ms of one episode's start: factory() to the first answer, then close. */
async function episodeStart(session: AgentSession): Promise<number> {
  const times: number[] = [];
  try {
    for (let i = 0; i < EPISODES + 1; i++) {
      const start = process.hrtime.bigint();
      const agent = await session.factory();
      await agent.act(OBSERVATION);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      await agent.close?.();
      // The first is a warm-up (module import, file cache).
      if (i > 0) times.push(ms);
    }
  } finally {
    await session.close();
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export async function benchSandboxStart(): Promise<Figure[]> {
  const probe = probeSandbox();
  if (probe.isolation !== 'sandboxed') return [{ name: `sandbox start: skipped (${probe.reason})`, value: Number.NaN, unit: 'ms' }];
  const script = join(ROOT, 'test/fixtures/agents/line_agent.py');
  const command = (sandbox: boolean) => openCommandAgentFactory([PYTHON, script, 'good'], { actTimeoutMs: 60_000, ...(sandbox ? { sandbox: SANDBOX } : {}) });
  const moduleHost = (sandbox: boolean, cpuSeconds?: number) =>
    openModuleAgentFactory(join(ROOT, 'test/fixtures/agents/good.mjs'), 'makeAgent', {
      actTimeoutMs: 60_000,
      hostEntry: defaultEntryPoints().moduleHost,
      ...(sandbox ? { sandbox: { options: { ...DEFAULT_AGENT_SANDBOX_OPTIONS, cpuSeconds }, agentPaths: [join(ROOT, 'test/fixtures/agents')] } } : {}),
    });
  const commandPlain = await episodeStart(await command(false));
  const commandSandboxed = await episodeStart(await command(true));
  const modulePlain = await episodeStart(await moduleHost(false));
  const moduleSandboxed = await episodeStart(await moduleHost(true));
  const moduleFresh = await episodeStart(await moduleHost(true, 86_400));
  const over = (name: string, ms: number): Figure => ({ name, value: ms, unit: 'ms', goal: `< ${GOAL_MS}`, ok: ms < GOAL_MS });
  return [
    over('sandbox start per episode, command agent (python3), over unsandboxed', commandSandboxed - commandPlain),
    over('sandbox start per episode, module agent (one sandbox per session), over unsandboxed', moduleSandboxed - modulePlain),
    { name: 'episode start, command agent (python3), unsandboxed', value: commandPlain, unit: 'ms' },
    { name: 'episode start, module agent in a fresh sandboxed host (with --agent-cpu-seconds)', value: moduleFresh, unit: 'ms' },
  ];
}
