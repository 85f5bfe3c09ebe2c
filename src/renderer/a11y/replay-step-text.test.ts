import { describe, expect, it } from 'vitest';
import { NEVER_BURNS, type RecordFrames } from '../../core/replay/record-frames.js';
import { nextPersonOnMap, replayStepText } from './replay-step-text.js';

/** Three people on a 3 x 4 map over two steps: p0001 leaves at step 1, p0002 dies at step 2; one cell burns from step 1. */
function frames(): RecordFrames {
  const cols = 4;
  const at = (r: number, c: number) => r * cols + c;
  return {
    rows: 3,
    cols,
    people: 3,
    steps: 2,
    cells: Int32Array.from([at(1, 1), at(0, 3), at(2, 2), at(1, 2), at(0, 3), at(2, 1), at(1, 3), at(0, 3), at(2, 1)]),
    status: Uint8Array.from([0, 0, 0, 0, 1, 0, 0, 1, 2]),
    burnStep: Int32Array.from([NEVER_BURNS, NEVER_BURNS, NEVER_BURNS, NEVER_BURNS, NEVER_BURNS, NEVER_BURNS, NEVER_BURNS, NEVER_BURNS, NEVER_BURNS, 1, NEVER_BURNS, NEVER_BURNS]),
    blocked: new Uint8Array(6),
    counts: Int32Array.from([3, 0, 0, 0, 2, 1, 0, 0, 1, 1, 1, 0]),
  };
}

describe('the text alternative of a replay step', () => {
  it('says the counts, the fire and where each person still inside is, top-left first', () => {
    expect(replayStepText(frames(), 0, null)).toBe('Step 0 of 2: 3 active, 0 evacuated, 0 dead, 0 stranded; 0 burning cells. Still inside: p0001 [0, 3], p0000 [1, 1], p0002 [2, 2].');
    expect(replayStepText(frames(), 1, null)).toBe('Step 1 of 2: 2 active, 1 evacuated, 0 dead, 0 stranded; 1 burning cell. Still inside: p0000 [1, 2], p0002 [2, 1].');
  });

  it('names the chosen person first, in any state, and clamps past the last step', () => {
    expect(replayStepText(frames(), 9, 2)).toBe('Step 2 of 2: 1 active, 1 evacuated, 1 dead, 0 stranded; 1 burning cell. Chosen: p0002, dead at [2, 1]. Still inside: p0000 [1, 3].');
  });

  it('counts the people beyond the first twelve instead of naming them', () => {
    const people = 20;
    const f: RecordFrames = { rows: 1, cols: people, people, steps: 0, cells: Int32Array.from({ length: people }, (_, i) => i), status: new Uint8Array(people), burnStep: new Int32Array(people).fill(NEVER_BURNS), blocked: new Uint8Array(0), counts: Int32Array.from([people, 0, 0, 0]) };
    expect(replayStepText(f, 0, null)).toMatch(/p0011 \[0, 11\] and 8 more\.$/);
  });

  it('chooses the next or previous person still on the map, wrapping, skipping evacuees', () => {
    const f = frames();
    expect(nextPersonOnMap(f, 0, null, 1)).toBe(0);
    expect(nextPersonOnMap(f, 0, null, -1)).toBe(2);
    expect(nextPersonOnMap(f, 1, 0, 1)).toBe(2);
    expect(nextPersonOnMap(f, 1, 2, 1)).toBe(0);
    expect(nextPersonOnMap(f, 1, 0, -1)).toBe(2);
  });
});
