import { describe, expect, it } from 'vitest';
import { Arena } from './arena.js';
import { replayRecord } from './authenticate-record.js';
import type { EpisodeObserver, StepEvent } from './events.js';
import { runEpisode } from './episode.js';
import { recordText } from './record.js';
import { randomLegalAgent, testEpisodeStart } from '../../../test/kits/worlds.js';

describe('arena', () => {
  it('never reuses memory without recycling', () => {
    const arena = new Arena();
    const first = arena.int32(3);
    first.set([1, 2, 3]);
    arena.stepDone();
    for (let k = 0; k < 1000; k++) arena.int32(100).fill(-1);
    expect(Array.from(first)).toEqual([1, 2, 3]);
  });

  it('with recycling keeps a step valid until the next is done, then hands its memory out zeroed', () => {
    const arena = new Arena();
    arena.recycle();
    const a = arena.int32(1000);
    a.fill(7);
    arena.stepDone();
    const b = arena.uint8(4000);
    expect(b.every((v) => v === 0)).toBe(true);
    b.fill(9);
    expect(a.every((v) => v === 7)).toBe(true); // the step before is still intact
    arena.stepDone();
    const c = arena.int32(1000);
    expect(c.every((v) => v === 0)).toBe(true);
    expect(c.buffer).toBe(a.buffer); // a's chunk, reused
    expect(b.every((v) => v === 9)).toBe(true);
  });

  it('grows a recycled chunk to hold a larger step', () => {
    const arena = new Arena();
    arena.recycle();
    const small = arena.int32(10);
    small.fill(3);
    const big = arena.int32(1 << 18);
    big.fill(5);
    expect(small.every((v) => v === 3)).toBe(true);
    arena.stepDone();
    arena.stepDone();
    expect(arena.int32(1 << 18).every((v) => v === 0)).toBe(true);
  });

  it('runs and replays an episode to the same record with recycled arrays (no observers) as with kept ones', async () => {
    const map = ['E........E', '..........', '....##....', '..........', 'E........E'];
    const people: [number, number][] = [];
    for (let r = 0; r < 5; r++) for (let c = 0; c < 10; c++) if (map[r]![c] === '.' && (r + c) % 2 === 0) people.push([r, c]);
    const spec = { map, people, fire: [{ cell: [2, 2] as const, step: 3 }], maxSteps: 30 };
    const kept: StepEvent[] = [];
    const keeper: EpisodeObserver = { onStep: (event) => kept.push(event), onEnd: () => {} };
    const recycled = await runEpisode(testEpisodeStart(spec), randomLegalAgent(11));
    const plain = await runEpisode(testEpisodeStart(spec), randomLegalAgent(11), [keeper]);
    expect(recordText(recycled.record)).toBe(recordText(plain.record));
    // Kept events stay as they were when emitted: every step's cells after movement are distinct.
    expect(kept.length).toBe(plain.record.steps);
    for (const event of kept) expect(new Set(event.resolution.cells).size).toBe(event.active.length);
    const start = testEpisodeStart(spec);
    expect(replayRecord(start.scenario, recycled.record).steps).toBe(plain.record.steps);
    const replayed: StepEvent[] = [];
    replayRecord(start.scenario, recycled.record, [{ onStep: (event) => replayed.push(event), onEnd: () => {} }]);
    expect(replayed.map((event) => Array.from(event.resolution.cells))).toEqual(kept.map((event) => Array.from(event.resolution.cells)));
  });
});
