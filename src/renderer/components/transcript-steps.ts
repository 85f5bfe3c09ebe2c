/** Which model call of a transcript drove a replay step (TranscriptPanel.tsx). */

import type { TranscriptLine } from '../../shared/api/contract.js';

/** The index of the call whose answer drove `step`: the last call at or before it, or -1. */
export function drivingCall(lines: readonly TranscriptLine[], step: number): number {
  let found = -1;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.step <= step) found = i;
    else break;
  }
  return found;
}
