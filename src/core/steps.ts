/**
 * A long computation of the core as a generator of steps: it yields its
 * progress every so often and returns its result. The core stays pure (no
 * clock, no event loop); the caller decides what happens between steps:
 * runSteps runs them back to back (the synchronous API), the Node layer
 * (src/node/cooperative.ts) yields to the event loop between slices, so a
 * Ctrl+C handler runs within a slice and progress can be shown. The steps
 * do the same work in the same order either way: results are identical.
 */

export interface StepProgress {
  /** What is being computed, a few words ("bootstrap resamples"). */
  readonly what: string;
  readonly done: number;
  readonly total: number;
}

export type Steps<T> = Generator<StepProgress, T, void>;

/** Runs every step back to back and returns the result. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
  }
}

/**
 * How much inner-loop work (about one unit draw per metric, or one element)
 * a step may do before it yields: small enough that a step takes well under
 * a millisecond, large enough that yielding costs nothing measurable.
 */
export const STEP_WORK = 1 << 15;
