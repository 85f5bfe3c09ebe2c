import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { baselineFactory } from '../baselines/registry.js';
import type { ActionSet } from '../sim/actions.js';
import type { Agent } from '../sim/agent.js';
import { runEpisode } from '../sim/episode.js';
import type { Observation } from '../sim/observation.js';
import { parseRecordText } from '../sim/record-codec.js';
import { recordText } from '../sim/record.js';
import { prepareEpisode } from '../world/episode-start.js';
import { parseScenarioText } from '../world/scenario.js';
import type { EpisodeStart } from '../world/scenario-types.js';
import { decodeRecordFrames } from './record-frames.js';
import { observationAt, personStepAt } from './step-observation.js';
import { randomLegalAgent, testEpisodeStart } from '../../../test/kits/worlds.js';

const SUITE = new URL('../../../scenarios/public/v1/', import.meta.url);
const publicScenario = (name: string) => parseScenarioText(readFileSync(new URL(name, SUITE), 'utf8'), name);

/** Wraps an agent and keeps a copy of every observation it received and every action set it gave. */
function recording(inner: Agent): { agent: Agent; seen: Observation[]; given: ActionSet[] } {
  const seen: Observation[] = [];
  const given: ActionSet[] = [];
  return {
    seen,
    given,
    agent: {
      async act(observation) {
        seen.push(structuredClone(observation));
        const actions = await inner.act(observation);
        given.push({ ...actions });
        return actions;
      },
    },
  };
}

/** Runs an episode with a recording agent, then rebuilds every step from the record's text alone and compares. */
async function expectRebuiltEqualsReceived(start: EpisodeStart, inner: Agent): Promise<number> {
  const rec = recording(inner);
  const { record } = await runEpisode(start, rec.agent);
  // Only the stored text is used from here on, as the replay view does.
  const stored = parseRecordText(recordText(record), 'run record');
  const frames = decodeRecordFrames(start.scenario.grid, stored);
  expect(rec.seen.length).toBe(frames.steps);
  for (let s = 0; s < frames.steps; s++) {
    expect(observationAt(start.scenario.grid, frames, start.scenario.maxSteps, s)).toEqual(rec.seen[s]);
    for (let i = 0; i < frames.people; i++) {
      const step = personStepAt(stored.trajectory, frames, s, i);
      const id = `p${String(i).padStart(4, '0')}`;
      if (rec.given[s]![id] === undefined) expect(step).toBeNull();
      else expect(step?.action).toBe(rec.given[s]![id]);
    }
  }
  // After the last step no agent is asked: no person has an action there.
  for (let i = 0; i < frames.people; i++) expect(personStepAt(stored.trajectory, frames, frames.steps, i)).toBeNull();
  return frames.steps;
}

describe('observationAt and personStepAt', () => {
  it('rebuild exactly what a random agent received on public scenarios (deaths, evacuations, blocked moves)', async () => {
    for (const [name, seed] of [['v1-pub-02-single-exit-dense.json', '3'], ['v1-pub-07-fast-spread.json', '1']] as const) {
      const steps = await expectRebuiltEqualsReceived(prepareEpisode(publicScenario(name), seed), randomLegalAgent(17));
      expect(steps).toBeGreaterThan(1);
    }
  });

  it('rebuild exactly what a baseline received through the JSON observation', async () => {
    const baseline = await baselineFactory('congestion-aware-v1')!();
    await expectRebuiltEqualsReceived(prepareEpisode(publicScenario('v1-pub-03-narrow-corridor.json'), '2'), { act: (o) => baseline.act(o) });
  });

  it('rebuild a run that ends at the horizon with people stranded', async () => {
    const start = testEpisodeStart({ map: ['#####', '#P.P#', '#.P.E', '#####'], fire: [{ cell: [1, 1], step: 3 }], maxSteps: 4 });
    const stay: Agent = { act: (o) => Object.fromEntries(o.people.map((p) => [p.id, 'STAY'])) };
    expect(await expectRebuiltEqualsReceived(start, stay)).toBe(4);
  });

  it('tells the moved direction apart from the asked one when a move is blocked', async () => {
    // Two people both step into the one cell between them: one of them is blocked.
    const start = testEpisodeStart({ map: ['#####', '#P.P#', '#...E', '#####'], fire: [], maxSteps: 3 });
    const agent: Agent = { act: (o) => (o.step === 0 ? { p0000: 'E', p0001: 'W' } : Object.fromEntries(o.people.map((p) => [p.id, 'STAY']))) };
    const { record } = await runEpisode(start, agent);
    const frames = decodeRecordFrames(start.scenario.grid, record);
    const steps = [personStepAt(record.trajectory, frames, 0, 0), personStepAt(record.trajectory, frames, 0, 1)];
    expect(steps.map((s) => s?.action)).toEqual(['E', 'W']);
    expect(steps.filter((s) => s?.moved === 'STAY')).toHaveLength(1);
  });

  it('refuses a step or person outside the record with what to choose instead', async () => {
    const start = testEpisodeStart({ map: ['####', '#P.E', '####'], fire: [], maxSteps: 5 });
    const { record } = await runEpisode(start, { act: (o) => Object.fromEntries(o.people.map((p) => [p.id, 'E'])) });
    const frames = decodeRecordFrames(start.scenario.grid, record);
    expect(() => observationAt(start.scenario.grid, frames, 5, frames.steps + 1)).toThrow(ValidationError);
    expect(() => observationAt(start.scenario.grid, frames, 5, -1)).toThrow(/choose a step from 0 to 2/);
    expect(() => personStepAt(record.trajectory, frames, 0, 3)).toThrow(/no person 3/);
  });
});
