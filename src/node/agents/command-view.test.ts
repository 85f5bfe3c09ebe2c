/**
 * The line protocol on the runner's fast path (ACT_ON_VIEW, line-view.ts):
 * records byte-identical to the act path, delta observations (opted in)
 * giving the same moves as full ones, and every failure ending an episode
 * exactly as on the act path.
 */

import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isViewAgent } from '../../core/sim/move-view.js';
import type { RunRecord } from '../../core/sim/record.js';
import { runEpisode } from '../../core/sim/episode.js';
import { prepareEpisode } from '../../core/world/episode-start.js';
import { parseScenarioText } from '../../core/world/scenario.js';
import { openCommandAgentFactory } from './command-agent.js';
import type { AgentSession } from './spec.js';
import { actOnly, ending, endingsOfBothPaths } from '../../../test/kits/agent-kit.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const FIXTURES = join(ROOT, 'test/fixtures/agents');
const PUBLIC = join(ROOT, 'scenarios/public/v1');
const scenarios = readdirSync(PUBLIC)
  .filter((name) => name.startsWith('v1-pub-'))
  .sort()
  .map((name) => parseScenarioText(readFileSync(join(PUBLIC, name), 'utf8'), name));

const sessions: AgentSession[] = [];
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
});

async function open(argv: string[], actTimeoutMs = 60_000): Promise<AgentSession> {
  const session = await openCommandAgentFactory(argv, { actTimeoutMs });
  sessions.push(session);
  return session;
}

/** A Python program that answers each observation with `answer(obs)` (an expression giving the line's text). */
function python(answer: string): string[] {
  return ['python3', '-c', `import json, sys\nfor line in sys.stdin:\n    obs = json.loads(line)\n    ids = [p["id"] for p in obs.get("people", [])]\n    sys.stdout.buffer.write((${answer}) + b"\\n")\n    sys.stdout.flush()\n`];
}

describe('line protocol view path', () => {
  it('makes the same records as the act path, and delta observations the same as full ones', async () => {
    const greedy = await open(['python3', join(FIXTURES, 'greedy_agent.py')]);
    const delta = await open(['python3', join(FIXTURES, 'greedy_delta_agent.py')]);
    let moved = 0;
    for (const scenario of scenarios) {
      const start = prepareEpisode(scenario, '0');
      const agent = await greedy.factory();
      expect(isViewAgent(agent)).toBe(true);
      const viaView = await ending(runEpisode(start, agent));
      const viaAct = await ending(runEpisode(start, actOnly(await greedy.factory())));
      const viaDelta = await ending(runEpisode(start, await delta.factory()));
      expect(viaView.startsWith('{')).toBe(true);
      expect(viaView).toBe(viaAct);
      expect(viaDelta).toBe(viaView);
      moved += (JSON.parse(viaView) as RunRecord).trajectory.filter((step) => /[NESW]/.test(step.actions)).length;
    }
    expect(moved).toBeGreaterThan(100);
    // The delta agent is the one printed in docs/agents.md.
    expect(readFileSync(join(ROOT, 'docs/agents.md'), 'utf8')).toContain(readFileSync(join(FIXTURES, 'greedy_delta_agent.py'), 'utf8'));
  }, 600_000);

  const LINE_AGENT = join(FIXTURES, 'line_agent.py');
  const stay = 'json.dumps({i: "STAY" for i in ids}).encode()';
  // [case, command, how the episode ends on both paths ('{' is a record)]
  const cases: [string, string[], string][] = [
    ['walks into a wall', ['python3', LINE_AGENT, 'good'], 'ModelOutputError invalid_output: step '],
    ['not JSON', ['python3', LINE_AGENT, 'garbage'], 'AgentError invalid_output: agent output is not valid JSON'],
    ['an array', ['python3', LINE_AGENT, 'array'], 'AgentError invalid_output: agent output is not a JSON object'],
    ['exits', ['python3', LINE_AGENT, 'exit'], 'AgentError model_error: agent process exited with code 3'],
    ['two lines', ['python3', LINE_AGENT, 'extra'], 'AgentError invalid_output: agent wrote more than one line'],
    ['stays (python spacing)', python(stay), '{'],
    ['a duplicate key', python(`(json.dumps({i: "STAY" for i in ids})[:-1] + ", " + json.dumps(ids[0]) + ": \\"N\\"}").encode()`), 'AgentError invalid_output: agent output is not valid JSON'],
    ['a missing person', python('json.dumps({i: "STAY" for i in ids[1:]}).encode()'), 'ModelOutputError invalid_output: step 0: action set is missing'],
    ['an unknown person', python('json.dumps({**{i: "STAY" for i in ids}, "p9999": "N"}).encode()'), 'ModelOutputError invalid_output: step 0: action set names unknown person p9999'],
    ['an escaped key', python('json.dumps({i: "STAY" for i in ids}).replace(\'"p\', \'"\\\\u0070\').encode()'), '{'],
    ['not UTF-8', python('b"\\xff"'), 'AgentError invalid_output: agent output is not UTF-8'],
    ['opts in at step 0 with an invalid set', python('json.dumps({"observations": "delta", "actions": []}).encode()'), 'AgentError invalid_output: agent output is not a JSON object'],
    [
      'opts in later',
      python('json.dumps({"observations": "delta", "actions": {i: "STAY" for i in ids}} if obs["step"] == 1 else {i: "STAY" for i in ids}).encode()'),
      'AgentError invalid_output: agent output is not a JSON object',
    ],
  ];
  it.concurrent.each(cases)('%s: ends the episode as on the act path', async (_, argv, expected) => {
    const session = await open(argv);
    const start = prepareEpisode(scenarios[1]!, '0');
    const { viaView, viaAct } = await endingsOfBothPaths(start, () => session.factory());
    expect(viaView).toBe(viaAct);
    expect(viaView.startsWith(expected)).toBe(true);
  }, 300_000);

  it('opting in at step 0 is accepted on the view path only (act keeps the documented action line)', async () => {
    const session = await open(python('json.dumps({"observations": "delta", "actions": {i: "STAY" for i in ids}} if obs["step"] == 0 else {i: "STAY" for i in ids}).encode()'));
    const start = prepareEpisode(scenarios[1]!, '0');
    // This agent does not read deltas (it reads "people" with a default), so it answers every step with no one: the first delta fails.
    const viaView = await ending(runEpisode(start, await session.factory()));
    expect(viaView).toMatch(/^ModelOutputError invalid_output: step 1: action set is missing p0000/);
  }, 120_000);

  it('times out a silent agent on the view path', async () => {
    const session = await open(['python3', LINE_AGENT, 'sleep'], 300);
    const viaView = await ending(runEpisode(prepareEpisode(scenarios[0]!, '0'), await session.factory()));
    expect(viaView).toMatch(/^AgentError timeout: act took longer than 300 ms/);
  }, 120_000);
});
