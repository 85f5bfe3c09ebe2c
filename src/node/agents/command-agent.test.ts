import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentError } from '../../core/errors.js';
import type { Observation } from '../../core/sim/observation.js';
import { LineProtocolAgent, openCommandAgentFactory, resolveProgram, STUCK_OUTPUT_HINT } from './command-agent.js';
import type { AgentSession } from './spec.js';
import { alive, failure } from '../../../test/kits/agent-kit.js';

const PY_AGENT = resolve(import.meta.dirname, '../../../test/fixtures/agents/line_agent.py');

function observation(step: number): Observation {
  return {
    step,
    max_steps: 10,
    map: ['#####', '#..E#', '#####'],
    exits: [[1, 3]],
    burning: [[1, 1]],
    people: [
      { id: 'p0000', cell: [1, 1] },
      { id: 'p0001', cell: [1, 2] },
    ],
    evacuated: 0,
    dead: 0,
  };
}

const OPTS = { actTimeoutMs: 60_000 };

const sessions: AgentSession[] = [];
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
});

async function open(mode: string, actTimeoutMs = 60_000): Promise<AgentSession> {
  const session = await openCommandAgentFactory(['python3', PY_AGENT, mode], { actTimeoutMs });
  sessions.push(session);
  return session;
}

/** Builds one agent of `mode`, acts once, expects a failure; returns it with the pid. */
async function failOnce(mode: string, actTimeoutMs = 60_000): Promise<{ error: AgentError; pid: number | undefined; session: AgentSession }> {
  const session = await open(mode, actTimeoutMs);
  const agent = (await session.factory()) as LineProtocolAgent;
  const error = await failure(Promise.resolve(agent.act(observation(0))));
  await agent.close();
  return { error, pid: agent.pid, session };
}

describe.concurrent('line protocol: a Python agent', () => {
  it('answers each observation, one fresh process per episode', async () => {
    const session = await open('good');
    const pids = new Set<number | undefined>();
    for (let episode = 0; episode < 2; episode++) {
      const agent = (await session.factory()) as LineProtocolAgent;
      pids.add(agent.pid);
      expect(await agent.act(observation(0))).toEqual({ p0000: 'N', p0001: 'N' });
      expect(await agent.act(observation(1))).toEqual({ p0000: 'S', p0001: 'S' });
      await agent.close();
      // stdin closed: the agent left on its own (or was killed after the grace).
      expect(alive(agent.pid)).toBe(false);
    }
    expect(pids.size).toBe(2);
  });

  it('maps garbage and non-object lines to invalid_output and kills the agent', async () => {
    const garbage = await failOnce('garbage');
    expect(garbage.error.failure).toBe('invalid_output');
    expect(garbage.error.message).toMatch(/^agent output is not valid JSON: /);
    expect(alive(garbage.pid)).toBe(false);
    const array = await failOnce('array');
    expect([array.error.failure, array.error.message]).toEqual([
      'invalid_output',
      'agent output is not a JSON object mapping person IDs to action strings',
    ]);
  });

  it('maps a line longer than 16 MiB to invalid_output', async () => {
    const { error, pid } = await failOnce('longline', 120_000);
    expect([error.failure, error.message]).toEqual(['invalid_output', 'agent output line is longer than 16777216 bytes']);
    expect(alive(pid)).toBe(false);
  });

  it('maps two lines for one observation to invalid_output', async () => {
    const session = await open('extra');
    const agent = await session.factory();
    let error: AgentError;
    try {
      // The second line may arrive with the first or just after it.
      await agent.act(observation(0));
      error = await failure(Promise.resolve(agent.act(observation(1))));
    } catch (first) {
      error = first as AgentError;
    }
    expect(error.failure).toBe('invalid_output');
    await agent.close?.();
  });

  it('kills an agent that sleeps past its deadline (timeout)', async () => {
    const { error, pid, session } = await failOnce('sleep', 300);
    // It wrote nothing: the message points at an unflushed output buffer.
    expect([error.failure, error.message]).toEqual(['timeout', `act took longer than 300 ms; ${STUCK_OUTPUT_HINT}`]);
    expect(alive(pid)).toBe(false);
    // The session still works: the next episode gets a fresh process.
    const next = (await session.factory()) as LineProtocolAgent;
    expect(next.pid).not.toBe(pid);
    expect(alive(next.pid)).toBe(true);
  });

  it('reports an agent that exits, with its stderr (model_error)', async () => {
    const { error } = await failOnce('exit');
    expect([error.failure, error.message]).toEqual(['model_error', 'agent process exited with code 3; stderr: python agent giving up']);
  });
});

describe.concurrent('line protocol: programs', () => {
  it('refuses a program that does not exist, at open time', async () => {
    const error = await failure(openCommandAgentFactory(['ember-no-such-agent-program'], OPTS));
    expect([error.failure, error.message]).toEqual([
      'model_error',
      'cannot start agent command ember-no-such-agent-program: not found or not executable on PATH',
    ]);
    const relative = await failure(openCommandAgentFactory(['./no/such/agent'], OPTS));
    expect(relative.message).toBe('cannot start agent command ./no/such/agent: not found or not executable');
  });

  it('refuses a file that is not executable, and runs one that is (no shell)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ember-cmd-'));
    try {
      const script = join(dir, 'agent.sh');
      // Reads one line, answers with an empty action set; $HOME would expand only in a shell.
      writeFileSync(script, '#!/bin/sh\nread line\necho "{\\"arg\\":\\"$1\\"}"\n');
      expect(resolveProgram(script)).toBeUndefined();
      chmodSync(script, 0o755);
      expect(resolveProgram(script)).toBe(script);
      const session = await openCommandAgentFactory([script, '$HOME; echo hi'], OPTS);
      sessions.push(session);
      const agent = await session.factory();
      expect(await agent.act(observation(0))).toEqual({ arg: '$HOME; echo hi' });
      await agent.close?.();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds bare names on PATH only', () => {
    expect(resolveProgram('python3')).toMatch(/python3$/);
    expect(resolveProgram('line_agent.py')).toBeUndefined();
  });

  it('kills every agent on session close', async () => {
    const session = await openCommandAgentFactory(['python3', PY_AGENT, 'good'], OPTS);
    const a = (await session.factory()) as LineProtocolAgent;
    const b = (await session.factory()) as LineProtocolAgent;
    expect(await a.act(observation(0))).toEqual({ p0000: 'N', p0001: 'N' });
    await session.close();
    expect([alive(a.pid), alive(b.pid)]).toEqual([false, false]);
    expect((await failure(Promise.resolve(session.factory()))).message).toBe('the agent session is closed');
  });
});
