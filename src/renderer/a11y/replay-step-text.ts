/**
 * The text alternative of one replay step, for people who cannot see the
 * map: the counts, how much is burning, where the chosen person is, and
 * who of the people still inside stands where (row, column), nearest the
 * top-left first, the first few by name and the rest counted. Built from
 * the decoded record alone, so it says exactly what the map draws.
 */

import { FRAME_ACTIVE, FRAME_DEAD, FRAME_EVACUATED, FRAME_STRANDED, NEVER_BURNS, type RecordFrames } from '../../core/replay/record-frames.js';
import { personId } from '../../core/sim/observation.js';

const STATUS = ['active', 'evacuated', 'dead', 'stranded'] as const;

/** People named one by one; beyond this they are counted. */
export const NAMED_PEOPLE = 12;

/** Person `i`'s status and cell at snapshot `s`, as "active at [row, col]". */
export function whereIs(frames: RecordFrames, s: number, i: number): string {
  const cell = frames.cells[s * frames.people + i]!;
  const state = STATUS[frames.status[s * frames.people + i]!] ?? 'unknown';
  return `${state} at [${Math.floor(cell / frames.cols)}, ${cell % frames.cols}]`;
}

export function stepCounts(frames: RecordFrames, step: number): string {
  const s = Math.min(step, frames.steps);
  const c = frames.counts;
  return `${c[s * 4 + FRAME_ACTIVE]} active, ${c[s * 4 + FRAME_EVACUATED]} evacuated, ${c[s * 4 + FRAME_DEAD]} dead, ${c[s * 4 + FRAME_STRANDED]} stranded`;
}

export function replayStepText(frames: RecordFrames, step: number, selected: number | null): string {
  const s = Math.min(step, frames.steps);
  let burning = 0;
  for (let cell = 0; cell < frames.burnStep.length; cell++) if (frames.burnStep[cell] !== NEVER_BURNS && frames.burnStep[cell]! <= s) burning += 1;
  const parts = [`Step ${s} of ${frames.steps}: ${stepCounts(frames, s)}; ${burning} burning ${burning === 1 ? 'cell' : 'cells'}.`];
  if (selected !== null && selected < frames.people) parts.push(`Chosen: ${personId(selected)}, ${whereIs(frames, s, selected)}.`);
  const inside: number[] = [];
  for (let i = 0; i < frames.people; i++) if (frames.status[s * frames.people + i] === FRAME_ACTIVE) inside.push(i);
  inside.sort((a, b) => frames.cells[s * frames.people + a]! - frames.cells[s * frames.people + b]! || a - b);
  if (inside.length > 0) {
    const named = inside.slice(0, NAMED_PEOPLE).map((i) => {
      const cell = frames.cells[s * frames.people + i]!;
      return `${personId(i)} [${Math.floor(cell / frames.cols)}, ${cell % frames.cols}]`;
    });
    const more = inside.length - named.length;
    parts.push(`Still inside: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}.`);
  }
  return parts.join(' ');
}

/** The next (`delta` 1) or previous (-1) person after `from` who is on the map (not evacuated) at step `s`, wrapping; null if none is. */
export function nextPersonOnMap(frames: RecordFrames, s: number, from: number | null, delta: 1 | -1): number | null {
  const step = Math.min(s, frames.steps);
  const n = frames.people;
  const start = from === null ? (delta === 1 ? -1 : 0) : from;
  for (let k = 1; k <= n; k++) {
    const i = (((start + delta * k) % n) + n) % n;
    if (frames.status[step * n + i] !== FRAME_EVACUATED) return i;
  }
  return null;
}
