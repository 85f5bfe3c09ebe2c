import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { baselineFactory } from '../baselines/registry.js';
import { canonicalJson, type CanonicalInput } from '../json/canonical.js';
import { prepareEpisode } from '../world/episode-start.js';
import { parseScenarioText } from '../world/scenario.js';
import type { RunRecord } from './record.js';
import { asciiText } from '../ascii-text.js';
import { canonicalRecordBytes } from './record-text.js';
import { runEpisode } from './episode.js';

const SUITE = new URL('../../../scenarios/public/v1/', import.meta.url);
const scenarios = readdirSync(SUITE)
  .filter((name) => name.startsWith('v1-pub-'))
  .map((name) => parseScenarioText(readFileSync(new URL(name, SUITE), 'utf8'), name));

const generic = (value: unknown): string => canonicalJson(value as CanonicalInput) + '\n';
function outcome(run: () => string): { text: string } | { error: string } {
  try {
    return { text: run() };
  } catch (error) {
    return { error: (error as Error).message };
  }
}
const written = (record: RunRecord): string => asciiText(canonicalRecordBytes(record));

async function someRecord(): Promise<RunRecord> {
  return (await runEpisode(prepareEpisode(scenarios[0]!, '1'), await baselineFactory('random-legal-v1')!())).record;
}

describe('canonicalRecordBytes', () => {
  it('equals canonicalJson on records of every public scenario', async () => {
    for (const scenario of scenarios) {
      for (const agent of ['random-legal-v1', 'congestion-aware-v1']) {
        const { record } = await runEpisode(prepareEpisode(scenario, '2'), await baselineFactory(agent)!());
        expect(written(record)).toBe(generic(record));
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
      // Steps with a key too many (the empty key too), one missing, one undefined, or one inherited.
      { ...record, trajectory: [{ ...record.trajectory[0]!, '': 1 }] },
      { ...record, trajectory: [{ ...record.trajectory[0]!, extra: [] }] },
      { ...record, trajectory: [{ ...record.trajectory[0]!, moved: undefined }] },
      { ...record, trajectory: [Object.assign(Object.create({ moved: '.' }) as object, { ...record.trajectory[0]!, moved: undefined })] },
      { ...record, outcomes: [['evacuated', 3], ['dead', 0]] },
      { ...record, trajectory: [] },
    ];
    for (const value of odd) expect(written(value as RunRecord)).toBe(generic(value));
  });

  it('refuses what canonicalJson refuses, with its message', async () => {
    const record = await someRecord();
    const bad = { ...record, steps: 1.5 } as unknown as RunRecord;
    expect(() => canonicalRecordBytes(bad)).toThrow(/not an integer/);
    expect(() => generic(bad)).toThrow(/not an integer/);
    for (const pair of [[1, 2.5], [Number.NaN, 1], [1, '2']]) {
      const odd = { ...record, trajectory: [{ ...record.trajectory[0]!, burning: [[0, 0], pair] }] } as unknown as RunRecord;
      // The same refusal, or (a string where an integer was) the same text.
      expect(outcome(() => written(odd))).toEqual(outcome(() => generic(odd)));
    }
  });

  it('equals canonicalJson on what the byte writer treats apart: repeated, long, escaped and odd values', async () => {
    const record = await someRecord();
    const step = record.trajectory[0]!;
    const long = 'NESW.'.repeat(400);
    const odd: unknown[] = [
      // The same direction strings step after step (copied from where they were first written), then another, then the first again.
      { ...record, trajectory: [step, step, { ...step, actions: 'N', moved: '.' }, step, step] },
      // Long strings, plain and needing escapes, repeated.
      { ...record, trajectory: [{ ...step, actions: long, moved: long }, { ...step, actions: long, moved: long + '"\\' }, { ...step, actions: long + '\u00e9', moved: long }] },
      // Integers of every width, negative and past 1e9, in every integer field.
      { ...record, steps: 1_234_567_890_123, initial: { ...record.initial, people: [[0, 9], [10, 99], [100, 999], [1000, 99_999], [-1, -250], [1e9, 2 ** 53 - 1]] } },
      { ...record, outcomes: [['evacuated', 0], ['dead', 1e9 - 1], ['stranded', 1e9]] },
      // Long lists of pairs, small ones between odd ones (the buffer grows in the middle of a list).
      { ...record, initial: { ...record.initial, burning: Array.from({ length: 9000 }, (_, k) => (k % 7 === 0 ? [-k, 1e12 + k] : [k % 256, k])) } },
      { ...record, trajectory: [{ ...step, burning: [[-0, 0], [3, 4], [1e9 - 1, 1e9]] }] },
      // Ids that need escapes, and a record far past the buffer's first 64 KB.
      { ...record, trajectory: [{ ...step, died: ['p\u0001', 'caf\u00e9'], evacuated: ['"q"'] }] },
      { ...record, trajectory: Array.from({ length: 3000 }, (_, k) => ({ ...step, actions: 'NESW'.repeat(k % 40), burning: [[k % 256, k % 7]] })) },
    ];
    for (const value of odd) expect(written(value as RunRecord)).toBe(generic(value));
  });
});
