import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentError } from '../../core/errors.js';
import type { Observation } from '../../core/sim/observation.js';
import { ModuleAgent, ModuleAgentHost, openModuleAgentFactory } from './module-agent.js';
import type { AgentSession } from './spec.js';
import { alive, failure } from '../../../test/kits/agent-kit.js';
import { defaultEntryPoints } from '../entry-points.js';

const FIXTURES = resolve(import.meta.dirname, '../../../test/fixtures/agents');
const GOOD_JS = join(FIXTURES, 'good.mjs');
const GOOD_TS = join(FIXTURES, 'good.ts');
const BAD_JS = join(FIXTURES, 'misbehaving.mjs');

function observation(step: number): Observation {
  return {
    step,
    max_steps: 10,
    map: ['#####', '#..E#', '#####'],
    exits: [[1, 3]],
    burning: [],
    people: [
      { id: 'p0000', cell: [1, 1] },
      { id: 'p0001', cell: [1, 2] },
    ],
    evacuated: 0,
    dead: 0,
  };
}

const OPTS = { actTimeoutMs: 60_000, loadTimeoutMs: 120_000, hostEntry: defaultEntryPoints().moduleHost };

/** Opens a session on a misbehaving export, builds one agent and acts once. */
async function actOnce(exportName: string, actTimeoutMs = 60_000): Promise<{ session: AgentSession; error: AgentError; pid: number | undefined }> {
  const session = await openModuleAgentFactory(BAD_JS, exportName, { ...OPTS, actTimeoutMs });
  const agent = (await session.factory()) as ModuleAgent;
  const error = await failure(Promise.resolve(agent.act(observation(0))));
  await agent.close();
  return { session, error, pid: agent.pid };
}

const sessions: AgentSession[] = [];
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
});

describe.concurrent('module host: well-behaved agents', () => {
  it('runs a JS agent over several episodes with a fresh agent each', async () => {
    const session = await openModuleAgentFactory(GOOD_JS, 'makeCountingAgent', OPTS);
    sessions.push(session);
    const seen: unknown[] = [];
    const pids = new Set<number | undefined>();
    for (let episode = 0; episode < 3; episode++) {
      const agent = (await session.factory()) as ModuleAgent;
      pids.add(agent.pid);
      seen.push(await agent.act(observation(0)), await agent.act(observation(1)));
      await agent.close();
    }
    expect(seen).toEqual([
      { episode: '1', act: '1' },
      { episode: '1', act: '2' },
      { episode: '2', act: '1' },
      { episode: '2', act: '2' },
      { episode: '3', act: '1' },
      { episode: '3', act: '2' },
    ]);
    // One host served every episode: the module was imported once.
    expect(pids.size).toBe(1);
  });

  it('returns the action set computed from the observation (JS, sync and async, export path a.b)', async () => {
    for (const exportName of ['makeAgent', 'factories.make']) {
      const session = await openModuleAgentFactory(GOOD_JS, exportName, OPTS);
      sessions.push(session);
      const agent = await session.factory();
      expect(await agent.act(observation(4))).toEqual({ p0000: 'N', p0001: 'N' });
      expect(await agent.act(observation(5))).toEqual({ p0000: 'S', p0001: 'S' });
      await agent.close?.();
    }
    const session = await openModuleAgentFactory(GOOD_JS, 'makeAsyncAgent', OPTS);
    sessions.push(session);
    const agent = await session.factory();
    expect(await agent.act(observation(0))).toEqual({ p0000: 'STAY', p0001: 'STAY' });
  });

  it('runs a TypeScript agent', async () => {
    const session = await openModuleAgentFactory(GOOD_TS, 'makeAgent', OPTS);
    sessions.push(session);
    for (let episode = 0; episode < 2; episode++) {
      const agent = await session.factory();
      expect(await agent.act(observation(0))).toEqual({ p0000: 'W', p0001: 'W' });
      expect(await agent.act(observation(1))).toEqual({ p0000: 'STAY', p0001: 'STAY' });
      await agent.close?.();
    }
  });

  it('keeps answering when the agent floods stdout and stderr', async () => {
    const session = await openModuleAgentFactory(BAD_JS, 'floodAct', { ...OPTS, actTimeoutMs: 120_000 });
    sessions.push(session);
    const agent = await session.factory();
    expect(await agent.act(observation(0))).toEqual({ p0000: 'STAY', p0001: 'STAY' });
    expect(await agent.act(observation(1))).toEqual({ p0000: 'STAY', p0001: 'STAY' });
  });
});

