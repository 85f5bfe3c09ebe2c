import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baselineFactory } from '../baselines/registry.js';
import { parseScenarioText } from '../world/scenario.js';
import { prepareEpisode } from '../world/episode-start.js';
import { runEpisode } from '../sim/episode.js';
import { replayRecord } from '../sim/authenticate-record.js';
import type { StepEvent } from '../sim/events.js';
import { decodeRecordFrames, FRAME_ACTIVE, FRAME_DEAD, FRAME_EVACUATED, FRAME_STRANDED, NEVER_BURNS } from './record-frames.js';

const PUBLIC = join(import.meta.dirname, '..', '..', '..', 'scenarios', 'public', 'v1');
const STATUS = { evacuated: FRAME_EVACUATED, dead: FRAME_DEAD, stranded: FRAME_STRANDED } as const;

describe('decodeRecordFrames', () => {
  const files = readdirSync(PUBLIC).filter((f) => f.startsWith('v1-pub')).slice(0, 6);
  it.each(files)('agrees with the replayed simulation on %s', async (file) => {
    const scenario = parseScenarioText(readFileSync(join(PUBLIC, file), 'utf8'), file);
    const run = await runEpisode(prepareEpisode(scenario, '2'), await baselineFactory('fire-aware-shortest-path-v1')!());
    const record = run.record;
    const frames = decodeRecordFrames(scenario.grid, record);
    expect(frames.steps).toBe(record.steps);
    expect(frames.people).toBe(scenario.population);

    // Every active person's cell at every snapshot equals the one the replay saw.
    const seen: { t: number; active: Int32Array; cells: Int32Array }[] = [];
    replayRecord(scenario, record, [{ onStep: (e: StepEvent) => seen.push({ t: e.t, active: e.active.slice(), cells: e.cellsBefore.slice() }), onEnd: () => undefined }]);
    for (const { t, active, cells } of seen) {
      active.forEach((person, k) => {
        expect(frames.status[t * frames.people + person]).toBe(FRAME_ACTIVE);
        expect(frames.cells[t * frames.people + person]).toBe(cells[k]);
      });
    }
    // Final statuses and counts are the record's outcomes.
    const last = record.steps * frames.people;
    record.outcomes.forEach(([status, step], i) => {
      expect(frames.status[last + i]).toBe(STATUS[status]);
      if (status !== 'stranded') {
        expect(frames.status[step * frames.people + i]).toBe(STATUS[status]);
        expect(frames.status[(step - 1) * frames.people + i]).toBe(FRAME_ACTIVE);
      }
    });
    const counts = Array.from(frames.counts.slice(record.steps * 4, record.steps * 4 + 4));
    expect(counts).toEqual([0, ...(['evacuated', 'dead', 'stranded'] as const).map((s) => record.outcomes.filter(([x]) => x === s).length)]);
    // The fire only grows from B(0), and every recorded ignition is there.
    const burning = record.initial.burning.length + record.trajectory.reduce((n, step) => n + step.burning.length, 0);
    expect(Array.from(frames.burnStep).filter((s) => s !== NEVER_BURNS).length).toBe(burning);
  });
});
