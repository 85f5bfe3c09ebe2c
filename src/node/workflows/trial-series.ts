/**
 * Repeated trials (scoring-v1.0.md section 12): trials `first`..K of one
 * manifest with one agent configuration, one after another, each with its
 * operational record built here (trial-record.ts) once its run ended. The
 * one loop of the CLI (`evaluation run --trials K`, trials.ts: each trial
 * into its own result and record files) and of the app (services/runs.ts:
 * each trial a row of the archive, its record an artifact; a series that a
 * Cancel or a restart stopped goes on from the trial it stopped at).
 *
 * What differs between the two is behind TrialSeriesSteps: how trial k
 * runs and where its result and its record are kept.
 */

import type { OperationalRecord } from '../../core/scoring/operational.js';
import { trialRecordOf, type TrialRecordInput } from './trial-record.js';

/** Where a series stands: trial `trial` (1-based) of `trials`. */
export interface TrialProgress {
  readonly trial: number;
  readonly trials: number;
}

/** What the loop hands to the run of trial k. */
export interface TrialHandle {
  /** Trial k of K. */
  readonly progress: TrialProgress;
  /** Call when trial k's run begins (after its outputs were checked): the series' onTrial hears it. */
  started(): void;
  /**
   * Builds the trial's operational record from its finished run and keeps it
   * (TrialSeriesSteps.keepRecord), inside whatever the run holds (the CLI's
   * output lock); answers it, or null for an agent without one (a builtin).
   */
  record(input: TrialRecordInput): Promise<OperationalRecord | null>;
}

/** The caller's part of a series: running trial k, and keeping what it produced. */
export interface TrialSeriesSteps<Outcome> {
  /** Runs trial k: its result into a file or into the archive; its record through `handle.record`. */
  runTrial(handle: TrialHandle): Promise<Outcome>;
  /** Keeps trial k's operational record: a file beside its result, or an artifact with its trial. */
  keepRecord(progress: TrialProgress, record: OperationalRecord): Promise<void> | void;
  /** Whether the series goes on after trial k (absent: always; the app stops after a cancel or a failure). */
  goOn?(outcome: Outcome, progress: TrialProgress): boolean;
}

export interface TrialSeriesOptions {
  /** The first trial to run (1-based): 1, or where a stopped series goes on. */
  readonly first: number;
  /** K, the series' number of trials. */
  readonly trials: number;
  /** Told when each trial's run begins (`trial k/K` on the CLI's stderr). */
  readonly onTrial?: (progress: TrialProgress) => void;
}

/**
 * Runs trials first..K one after another and answers their outcomes. Trial
 * `first` is started before this returns, so a host that refuses to start
 * it (a full disk refusing the first write) throws here, to its caller.
 */
export function runTrialSeries<Outcome>(steps: TrialSeriesSteps<Outcome>, options: TrialSeriesOptions): Promise<Outcome[]> {
  if (!Number.isSafeInteger(options.first) || !Number.isSafeInteger(options.trials) || options.first < 1 || options.first > options.trials) {
    throw new RangeError(`trial series: trial ${options.first} of ${options.trials} is not a trial of the series`);
  }
  const handle = (trial: number): TrialHandle => {
    const progress: TrialProgress = { trial, trials: options.trials };
    return {
      progress,
      started: () => options.onTrial?.(progress),
      record: async (input) => {
        const record = await trialRecordOf(input);
        if (record !== null) await steps.keepRecord(progress, record);
        return record;
      },
    };
  };
  const first = handle(options.first);
  const firstRun = steps.runTrial(first);
  return (async () => {
    const outcomes: Outcome[] = [];
    let progress = first.progress;
    let outcome = await firstRun;
    for (;;) {
      outcomes.push(outcome);
      if (progress.trial === options.trials || steps.goOn?.(outcome, progress) === false) return outcomes;
      const next = handle(progress.trial + 1);
      progress = next.progress;
      outcome = await steps.runTrial(next);
    }
  })();
}
