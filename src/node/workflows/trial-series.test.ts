// The one repeated-trials loop: trials first..K in order, each told as it
// begins with (trial, trials), stopped where the caller says, and trial
// `first` started before the loop returns (a refused start throws at once).
import { describe, expect, it } from 'vitest';
import type { EvaluationRunSummary } from '../eval/runner.js';
import { runTrialSeries, type TrialProgress, type TrialSeriesSteps } from './trial-series.js';

/** A builtin agent's trial: the loop builds no record for it. */
const BUILTIN_RUN = {
  modelId: 'm',
  agent: { kind: 'builtin', id: 'always-stay' },
  agentPaths: [],
  actTimeoutMs: 1000,
  isolation: 'in_process',
  summary: { result: { episodes: [], failures: [] } } as unknown as EvaluationRunSummary,
  wallMs: 1,
} as const;

function steps(log: string[], stopAfter?: number): TrialSeriesSteps<number> {
  return {
    runTrial: async (trial) => {
      log.push(`run ${trial.progress.trial}/${trial.progress.trials}`);
      trial.started();
      expect(await trial.record(BUILTIN_RUN)).toBeNull();
      return trial.progress.trial;
    },
    keepRecord: ({ trial }) => {
      log.push(`keep ${trial}`);
    },
    goOn: (outcome) => outcome !== stopAfter,
  };
}

describe('runTrialSeries', () => {
  it('runs trials first..K one after another, telling each as it begins', async () => {
    const log: string[] = [];
    const told: TrialProgress[] = [];
    expect(await runTrialSeries(steps(log), { first: 1, trials: 3, onTrial: (p) => told.push(p) })).toEqual([1, 2, 3]);
    expect(log).toEqual(['run 1/3', 'run 2/3', 'run 3/3']);
    expect(told).toEqual([
      { trial: 1, trials: 3 },
      { trial: 2, trials: 3 },
      { trial: 3, trials: 3 },
    ]);
  });

  it('goes on from a later trial (a resumed series) and stops where the caller says', async () => {
    const log: string[] = [];
    expect(await runTrialSeries(steps(log), { first: 3, trials: 4 })).toEqual([3, 4]);
    expect(await runTrialSeries(steps(log, 2), { first: 1, trials: 4 })).toEqual([1, 2]);
    expect(log).toEqual(['run 3/4', 'run 4/4', 'run 1/4', 'run 2/4']);
  });

  it('starts trial `first` before it returns: a refused start throws to the caller, and a trial outside the series is refused', () => {
    const refusing: TrialSeriesSteps<number> = {
      runTrial: () => {
        throw new Error('disk full');
      },
      keepRecord: () => undefined,
    };
    expect(() => runTrialSeries(refusing, { first: 1, trials: 2 })).toThrow('disk full');
    expect(() => runTrialSeries(refusing, { first: 3, trials: 2 })).toThrow(/trial 3 of 2/);
  });
});
