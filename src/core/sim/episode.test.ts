import { describe, expect, it } from 'vitest';
import { AgentError, ModelOutputError, ValidationError } from '../errors.js';
import type { ActionSet } from './actions.js';
import type { Agent } from './agent.js';
import type { EpisodeObserver, EpisodeOutcome, StepEvent } from './events.js';
import type { Observation } from './observation.js';
import { recordText } from './record.js';
import { runEpisode } from './episode.js';
import { randomLegalAgent, scriptedAgent, testEpisodeStart, type TestWorldSpec } from '../../../test/kits/worlds.js';

const WORLD: TestWorldSpec = {
  map: ['#######', '#P.P..E', '#..P..#', '#P...P#', '#######'],
  fire: [
    { cell: [3, 3], step: 2 },
    { cell: [2, 5], step: 4 },
  ],
  maxSteps: 12,
};

async function failure(promise: Promise<unknown>): Promise<AgentError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    return error as AgentError;
  }
  throw new Error('expected the episode to fail');
}

describe('runEpisode', () => {
  it('rejects an agent that was already used for an earlier episode', async () => {
    const agent = scriptedAgent([]);
    await runEpisode(testEpisodeStart(WORLD), agent);
    const error = await failure(runEpisode(testEpisodeStart(WORLD), agent));
    expect(error.failure).toBe('model_error');
    expect(error.message).toBe('the factory returned an agent that was already used for an earlier episode');
  });

  it('rejects a value without an act method', async () => {
    const error = await failure(runEpisode(testEpisodeStart(WORLD), {} as Agent));
    expect(error.failure).toBe('model_error');
  });

  it('turns an exception from act into a model_error and keeps an AgentError as it is', async () => {
    const stay = scriptedAgent([]);
    const agent: Agent = {
      act(observation: Observation): ActionSet {
        if (observation.step === 2) throw new TypeError('boom');
        return stay.act(observation) as ActionSet;
      },
    };
    const error = await failure(runEpisode(testEpisodeStart(WORLD), agent));
    expect(error.failure).toBe('model_error');
    expect(error.message).toBe('the agent raised in act at step 2: boom');

    const timeout: Agent = {
      act: () => Promise.reject(new AgentError('timeout', 'deadline of 5 s passed')),
    };
    const kept = await failure(runEpisode(testEpisodeStart(WORLD), timeout));
    expect(kept.failure).toBe('timeout');
    expect(kept.message).toBe('deadline of 5 s passed');

    const validation: Agent = {
      act: () => {
        throw new ValidationError('bad');
      },
    };
    expect((await failure(runEpisode(testEpisodeStart(WORLD), validation))).failure).toBe('model_error');

    const getter: Agent = {
      act: () =>
        Object.defineProperty({}, 'p0000', {
          enumerable: true,
          get: () => {
            throw new Error('getter');
          },
        }) as ActionSet,
    };
    const read = await failure(runEpisode(testEpisodeStart(WORLD), getter));
    expect(read.failure).toBe('model_error');
    expect(read.message).toBe('the agent raised while its action set was read at step 0: getter');
  });

  it('fails an illegal action set with invalid_output naming the step', async () => {
    const agent = scriptedAgent(['.....', 'NNNNN']);
    const error = await failure(runEpisode(testEpisodeStart(WORLD), agent));
    expect(error).toBeInstanceOf(ModelOutputError);
    expect(error.failure).toBe('invalid_output');
    expect(error.message).toBe('step 1: action for p0000: move N targets a wall at [0,1]');
  });

  it('gives an async agent the same record as the same sync agent', async () => {
    const sync = await runEpisode(testEpisodeStart(WORLD), randomLegalAgent(3));
    const inner = randomLegalAgent(3);
    const asyncAgent: Agent = { act: async (o) => inner.act(o) };
    const viaPromise = await runEpisode(testEpisodeStart(WORLD), asyncAgent);
    expect(recordText(viaPromise.record)).toBe(recordText(sync.record));
    expect(viaPromise.outcome).toEqual(sync.outcome);
  });

  it('calls close once, also when the episode fails', async () => {
    let closed = 0;
    const ok: Agent = { ...scriptedAgent([]), close: () => void closed++ };
    await runEpisode(testEpisodeStart(WORLD), ok);
    expect(closed).toBe(1);
    const bad: Agent = {
      act: () => ({ nobody: 'STAY' }),
      close: () => {
        closed++;
        throw new Error('close failed too');
      },
    };
    const error = await failure(runEpisode(testEpisodeStart(WORLD), bad));
    expect(error.failure).toBe('invalid_output');
    expect(closed).toBe(2);
    const failingClose: Agent = {
      ...scriptedAgent([]),
      close: () => Promise.reject(new Error('host gone')),
    };
    const closeError = await failure(runEpisode(testEpisodeStart(WORLD), failingClose));
    expect(closeError.failure).toBe('model_error');
    expect(closeError.message).toBe('the agent raised in close: host gone');
  });

  it('passes every step event and the outcome to observers, matching the record', async () => {
    const events: StepEvent[] = [];
    const outcomes: EpisodeOutcome[] = [];
    const observer: EpisodeObserver = { onStep: (e) => events.push(e), onEnd: (o) => outcomes.push(o) };
    const run = await runEpisode(testEpisodeStart(WORLD), randomLegalAgent(5), [observer]);
    expect(events.map((e) => e.t)).toEqual(run.record.trajectory.map((_, t) => t));
    expect(outcomes).toEqual([run.outcome]);
    expect(run.record.steps).toBe(run.outcome.steps);
    expect(run.record.trajectory.map((s) => s.actions.length)).toEqual(events.map((e) => e.active.length));
  });
});