describe.concurrent('module host: load failures (at open time, model_error)', () => {
  it('rejects a module that fails to import', async () => {
    const error = await failure(openModuleAgentFactory(join(FIXTURES, 'import-throws.mjs'), 'makeAgent', { ...OPTS, label: 'import-throws' }));
    expect(error.failure).toBe('model_error');
    expect(error.message).toBe('cannot import agent module import-throws: Error: module top level exploded');
  });

  it('rejects a module with a syntax error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ember-agent-'));
    try {
      writeFileSync(join(dir, 'broken.mjs'), 'export function makeAgent( {\n');
      const error = await failure(openModuleAgentFactory(join(dir, 'broken.mjs'), 'makeAgent', { ...OPTS, label: 'broken' }));
      expect(error.failure).toBe('model_error');
      expect(error.message).toMatch(/^cannot import agent module broken: SyntaxError: /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads CommonJS exports through module.exports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ember-agent-'));
    try {
      const file = join(dir, 'cjs_agent.cjs');
      writeFileSync(file, "const make = () => ({ act: () => ({ p0000: 'E' }) });\nmodule.exports = { make, nested: { make } };\n");
      for (const exportName of ['make', 'nested.make']) {
        const session = await openModuleAgentFactory(file, exportName, OPTS);
        sessions.push(session);
        const agent = await session.factory();
        expect(await agent.act(observation(0))).toEqual({ p0000: 'E' });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects a missing export and a non-function export', async () => {
    const missing = await failure(openModuleAgentFactory(GOOD_JS, 'doesNotExist', { ...OPTS, label: 'good' }));
    expect(missing.failure).toBe('model_error');
    expect(missing.message).toBe('agent factory doesNotExist in module good is not exported');
    const notFn = await failure(openModuleAgentFactory(BAD_JS, 'notAFunction', { ...OPTS, label: 'misbehaving' }));
    expect(notFn.message).toBe('agent factory notAFunction in module misbehaving is not a function (it is a number)');
  });
});

describe.concurrent('module host: episode failures', () => {
  it('maps a throwing factory, a non-agent and a reused agent to model_error', async () => {
    const throwing = await openModuleAgentFactory(BAD_JS, 'throwingFactory', OPTS);
    sessions.push(throwing);
    const e1 = await failure(Promise.resolve(throwing.factory()));
    expect([e1.failure, e1.message]).toEqual(['model_error', 'agent factory throwingFactory raised Error: factory exploded']);

    const nonAgent = await openModuleAgentFactory(BAD_JS, 'nonAgentFactory', OPTS);
    sessions.push(nonAgent);
    const e2 = await failure(Promise.resolve(nonAgent.factory()));
    expect(e2.message).toMatch(/^agent factory nonAgentFactory returned an object .* without an act\(observation\) method$/);

    const same = await openModuleAgentFactory(BAD_JS, 'sameAgentTwice', OPTS);
    sessions.push(same);
    const first = await same.factory();
    expect(await first.act(observation(0))).toEqual({ p0000: 'STAY', p0001: 'STAY' });
    await first.close?.();
    const e3 = await failure(Promise.resolve(same.factory()));
    expect(e3.failure).toBe('model_error');
    expect(e3.message).toContain('already used for an earlier episode');
    // The failed host was replaced: a fresh process has a fresh module.
    const again = await same.factory();
    expect(await again.act(observation(0))).toEqual({ p0000: 'STAY', p0001: 'STAY' });
  });

  it('maps act raising to model_error and recovers on the next episode', async () => {
    const { session, error, pid } = await actOnce('throwingAct');
    sessions.push(session);
    expect([error.failure, error.message]).toEqual(['model_error', 'act raised RangeError: act exploded']);
    expect(alive(pid)).toBe(false);
    const next = (await session.factory()) as ModuleAgent;
    expect(next.pid).not.toBe(pid);
  });

  it('kills an act that hangs past its deadline (timeout)', async () => {
    for (const exportName of ['hangingAct', 'busyAct']) {
      const { session, error, pid } = await actOnce(exportName, 300);
      sessions.push(session);
      expect([error.failure, error.message]).toEqual(['timeout', 'act took longer than 300 ms']);
      expect(alive(pid)).toBe(false);
    }
  });

  it('kills a factory that hangs past its deadline (timeout)', async () => {
    const session = await openModuleAgentFactory(BAD_JS, 'hangingFactory', { ...OPTS, actTimeoutMs: 300 });
    sessions.push(session);
    const error = await failure(Promise.resolve(session.factory()));
    expect([error.failure, error.message]).toEqual(['timeout', 'agent factory hangingFactory took longer than 300 ms']);
  });

  it('reports an agent that exits the process, with its stderr', async () => {
    const { session, error, pid } = await actOnce('exitingAct');
    sessions.push(session);
    expect(error.failure).toBe('model_error');
    expect(error.message).toBe('agent process exited with code 7; stderr: agent says goodbye');
    expect(alive(pid)).toBe(false);
  });

  it('maps a result that is not a plain string map to invalid_output', async () => {
    for (const exportName of ['stringAct', 'arrayAct', 'numberValueAct', 'mapAct']) {
      const { session, error, pid } = await actOnce(exportName);
      sessions.push(session);
      expect(error.failure, exportName).toBe('invalid_output');
      expect(error.message).toMatch(/^act returned .*, not a plain object mapping person IDs to action strings$/);
      expect(alive(pid)).toBe(false);
    }
  });

  it('ends the host when agent code writes a message of its own on the protocol channel', async () => {
    const { session, error } = await actOnce('strayMessageAct');
    sessions.push(session);
    expect(error.failure).toBe('model_error');
    expect(error.message).toContain('unexpected message');
  });

  it('fails the episode, not the evaluator, for garbage, a line over the cap or a closed channel; the session goes on', async () => {
    const cases: [string, string, RegExp][] = [
      ['garbageChannelAct', 'model_error', /unexpected message on its protocol channel/],
      ['hugeChannelLineAct', 'invalid_output', /wrote a line longer than 16777216 bytes on its protocol channel/],
      ['closeChannelAct', 'model_error', /closed its protocol channel|agent process/],
    ];
    for (const [exportName, kind, message] of cases) {
      const { session, error, pid } = await actOnce(exportName, 60_000);
      sessions.push(session);
      expect([exportName, error.failure]).toEqual([exportName, kind]);
      expect(error.message).toMatch(message);
      expect(alive(pid)).toBe(false);
      // The same session starts a fresh host for the next episode.
      const next = await session.factory();
      expect(next).toBeInstanceOf(ModuleAgent);
      await next.close?.();
    }
  });

  it('works again after a failure in the same session', async () => {
    const session = await openModuleAgentFactory(BAD_JS, 'exitingAct', OPTS);
    sessions.push(session);
    for (let episode = 0; episode < 2; episode++) {
      const agent = await session.factory();
      const error = await failure(Promise.resolve(agent.act(observation(0))));
      expect(error.message).toContain('exited with code 7');
      await agent.close?.();
    }
  });
});

describe('module host: lifecycle', () => {
  it('kills every host on close, and refuses new agents afterwards', async () => {
    const session = await openModuleAgentFactory(GOOD_JS, 'makeAgent', OPTS);
    const a = (await session.factory()) as ModuleAgent;
    const b = (await session.factory()) as ModuleAgent;
    // Two open agents need two hosts.
    expect(a.pid).not.toBe(b.pid);
    await session.close();
    expect(alive(a.pid)).toBe(false);
    expect(alive(b.pid)).toBe(false);
    const error = await failure(Promise.resolve(session.factory()));
    expect(error.message).toBe('the agent session is closed');
  });

  it('exposes a host that can be driven directly', async () => {
    const host = await ModuleAgentHost.start(GOOD_JS, 'makeAgent', OPTS);
    expect(host.usable).toBe(true);
    await host.newAgent();
    expect(await host.act(observation(2))).toEqual({ p0000: 'N', p0001: 'N' });
    await host.kill();
    expect(host.usable).toBe(false);
    expect(alive(host.pid)).toBe(false);
  });
});
