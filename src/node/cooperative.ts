/**
 * Runs a core computation given as steps (src/core/steps.ts) without
 * holding the event loop: after each slice of about SLICE_MS of work it
 * yields (setImmediate), so a SIGINT handler runs within a slice and the
 * command exits 130 at once instead of after the computation. The steps are
 * the same as runSteps', so the result is identical.
 */

import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { StepProgress, Steps } from '../core/steps.js';

/** Work between two turns of the event loop: well under the 100 ms an interrupt may wait. */
export const SLICE_MS = 20;

export interface DriveOptions {
  /** Called at the end of each slice with the last progress the steps reported. */
  readonly onProgress?: (progress: StepProgress) => void;
}

/** Runs `steps` to their end, yielding to the event loop every SLICE_MS; returns their result. */
export async function driveSteps<T>(steps: Steps<T>, options: DriveOptions = {}): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
    if (performance.now() - sliceStart >= SLICE_MS) {
      options.onProgress?.(next.value);
      await nextTurn();
      sliceStart = performance.now();
    }
  }
}
