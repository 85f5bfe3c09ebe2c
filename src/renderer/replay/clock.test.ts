import { beforeEach, describe, expect, test } from 'vitest';
import { PlaybackClock, STEPS_PER_SECOND, type FrameScheduler } from './clock.js';

// A hand-driven frame scheduler: each frame() runs the pending callback at the given time.
let pending: ((now: number) => void) | null = null;
const frames: FrameScheduler = { request: (cb) => ((pending = cb), 1), cancel: () => (pending = null), now: () => 0 };
beforeEach(() => {
  pending = null;
});
const frame = (now: number) => {
  const cb = pending;
  pending = null;
  cb?.(now);
};

describe('PlaybackClock', () => {
  test('seeks within 0..max, steps by whole snapshots and tells every listener (lockstep)', () => {
    const clock = new PlaybackClock(10, frames);
    const seen: number[][] = [[], []];
    clock.subscribe((c) => seen[0]!.push(c.time));
    clock.subscribe((c) => seen[1]!.push(c.time));
    clock.seek(4.6);
    expect(clock.step).toBe(4);
    clock.stepBy(1);
    expect(clock.time).toBe(5);
    clock.seek(99);
    clock.stepBy(-100);
    expect(seen[0]).toEqual([4.6, 5, 10, 0]);
    expect(seen[1]).toEqual(seen[0]);
  });

  test('plays at STEPS_PER_SECOND times the speed, interpolating, and stops at the end', () => {
    const clock = new PlaybackClock(8, frames);
    clock.setSpeed(2);
    clock.play();
    frame(100);
    expect(clock.time).toBeCloseTo(0.1 * STEPS_PER_SECOND * 2);
    frame(200);
    expect(clock.time).toBeCloseTo(0.2 * STEPS_PER_SECOND * 2);
    for (let t = 300; pending !== null; t += 100) frame(t);
    expect(clock.time).toBe(8);
    expect(clock.playing).toBe(false);
    // Play from the end starts again at 0.
    clock.play();
    expect(clock.time).toBe(0);
    clock.pause();
    expect(pending).toBeNull();
  });

  test('a shorter episode clamps the time', () => {
    const clock = new PlaybackClock(50, frames);
    clock.seek(40);
    clock.setMax(30);
    expect(clock.time).toBe(30);
  });

  test('a clock at its end stays there when the length grows; elsewhere it keeps its time', () => {
    const clock = new PlaybackClock(60, frames);
    clock.seek(60);
    clock.setMax(63);
    expect(clock.time).toBe(63);
    clock.seek(10);
    clock.setMax(80);
    expect(clock.time).toBe(10);
    // A clock not yet given a length (0) starts at 0, not at the end.
    const fresh = new PlaybackClock(0, frames);
    fresh.setMax(40);
    expect(fresh.time).toBe(0);
  });
});
