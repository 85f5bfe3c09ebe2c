import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { baselineFactory } from '../../core/baselines/registry.js';
import { FRAME_DEAD, FRAME_EVACUATED, FRAME_STRANDED } from '../../core/replay/record-frames.js';
import { recordText } from '../../core/sim/record.js';
import { runEpisode } from '../../core/sim/episode.js';
import { prepareEpisode } from '../../core/world/episode-start.js';
import { parseScenarioText } from '../../core/world/scenario.js';
import { LOSS_AVOIDABLE, LOSS_NONE, LOSS_UNAVOIDABLE, decodeEpisode, episodeData, loadEpisode, transferablesOf, type EpisodeSource } from './episode-data.js';

const FILE = join(import.meta.dirname, '../../../scenarios/public/v1/v1-pub-05-central-ignition.json');
const scenarioText = readFileSync(FILE, 'utf8');

async function episode(): Promise<string> {
  const scenario = parseScenarioText(scenarioText, FILE);
  const run = await runEpisode(prepareEpisode(scenario, '3'), await baselineFactory('static-shortest-path-v1')!());
  return recordText(run.record);
}

const input = (record: string | null, evidence: EpisodeSource['evidence'] = null) => ({ scenarioId: 'v1-pub-05-central-ignition', scenarioText, recordText: record, evidence, failure: null });

describe('loadEpisode', () => {
  test('an authentic record decodes: the last snapshot counts are the record outcome', async () => {
    const text = await episode();
    const loaded = loadEpisode(input(text));
    if (!loaded.ok) throw new Error(loaded.message);
    const { frames, outcomes } = loaded.data;
    const last = frames.steps * 4;
    const count = (s: string) => outcomes.filter(([o]) => o === s).length;
    expect([frames.counts[last + FRAME_EVACUATED], frames.counts[last + FRAME_DEAD], frames.counts[last + FRAME_STRANDED]]).toEqual([count('evacuated'), count('dead'), count('stranded')]);
    expect(loaded.data.hasEvidence).toBe(false);
    const refs = loaded.data.references();
    expect(refs.earliest).toHaveLength(frames.people);
    // Every evacuee took at least as long as the privileged reference allows.
    outcomes.forEach(([o, step], i) => {
      if (o === 'evacuated') expect(step).toBeGreaterThanOrEqual(refs.earliest[i]!);
    });
  });

  test('the decoded episode crosses a thread boundary whole: cloned with its arrays transferred, it is the same episode', async () => {
    const decoded = decodeEpisode(input(await episode()));
    if (!decoded.ok) throw new Error(decoded.message);
    const here = loadEpisode(input(await episode()));
    if (!here.ok) throw new Error(here.message);
    // What postMessage does between the episode worker and the page.
    const moved = structuredClone(decoded.data, { transfer: transferablesOf(decoded.data) });
    expect(decoded.data.frames.cells.length, 'transferred, not copied').toBe(0);
    const data = episodeData(moved);
    expect(data.frames).toEqual(here.data.frames);
    expect([data.dangerOnset, data.loss, data.grid, data.outcomes, data.terminationReason, data.scenarioId]).toEqual([here.data.dangerOnset, here.data.loss, here.data.grid, here.data.outcomes, here.data.terminationReason, here.data.scenarioId]);
    expect(data.references()).toEqual(here.data.references());
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
