import { beforeAll, describe, expect, it } from 'vitest';
import { MismatchError, ValidationError } from '../errors.js';
import { prepareEpisode } from '../world/episode-start.js';
import { validateScenario } from '../world/scenario.js';
import type { Scenario } from '../world/scenario-types.js';
import type { EpisodeObserver, StepEvent } from './events.js';
import { parseRecordText } from './record-codec.js';
import { recordDigest, recordText, type RunRecord } from './record.js';
import { replayFromStart, replayRecord } from './authenticate-record.js';
import { runEpisode } from './episode.js';
import { randomLegalAgent, scriptedAgent, testEpisodeStart, testFireWorld, testScenario, type TestWorldSpec } from '../../../test/kits/worlds.js';

const TINY: TestWorldSpec = { map: ['######', '#PEP.#', '######'], fire: [{ cell: [1, 4], step: 1 }], maxSteps: 5 };

// A hall with spread, blocks, evacuations and deaths (seed 7 with agent 1).
const HALL: TestWorldSpec = {
  map: ['E..........#', '.P.P.P..P..#', '..P...P..P.E', '.P..P..P....', '#...P....P.E'],
  fire: [{ cell: [2, 5], step: 0 }],
  spreadProbability: '0.35',
  maxSteps: 25,
};

type Mutable = { -readonly [K in Exclude<keyof RunRecord, 'trajectory'>]: RunRecord[K] } & { trajectory: Record<string, unknown>[] };

/** A tampered copy of a record, written and loaded again as a file would be. */
function tampered(record: RunRecord, change: (r: Mutable) => void): RunRecord {
  const copy = structuredClone(record) as unknown as Mutable;
  change(copy);
  return parseRecordText(recordText(copy as unknown as RunRecord), 'record.json');
}

function mismatch(scenario: Scenario, record: RunRecord, message: string | RegExp): void {
  expect(() => replayRecord(scenario, record, [], 'record.json')).toThrow(MismatchError);
  expect(() => replayRecord(scenario, record, [], 'record.json')).toThrow(message);
}

