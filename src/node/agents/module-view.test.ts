/**
 * The module host's view path (runner ACT_ON_VIEW -> ViewDelta -> digits):
 * the records it makes are byte-identical to an in-process run of the same
 * agent, and every failure ends an episode exactly as on the act path.
 */

import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Agent } from '../../core/sim/agent.js';
import { isViewAgent } from '../../core/sim/move-view.js';
import { recordText } from '../../core/sim/record.js';
import { runEpisode } from '../../core/sim/episode.js';
import { prepareEpisode } from '../../core/world/episode-start.js';
import { parseScenarioText } from '../../core/world/scenario.js';
import type { Scenario } from '../../core/world/scenario-types.js';
import { defaultEntryPoints } from '../entry-points.js';
import { ending, endingsOfBothPaths } from '../../../test/kits/agent-kit.js';
import { openModuleAgentFactory } from './module-agent.js';
import type { AgentSession } from './spec.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const HASH_AGENT = join(ROOT, 'test/fixtures/agents/observation-hash.mjs');
const BAD_JS = join(ROOT, 'test/fixtures/agents/misbehaving.mjs');
const PUBLIC = join(ROOT, 'scenarios/public/v1');
const OPTS = { actTimeoutMs: 60_000, loadTimeoutMs: 120_000, hostEntry: defaultEntryPoints().moduleHost };

const scenarios: Scenario[] = readdirSync(PUBLIC)
  .filter((name) => name.startsWith('v1-pub-'))
  .sort()
  .map((name) => parseScenarioText(readFileSync(join(PUBLIC, name), 'utf8'), name));

const sessions: AgentSession[] = [];
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
});

async function open(file: string, exportName: string, actTimeoutMs = 60_000): Promise<AgentSession> {
  const session = await openModuleAgentFactory(file, exportName, { ...OPTS, actTimeoutMs });
  sessions.push(session);
  return session;
}

describe('module host view path', () => {
  it('drives module agents through ACT_ON_VIEW', async () => {
    const session = await open(HASH_AGENT, 'makeAgent');
    const agent = await session.factory();
    expect(isViewAgent(agent)).toBe(true);
    await agent.close?.();
  });

  it('makes records byte-identical to in-process runs on every public scenario (seeds 0, 1)', async () => {
    const session = await open(HASH_AGENT, 'makeAgent');
    const module = (await import(HASH_AGENT)) as { makeAgent(): Agent };
    let moved = 0;
    for (const scenario of scenarios) {
      for (const seed of ['0', '1']) {
        const start = prepareEpisode(scenario, seed);
        const local = await runEpisode(start, module.makeAgent());
        const viaHost = await runEpisode(start, await session.factory());
        expect(recordText(viaHost.record)).toBe(recordText(local.record));
        moved += local.record.trajectory.filter((step) => /[NESW]/.test(step.actions)).length;
      }
    }
    // The agent really moves, so the deltas carry movers, leavers and fire.
    expect(moved).toBeGreaterThan(100);
  }, 600_000);

  // [export, module, how the episode ends on both paths ('{' is a record)]
  const failures: [string, string, string][] = [
    ['invalidAt.missing', HASH_AGENT, 'ModelOutputError invalid_output: step 3: action set is missing'],
    ['invalidAt.extra', HASH_AGENT, 'ModelOutputError invalid_output: step 3: action set names unknown person p9999'],
    ['invalidAt.letter', HASH_AGENT, 'ModelOutputError invalid_output: step 3: action for p0000: "UP"'],
    ['invalidAt.wall', HASH_AGENT, 'ModelOutputError invalid_output: step 3: action for'],
    ['invalidAt.proto', HASH_AGENT, '{'],
    ['throwingAct', BAD_JS, 'AgentError model_error: act raised RangeError: act exploded'],
    ['exitingAct', BAD_JS, 'AgentError model_error:'],
    ['stringAct', BAD_JS, 'AgentError invalid_output:'],
    ['arrayAct', BAD_JS, 'AgentError invalid_output:'],
    ['numberValueAct', BAD_JS, 'AgentError invalid_output:'],
    ['mapAct', BAD_JS, 'AgentError invalid_output:'],
    ['floodAct', BAD_JS, '{'],
    ['stdoutErrorAct', BAD_JS, '{'],
    ['strayMessageAct', BAD_JS, 'AgentError model_error: the agent host sent an unexpected message'],
  ];
  it.concurrent.each(failures)('%s ends the episode as on the act path', async (exportName, file, expected) => {
    // floodAct writes 11 MiB per act while the other cases run beside it: its deadline is about equal endings, not speed.
    const session = await open(file, exportName, 60_000);
    const start = prepareEpisode(scenarios[1]!, '0');
    const { viaView, viaAct } = await endingsOfBothPaths(start, () => session.factory());
    expect(viaView).toBe(viaAct);
    expect(viaView.startsWith(expected)).toBe(true);
  }, 300_000);

  it('times out a hanging act on the view path', async () => {
    const session = await open(BAD_JS, 'hangingAct', 300);
    const start = prepareEpisode(scenarios[0]!, '0');
    const viaView = await ending(runEpisode(start, await session.factory()));
    expect(viaView).toBe('AgentError timeout: act took longer than 300 ms');
  }, 120_000);
});
