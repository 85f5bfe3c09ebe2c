import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { baselineFactory } from '../baselines/registry.js';
import { canonicalJson, type CanonicalInput } from '../json/canonical.js';
import { prepareEpisode } from '../world/episode-start.js';
import { parseScenarioText } from '../world/scenario.js';
import type { RunRecord } from './record.js';
import { canonicalRecordJson } from './record-text.js';
import { runEpisode } from './episode.js';

const SUITE = new URL('../../../scenarios/public/v1/', import.meta.url);
const scenarios = readdirSync(SUITE)
  .filter((name) => name.startsWith('v1-pub-'))
  .map((name) => parseScenarioText(readFileSync(new URL(name, SUITE), 'utf8'), name));

const generic = (value: unknown): string => canonicalJson(value as CanonicalInput);

async function someRecord(): Promise<RunRecord> {
  return (await runEpisode(prepareEpisode(scenarios[0]!, '1'), await baselineFactory('random-legal-v1')!())).record;
}

describe('canonicalRecordJson', () => {
  it('equals canonicalJson on records of every public scenario', async () => {
    for (const scenario of scenarios) {
      for (const agent of ['random-legal-v1', 'congestion-aware-v1']) {
        const { record } = await runEpisode(prepareEpisode(scenario, '2'), await baselineFactory(agent)!());
        expect(canonicalRecordJson(record)).toBe(generic(record));
      }
    }
  });

  it('falls back to the generic writer for values off the record shape', async () => {
    const record = await someRecord();
    const odd: unknown[] = [
      { ...record, extra: 1 },
      { ...record, seed: undefined },
      { ...record, steps: -0 },
      { ...record, scenario_id: 'caf\u00e9 "x"' },
      { ...record, initial: { ...record.initial, people: [[1, 2, 3]] } },
      { ...record, trajectory: [{ ...record.trajectory[0]!, died: ['p\n'] }] },
      { ...record, outcomes: [['evacuated', 3], ['dead', 0]] },
      { ...record, trajectory: [] },
    ];
    for (const value of odd) expect(canonicalRecordJson(value as RunRecord)).toBe(generic(value));
  });

  it('refuses what canonicalJson refuses, with its message', async () => {
    const record = await someRecord();
    const bad = { ...record, steps: 1.5 } as unknown as RunRecord;
    expect(() => canonicalRecordJson(bad)).toThrow(/not an integer/);
    expect(() => generic(bad)).toThrow(/not an integer/);
  });
});