describe('replay check on the tiny world', () => {
  const scenario = testScenario(TINY);
  let record: RunRecord;
  beforeAll(async () => {
    record = (await runEpisode(testEpisodeStart(TINY), scriptedAgent(['EW', 'W']))).record;
  });

  it('the test world agrees with the real scenario loader and prepareEpisode', () => {
    expect(validateScenario(scenario.json, 'test').hash).toBe(scenario.hash);
    const real = prepareEpisode(scenario, '0');
    expect(real.fire.digest).toBe(testFireWorld(scenario).digest);
    expect(Array.from(real.startCells)).toEqual(Array.from(testEpisodeStart(TINY).startCells));
  });

  it('verifies an untouched record and returns its digest', () => {
    const result = replayRecord(scenario, record);
    expect(result).toMatchObject({ steps: 2, termination: 'all_resolved', digest: recordDigest(recordText(record)) });
    expect(Array.from(result.outcome.statusStep)).toEqual([1, 2]);
  });

  it('detects a changed action', () => {
    mismatch(scenario, tampered(record, (r) => (r.trajectory[0]!['actions'] = '.W')), 'record.json: trajectory[0].moved: recorded "E." but replay gives ".W"');
  });

  it('detects a changed moved character (a position)', () => {
    mismatch(scenario, tampered(record, (r) => (r.trajectory[0]!['moved'] = 'EW')), 'record.json: trajectory[0].moved: recorded "EW" but replay gives "E."');
  });

  it('detects changed statuses: evacuated, died and outcomes', () => {
    mismatch(scenario, tampered(record, (r) => (r.trajectory[0]!['evacuated'] = [])), 'record.json: trajectory[0].evacuated: recorded [] but replay gives [p0000]');
    mismatch(scenario, tampered(record, (r) => (r.trajectory[1]!['died'] = ['p0001'])), 'record.json: trajectory[1].died: recorded [p0001] but replay gives []');
    mismatch(scenario, tampered(record, (r) => (r.outcomes = [['evacuated', 1], ['dead', 2]])), 'record.json: outcomes[1] (p0001): recorded ["dead",2] but replay gives ["evacuated",2]');
    mismatch(scenario, tampered(record, (r) => (r.outcomes = [['evacuated', 1]])), 'record.json: outcomes: recorded 1 persons but replay gives 2');
  });

  it('detects a changed burning cell', () => {
    mismatch(scenario, tampered(record, (r) => (r.trajectory[0]!['burning'] = [[1, 3]])), 'record.json: trajectory[0].burning[0]: recorded [1,3] but replay gives [1,4]');
    mismatch(scenario, tampered(record, (r) => (r.trajectory[1]!['burning'] = [[1, 1]])), 'record.json: trajectory[1].burning: recorded 1 cells but replay gives 0');
    mismatch(scenario, tampered(record, (r) => (r.initial = { ...r.initial, burning: [[1, 4]] })), 'record.json: initial.burning: recorded 1 cells but replay gives 0');
  });

  it('names the position and person of a difference in a long string', async () => {
    const row: TestWorldSpec = { map: ['E'.repeat(75), 'P'.repeat(70) + '.....'], maxSteps: 3 };
    const long = (await runEpisode(testEpisodeStart(row), scriptedAgent(['N'.repeat(70)]))).record;
    const changed = 'N'.repeat(37) + '.' + 'N'.repeat(32);
    mismatch(testScenario(row), tampered(long, (r) => (r.trajectory[0]!['moved'] = changed)), 'record.json: trajectory[0].moved[37] (p0037): recorded "." but replay gives "N"');
  });

  it('detects a changed initial person cell', () => {
    mismatch(scenario, tampered(record, (r) => (r.initial = { ...r.initial, people: [[1, 1], [1, 4]] })), 'record.json: initial.people[1]: recorded [1,4] but replay gives [1,3]');
  });

  it('detects changed versions, scenario identity and seed', () => {
    mismatch(scenario, tampered(record, (r) => (r.simulator_version = '1.1')), 'record.json: simulator_version: recorded "1.1" but the running version is "1.0"');
    mismatch(scenario, tampered(record, (r) => (r.record_version = '2.0')), /record_version: recorded "2.0"/);
    mismatch(scenario, tampered(record, (r) => (r.observation_version = '0.9')), /observation_version/);
    mismatch(scenario, tampered(record, (r) => (r.action_schema_version = '1.1')), /action_schema_version/);
    mismatch(scenario, tampered(record, (r) => (r.scenario_hash = '0'.repeat(64))), /record\.json: scenario_hash: recorded 0{64} but the scenario's hash is 50b7bc4e/);
    mismatch(scenario, tampered(record, (r) => (r.scenario_id = 'other')), 'record.json: scenario_id: recorded "other" but the scenario is "test-world"');
    const start = testEpisodeStart({ ...TINY, seed: '5' });
    expect(() => replayFromStart(start, record, [], 'record.json')).toThrow('record.json: seed: the record was made with a different seed');
  });

  it('detects changed termination and step count, and steps past the end', () => {
    mismatch(scenario, tampered(record, (r) => (r.termination_reason = 'horizon')), 'record.json: termination_reason: recorded "horizon" but replay gives "all_resolved"');
    mismatch(scenario, tampered(record, (r) => (r.steps = 3)), 'record.json: steps: recorded 3 but replay gives 2');
    const extra = { actions: '', burning: [], died: [], evacuated: [], moved: '' };
    mismatch(scenario, tampered(record, (r) => r.trajectory.push(extra)), 'record.json: trajectory[2]: the replay terminates at step 2 (all_resolved) but the record continues');
  });

  it('rejects a truncated trajectory as a validation error, not a mismatch', () => {
    const truncated = tampered(record, (r) => r.trajectory.pop());
    expect(() => replayRecord(scenario, truncated, [], 'record.json')).toThrow(ValidationError);
    expect(() => replayRecord(scenario, truncated, [], 'record.json')).toThrow('record.json: the record ends at step 1 before the episode terminates');
  });

  it('treats an illegal recorded action as a mismatch', () => {
    const walled = testScenario({ map: ['#####', '#P.E#', '#####'], maxSteps: 2 });
    const run = { ...record, scenario_hash: walled.hash };
    const bad = tampered(run, (r) => {
      r.initial = { burning: [], people: [[1, 1]] };
      r.trajectory = [{ actions: 'N', burning: [], died: [], evacuated: [], moved: '.' }];
    });
    mismatch(walled, bad, 'record.json: trajectory[0].actions: a recorded action fails the action check: action for p0000: move N targets a wall at [0,1]');
    const wrongCount = tampered(run, (r) => {
      r.initial = { burning: [], people: [[1, 1]] };
      r.trajectory = [{ actions: 'EE', burning: [], died: [], evacuated: [], moved: 'E.' }];
    });
    mismatch(walled, wrongCount, 'record.json: trajectory[0].actions: recorded 2 actions but replay gives 1 active persons');
  });
});

describe('replay check on a hall with spread', () => {
  const scenario = validateScenario(testScenario(HALL).json, 'hall');
  let record: RunRecord;
  let runEvents: StepEvent[];
  beforeAll(async () => {
    runEvents = [];
    const observer: EpisodeObserver = { onStep: (e) => runEvents.push(e), onEnd: () => undefined };
    record = (await runEpisode(prepareEpisode(scenario, '7'), randomLegalAgent(1), [observer])).record;
  });

  it('has a trajectory worth testing: blocks, evacuations, deaths and spread', () => {
    const all = record.trajectory;
    expect(all.some((s) => s.moved !== s.actions)).toBe(true);
    expect(all.some((s) => s.evacuated.length > 0)).toBe(true);
    expect(all.some((s) => s.died.length > 0)).toBe(true);
    expect(all.filter((s) => s.burning.length > 0).length).toBeGreaterThan(3);
  });

  it('gives observers the same events as the run and verifies the record', () => {
    const replayEvents: StepEvent[] = [];
    let ends = 0;
    const observer: EpisodeObserver = { onStep: (e) => replayEvents.push(e), onEnd: () => ends++ };
    const result = replayRecord(scenario, parseRecordText(recordText(record), 'hall.json'), [observer]);
    expect(result.steps).toBe(record.steps);
    expect(ends).toBe(1);
    expect(replayEvents).toEqual(runEvents);
  });

  it('detects a changed action deep in the trajectory', () => {
    const k = record.trajectory.length - 2;
    const actions = record.trajectory[k]!.actions;
    const changed = (actions[0] === '.' ? 'N' : '.') + actions.slice(1);
    expect(() => replayRecord(scenario, tampered(record, (r) => (r.trajectory[k]!['actions'] = changed)))).toThrow(
      new RegExp(`trajectory\\[${k}\\]\\.(actions|moved)`),
    );
  });
});
