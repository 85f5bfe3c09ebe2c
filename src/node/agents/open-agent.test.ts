import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentError, UsageError } from '../../core/errors.js';
import type { Observation } from '../../core/sim/observation.js';
import { DEFAULT_ACT_TIMEOUT_MS, MAX_ACT_TIMEOUT_MS, openAgent } from './open-agent.js';
import { builtinAgentIds, parseAgentCommand, parseAgentSpec } from './spec.js';
import { defaultEntryPoints } from '../entry-points.js';
import { TEST_PYTHON } from '../../../test/kits/agent-kit.js';

const ENTRY = defaultEntryPoints();

const FIXTURES = resolve(import.meta.dirname, '../../../test/fixtures/agents');

const OBSERVATION: Observation = {
  step: 0,
  max_steps: 10,
  map: ['####', '#.E#', '####'],
  exits: [[1, 2]],
  burning: [],
  people: [{ id: 'p0000', cell: [1, 1] }],
  evacuated: 0,
  dead: 0,
};

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe.concurrent('openAgent', () => {
  it('opens a module agent found through --agent-path and runs it', async () => {
    const session = await openAgent(parseAgentSpec('good:makeAgent'), { agentPaths: [FIXTURES], actTimeoutMs: 60_000, entryPoints: ENTRY });
    try {
      const agent = await session.factory();
      expect(await agent.act(OBSERVATION)).toEqual({ p0000: 'N' });
      await agent.close?.();
    } finally {
      await session.close();
    }
  });

  it('names the module as given in import errors', async () => {
    const error = await rejection(openAgent(parseAgentSpec('import-throws:makeAgent'), { agentPaths: [FIXTURES], actTimeoutMs: 60_000, entryPoints: ENTRY }));
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).message).toBe('cannot import agent module import-throws: Error: module top level exploded');
    const missing = await rejection(openAgent(parseAgentSpec('nowhere:makeAgent'), { agentPaths: [FIXTURES], actTimeoutMs: 60_000, entryPoints: ENTRY }));
    expect((missing as AgentError).message).toBe(`cannot import agent module nowhere: not found in --agent-path dirs ${FIXTURES}; agent modules are JavaScript or TypeScript (.mjs, .js, .ts, .mts, .cjs); a Python agent runs with --agent-command "python3 FILE.py" (docs/agents.md)`);
  });

  it('opens a command agent on the line protocol', async () => {
    const spec = parseAgentCommand(`${TEST_PYTHON} '${resolve(FIXTURES, 'line_agent.py')}' good`);
    const session = await openAgent(spec, { agentPaths: [], actTimeoutMs: 60_000, entryPoints: ENTRY });
    try {
      const agent = await session.factory();
      expect(await agent.act(OBSERVATION)).toEqual({ p0000: 'N' });
      await agent.close?.();
    } finally {
      await session.close();
    }
  });

  it('opens builtin baselines in process', async () => {
    expect(builtinAgentIds()).toContain('always-stay');
    for (const id of builtinAgentIds()) {
      const session = await openAgent(parseAgentSpec(`builtin:${id}`), { agentPaths: [], actTimeoutMs: DEFAULT_ACT_TIMEOUT_MS, entryPoints: ENTRY });
      const first = await session.factory();
      const second = await session.factory();
      expect(typeof first.act).toBe('function');
      expect(second).not.toBe(first);
      await session.close();
    }
    const stay = await openAgent(parseAgentSpec('builtin:always-stay'), { agentPaths: [], actTimeoutMs: 1000, entryPoints: ENTRY });
    expect(await (await stay.factory()).act(OBSERVATION)).toEqual({ p0000: 'STAY' });
    const error = await rejection(openAgent({ kind: 'builtin', id: 'no-such-baseline' }, { agentPaths: [], actTimeoutMs: 1000, entryPoints: ENTRY }));
    expect(error).toBeInstanceOf(UsageError);
  });

  it('rejects a bad act timeout and a missing agent path directory as UsageError naming the field', async () => {
    const spec = parseAgentSpec('good:makeAgent');
    for (const actTimeoutMs of [0, -1, 1.5, MAX_ACT_TIMEOUT_MS + 1, Number.NaN]) {
      const error = await rejection(openAgent(spec, { agentPaths: [FIXTURES], actTimeoutMs, entryPoints: ENTRY }));
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).field).toBe('actTimeoutMs');
      expect((error as UsageError).message).toMatch(/^actTimeoutMs: must be an integer number of milliseconds from 1 to 3600000, not /);
    }
    const missingDir = resolve(FIXTURES, 'no-such-dir');
    const error = await rejection(openAgent(spec, { agentPaths: [FIXTURES, missingDir], actTimeoutMs: 1000, entryPoints: ENTRY }));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).field).toBe('agentPaths');
    expect((error as UsageError).message).toBe(`agentPaths: ${missingDir} is not a directory`);
  });

  it('runs the Python agent printed in docs/agents.md', async () => {
    const file = resolve(FIXTURES, 'greedy_agent.py');
    const docs = readFileSync(resolve(FIXTURES, '../../../docs/agents.md'), 'utf8');
    expect(docs).toContain(readFileSync(file, 'utf8'));
    const session = await openAgent(parseAgentCommand(`${TEST_PYTHON} ${file}`), { agentPaths: [], actTimeoutMs: 60_000, entryPoints: ENTRY });
    try {
      const agent = await session.factory();
      const observation: Observation = { ...OBSERVATION, map: ['######', '#...E#', '######'], exits: [[1, 4]], burning: [[1, 1]], people: [{ id: 'p0000', cell: [1, 2] }, { id: 'p0001', cell: [1, 3] }] };
      expect(await agent.act(observation)).toEqual({ p0000: 'E', p0001: 'E' });
      expect(await agent.act({ ...observation, people: [{ id: 'p0001', cell: [1, 3] }] })).toEqual({ p0001: 'E' });
      await agent.close?.();
    } finally {
      await session.close();
    }
  });

  it('keeps the documented default deadline', () => {
    expect([DEFAULT_ACT_TIMEOUT_MS, MAX_ACT_TIMEOUT_MS]).toEqual([30_000, 3_600_000]);
  });
});
