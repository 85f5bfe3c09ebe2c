/**
 * The archive as the runner's ResultSink (src/node/eval/sink.ts): each
 * committed episode or declared failure is one transaction (its record and
 * metrics as artifacts, its row, the trial's counts), so killing the process
 * loses at most the episodes in flight. A resumed trial's state is read
 * back from the archive (every artifact digest-checked; the records were
 * replay-checked when they were committed). When the queue is done, the
 * final result bytes are stored and the trial is scored exactly as
 * `emberbench score` scores the result file.
 */

import { OutputError } from '../../core/errors.js';
import type { ResultSink, ResumeState, SinkEntry, SinkFinal, SinkRun, SinkState } from '../eval/sink.js';
import type { Archive } from './archive.js';
import { getTrialDbRow } from './queries.js';
import type { ScoredTrial } from './score-trial.js';
import { setTrialStatus, storedEntries, storeEpisode, storeFailure, storeOutcome } from './trials-store.js';

export interface ArchiveSinkHooks {
  /** After each commit transaction (progress events). */
  readonly committed?: (entry: SinkEntry, state: SinkState) => void;
  /** Scores the final result text (off the caller's loop where possible); null when the trial cannot be scored. */
  readonly score: (resultText: string) => Promise<ScoredTrial | null>;
}

export class ArchiveSink implements ResultSink {
  constructor(
    private readonly archive: Archive,
    readonly trialId: number,
    private readonly hooks: ArchiveSinkHooks,
  ) {}

  resumeState(run: SinkRun): Promise<ResumeState> {
    const row = getTrialDbRow(this.archive.db, this.trialId);
    if (row === undefined) return Promise.reject(new OutputError(`archive: trial ${this.trialId} does not exist`));
    if (row.manifest_hash !== run.manifestHash) {
      return Promise.reject(new OutputError(`archive: trial ${this.trialId} runs manifest ${row.manifest_hash}, not ${run.manifestHash}`));
    }
    if (row.model_id !== run.modelId) {
      return Promise.reject(new OutputError(`archive: trial ${this.trialId} is of model ${JSON.stringify(row.model_id)}, not ${JSON.stringify(run.modelId)}`));
    }
    this.archive.write((db) => setTrialStatus(db, this.trialId, 'running'));
    try {
      return Promise.resolve(storedEntries(this.archive.db, this.trialId));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  commit(entry: SinkEntry, state: SinkState): Promise<void> {
    try {
      this.archive.write((db) => {
        switch (entry.kind) {
          case 'episode':
            storeEpisode(db, this.trialId, entry.episode, entry.scoring?.score ?? null);
            return;
          case 'failure':
            storeFailure(db, this.trialId, entry.failure);
            return;
        }
      });
    } catch (error) {
      return Promise.reject(error);
    }
    this.hooks.committed?.(entry, state);
    return Promise.resolve();
  }

  async finish(final: SinkFinal): Promise<void> {
    const scored = await this.hooks.score(final.text);
    this.archive.write((db) =>
      storeOutcome(db, this.trialId, {
        resultText: final.text,
        complete: final.completed === final.scheduled,
        report: scored?.report ?? null,
        reportText: scored?.reportText ?? null,
        summary: scored?.summary ?? null,
      }),
    );
  }

  stopped(): Promise<void> {
    // Whatever stopped the run (a cancel, a quit, an agent failure), what was committed stays and the trial can be resumed.
    try {
      this.archive.write((db) => setTrialStatus(db, this.trialId, 'interrupted'));
    } catch {
      // the archive may be closing; the next start marks a `running` trial interrupted anyway
    }
    return Promise.resolve();
  }
}
