import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { baselineFactory } from '../../core/baselines/registry.js';
import { FRAME_DEAD, FRAME_EVACUATED, FRAME_STRANDED } from '../../core/replay/record-frames.js';
import { recordText } from '../../core/sim/record.js';
import { runEpisode } from '../../core/sim/runner.js';
import { prepareEpisode } from '../../core/world/episode-start.js';
import { parseScenarioText } from '../../core/world/scenario.js';
import { LOSS_AVOIDABLE, LOSS_NONE, LOSS_UNAVOIDABLE, loadEpisode } from './episode-data.js';

const FILE = join(import.meta.dirname, '../../../scenarios/public/v1/v1-pub-05-central-ignition.json');
const scenarioText = readFileSync(FILE, 'utf8');

async function episode(): Promise<string> {
  const scenario = parseScenarioText(scenarioText, FILE);
  const run = await runEpisode(prepareEpisode(scenario, '3'), await baselineFactory('static-shortest-path-v1')!());
  return recordText(run.record);
}

const input = (record: string | null, evidence: unknown = null) => ({ scenarioId: 'v1-pub-05-central-ignition', scenarioText, recordText: record, evidence, failure: null });

describe('loadEpisode', () => {
  test('an authentic record decodes: the last snapshot counts are the record outcome', async () => {
    const text = await episode();
    const loaded = loadEpisode(input(text));
    if (!loaded.ok) throw new Error(loaded.message);
    const { frames, record } = loaded.data;
    const last = frames.steps * 4;
    const count = (s: string) => record.outcomes.filter(([o]) => o === s).length;
    expect([frames.counts[last + FRAME_EVACUATED], frames.counts[last + FRAME_DEAD], frames.counts[last + FRAME_STRANDED]]).toEqual([count('evacuated'), count('dead'), count('stranded')]);
    expect(loaded.data.hasEvidence).toBe(false);
    const refs = loaded.data.references();
    expect(refs.earliest).toHaveLength(frames.people);
    // Every evacuee took at least as long as the privileged reference allows.
    record.outcomes.forEach(([o, step], i) => {
      if (o === 'evacuated') expect(step).toBeGreaterThanOrEqual(refs.earliest[i]!);
    });
  });

  test('a record changed in one step fails the replay and is not decoded; the message names the step', async () => {
    const text = await episode();
    const value = JSON.parse(text) as { trajectory: { moved: string }[] };
    const step = value.trajectory.findIndex((s) => /[NESW]/.test(s.moved));
    const moved = value.trajectory[step]!.moved;
    const k = moved.search(/[NESW]/);
    value.trajectory[step]!.moved = moved.slice(0, k) + '.' + moved.slice(k + 1);
    // Keep the text canonical (the strict reader would refuse it otherwise): same key order, one LF.
    const tampered = text.replace(JSON.stringify(moved), JSON.stringify(value.trajectory[step]!.moved));
    expect(tampered).not.toBe(text);
    const loaded = loadEpisode(input(tampered));
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.stage).toBe('replay');
    expect(loaded.message).toContain(`trajectory[${step}]`);
  });

  test('malformed text and a missing record are refused with their stage', () => {
    const bad = loadEpisode(input('{"record_version": 1}\n'));
    expect(bad.ok === false && bad.stage).toBe('record');
    const none = loadEpisode({ ...input(null), failure: { kind: 'timeout', message: 'the agent took too long' } });
    expect(none.ok === false && none.stage).toBe('missing');
    expect(none.ok === false && none.message).toBe('timeout: the agent took too long');
  });

  test("losses are classed from the score report's evidence", async () => {
    const evidence = { trials: [{ people: { avoidable_casualty_ids: ['p0001'], avoidable_stranded_ids: [], unavoidable_casualty_ids: ['p0002'], unavoidable_stranded_ids: ['p0003'] } }] };
    const loaded = loadEpisode(input(await episode(), evidence));
    if (!loaded.ok) throw new Error(loaded.message);
    expect(Array.from(loaded.data.loss.slice(0, 5))).toEqual([LOSS_NONE, LOSS_AVOIDABLE, LOSS_UNAVOIDABLE, LOSS_UNAVOIDABLE, LOSS_NONE]);
    expect(loaded.data.hasEvidence).toBe(true);
  });
});
