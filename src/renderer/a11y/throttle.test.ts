import { describe, expect, it } from 'vitest';
import { Throttle, type ThrottleTimers } from './throttle.js';

/** A hand-driven clock: timers fire when `advance` passes them. */
function fakeTimers(): ThrottleTimers & { advance(ms: number): void } {
  let now = 0;
  let next = 1;
  const due = new Map<number, { at: number; callback: () => void }>();
  return {
    now: () => now,
    set: (callback, ms) => {
      due.set(next, { at: now + ms, callback });
      return next++;
    },
    clear: (handle) => void due.delete(handle as number),
    advance(ms) {
      now += ms;
      for (const [id, t] of [...due].sort((a, b) => a[1].at - b[1].at)) {
        if (t.at > now) continue;
        due.delete(id);
        t.callback();
      }
    },
  };
}

describe('Throttle (announcements at most once per interval)', () => {
  it('says the first text at once, then only the latest of a burst, one interval later', () => {
    const timers = fakeTimers();
    const said: string[] = [];
    const t = new Throttle(1000, (s) => said.push(s), timers);
    t.offer('step 1');
    expect(said).toEqual(['step 1']);
    for (let s = 2; s <= 9; s++) {
      timers.advance(100);
      t.offer(`step ${s}`);
    }
    expect(said).toEqual(['step 1']);
    timers.advance(200);
    expect(said).toEqual(['step 1', 'step 9']);
  });

  it('never says more than one text per interval over a long run', () => {
    const timers = fakeTimers();
    const at: number[] = [];
    const t = new Throttle(1000, () => at.push(timers.now()), timers);
    for (let i = 0; i < 600; i++) {
      t.offer(`step ${i}`);
      timers.advance(16);
    }
    timers.advance(2000);
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(1000);
    expect(at.length).toBeGreaterThan(5);
  });

  it('does not repeat an unchanged text, and a disposed throttle says nothing more', () => {
    const timers = fakeTimers();
    const said: string[] = [];
    const t = new Throttle(1000, (s) => said.push(s), timers);
    t.offer('a');
    timers.advance(5000);
    t.offer('a');
    expect(said).toEqual(['a']);
    t.offer('b');
    t.offer('c');
    t.dispose();
    timers.advance(5000);
    expect(said).toEqual(['a', 'b']);
  });
});
