import { describe, expect, it } from 'vitest';
import { Arena } from './arena.js';
import { replayRecord } from './authenticate-record.js';
import { stepArraysRecyclable, type EpisodeObserver, type StepEvent } from './events.js';
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

  it('with recycling hands a step the views of the step before last again, zeroed, when it asks for the same arrays', () => {
    const arena = new Arena();
    arena.recycle();
    const a = arena.int32(10);
    const b = arena.uint8(7);
    a.fill(4);
    b.fill(6);
    arena.stepDone();
    const other = arena.int32(10);
    arena.stepDone();
    const a2 = arena.int32(10);
    const b2 = arena.uint8(7);
    expect(a2).toBe(a);
    expect(b2).toBe(b);
    expect(a2.every((v) => v === 0) && b2.every((v) => v === 0)).toBe(true);
    expect(other).not.toBe(a);
    arena.stepDone();
    arena.stepDone();
    // Another length or type at a position: a new view over the same memory.
    const shorter = arena.int32(9);
    expect(shorter).not.toBe(a);
    expect(shorter.buffer).toBe(a.buffer);
    expect(arena.int32(2)).toBeInstanceOf(Int32Array);
    // Without recycling every request is a new view.
    const plain = new Arena();
    const p1 = plain.int32(4);
    plain.stepDone();
    plain.stepDone();
    expect(plain.int32(4)).not.toBe(p1);
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

/** What an observer reads of a step, copied during onStep. */
function snapshot(event: StepEvent): unknown {
  const { resolution } = event;
  return {
    t: event.t,
    active: Array.from(event.active),
    cellsBefore: Array.from(event.cellsBefore),
    moves: Array.from(event.moves),
    cells: Array.from(resolution.cells),
    blocked: Array.from(resolution.blocked),
    evacuated: Array.from(resolution.evacuated),
    contested: [...resolution.contested],
    died: Array.from(event.died),
    newlyBurning: [...event.newlyBurning],
  };
}

/** Where each step's `cellsBefore` lives: its chunk and offset. */
interface Region {
  readonly buffer: ArrayBufferLike;
  readonly offset: number;
}

/** How many different memory regions the steps' `cellsBefore` arrays took. */
function distinctRegions(regions: readonly Region[]): number {
  const chunks: ArrayBufferLike[] = [];
  const keys = new Set<string>();
  for (const { buffer, offset } of regions) {
    if (!chunks.includes(buffer)) chunks.push(buffer);
    keys.add(`${chunks.indexOf(buffer)}:${offset}`);
  }
  return keys.size;
}

/** An observer that copies each step during onStep and remembers where its arrays lived; `declares` sets readsOnlyDuringStep. */
function copier(declares: boolean): EpisodeObserver & { copies: unknown[]; buffers: Region[]; events: StepEvent[] } {
  const copies: unknown[] = [];
  const buffers: Region[] = [];
  const events: StepEvent[] = [];
  return {
    ...(declares ? { readsOnlyDuringStep: true } : {}),
    copies,
    buffers,
    events,
    onStep: (event) => {
      copies.push(snapshot(event));
      buffers.push({ buffer: event.cellsBefore.buffer, offset: event.cellsBefore.byteOffset });
      events.push(event);
    },
    onEnd: () => {},
  };
}

describe('arena recycling with observers', () => {
  const map = ['E.........E', '...........', '....###....', '...........', 'E.........E'];
  const people: [number, number][] = [];
  for (let r = 0; r < 5; r++) for (let c = 0; c < 11; c++) if (map[r]![c] === '.' && (r + c) % 2 === 1) people.push([r, c]);
  const spec = { map, people, fire: [{ cell: [2, 1] as const, step: 2 }], maxSteps: 40 };

  it('recycles only when every observer reads during onStep alone', () => {
    expect(stepArraysRecyclable([])).toBe(true);
    expect(stepArraysRecyclable([copier(true), copier(true)])).toBe(true);
    expect(stepArraysRecyclable([copier(true), copier(false)])).toBe(false);
  });

  it('runs and replays to the same record and shows observers the same data whether arrays are recycled or kept', async () => {
    const recycling = copier(true);
    const keeping = copier(false);
    const recycled = await runEpisode(testEpisodeStart(spec), randomLegalAgent(5), [recycling]);
    const kept = await runEpisode(testEpisodeStart(spec), randomLegalAgent(5), [keeping]);
    expect(recordText(recycled.record)).toBe(recordText(kept.record));
    expect(recycled.record.steps).toBeGreaterThan(4);
    expect(recycling.copies).toEqual(keeping.copies);
    // Recycled: step t + 2 takes step t's memory; kept: every step has fresh arrays, still intact.
    expect(recycling.buffers[2]!.buffer).toBe(recycling.buffers[0]!.buffer);
    expect(distinctRegions(recycling.buffers)).toBeLessThan(recycling.buffers.length);
    expect(distinctRegions(keeping.buffers)).toBe(keeping.buffers.length);
    expect(keeping.events.map(snapshot)).toEqual(keeping.copies);

    const start = testEpisodeStart(spec);
    const replayRecycling = copier(true);
    const replayKeeping = copier(false);
    expect(replayRecord(start.scenario, kept.record, [replayRecycling]).steps).toBe(kept.record.steps);
    replayRecord(start.scenario, kept.record, [replayKeeping]);
    expect(replayRecycling.copies).toEqual(keeping.copies);
    expect(replayKeeping.copies).toEqual(keeping.copies);
    expect(replayRecycling.buffers[2]!.buffer).toBe(replayRecycling.buffers[0]!.buffer);
    expect(distinctRegions(replayRecycling.buffers)).toBeLessThan(replayRecycling.buffers.length);
    expect(distinctRegions(replayKeeping.buffers)).toBe(replayKeeping.buffers.length);
    expect(replayKeeping.events.map(snapshot)).toEqual(keeping.copies);
  });

  it('keeps arrays fresh when any one observer may keep them', async () => {
    const declaring = copier(true);
    const keeping = copier(false);
    await runEpisode(testEpisodeStart(spec), randomLegalAgent(5), [declaring, keeping]);
    expect(distinctRegions(declaring.buffers)).toBe(declaring.buffers.length);
    expect(keeping.events.map(snapshot)).toEqual(keeping.copies);
  });
});
