/**
 * The archive as the runner's ResultSink (src/node/eval/sink.ts): each
 * committed episode or declared failure is one transaction (its record and
 * metrics as artifacts, its row, the trial's counts), so killing the process
 * loses at most the episodes in flight. The sink keeps the episodes
 * (storedResult), so the runner holds only their indices and a long run's
 * memory stays flat. A resumed trial's state is read back from the archive
 * (every artifact digest-checked; the records were replay-checked when they
 * were committed). When the queue is done, the final result is rebuilt from
 * the stored episodes (the same bytes: canonical JSON), stored, and scored
 * exactly as `emberbench score` scores the result file.
 */

import { OutputError } from '../../core/errors.js';
import { buildResult, resultDigest, resultText, type EvaluationResult, type FailureDeclaration } from '../../core/eval/result.js';
import { packChunksAsync, type PackedArtifact } from './artifacts.js';
import { canonicalJson } from '../../core/json/canonical.js';
import { describeBytes, MAX_TEXT_INPUT_BYTES } from '../inputs.js';
import type { ResultSink, ResumeState, SinkEntry, SinkFinal, SinkRun, SinkState } from '../eval/sink.js';
import type { Archive } from './archive.js';
import { getTrialDbRow } from './queries.js';
import {
  type ScoredTrial,
  packEpisodeAsync,
  setTrialStatus,
  storedEntries,
  storedEpisodeBytes,
  storedIndices,
  storeEpisode,
  storeFailure,
  storeOutcome,
} from './trials-store.js';
import { composeStoredResult, packStoredResult, type ComposedResult } from './stored-result.js';

export interface ArchiveSinkHooks {
  /** After each commit transaction (progress events). */
  readonly committed?: (entry: SinkEntry, state: SinkState) => void;
  /** Scores the final result, given as its UTF-8 bytes in chunks (off the caller's loop where possible); null when the trial cannot be scored. */
  readonly score: (result: readonly Uint8Array[]) => Promise<ScoredTrial | null>;
  /**
   * Scores a final result too large for one string from the stored episodes
   * (the archive worker's `score-stored` job), given its digest; without
   * it such a trial is stored unscored.
   */
  readonly scoreStored?: (fileDigest: string) => Promise<ScoredTrial | null>;
}

/**
 * The largest result a run from the app keeps: 2 GiB. Above
 * MAX_TEXT_INPUT_BYTES (500 MiB, the most read as one string) the result is
 * composed, compressed and scored without ever being one string; the
 * compressed bytes must still fit in one archive artifact (10^9 bytes,
 * which records of 2 GiB do by a wide margin).
 */
export const MAX_ARCHIVED_RESULT_BYTES = 2 * 1024 ** 3;
/** Per committed episode, the keys and punctuation around its record and metrics in the result text (at most). */
const EPISODE_FRAME_BYTES = 64;

export class ArchiveSink implements ResultSink {
  /** The length of the trial's result text so far (an upper bound). */
  private resultBytes = 0;
  private run: SinkRun | undefined;
  /** resultDigest of the result stored by `finish`. */
  private finalDigest: string | undefined;

  constructor(
    private readonly archive: Archive,
    readonly trialId: number,
    private readonly hooks: ArchiveSinkHooks,
    private readonly maxResultBytes = MAX_ARCHIVED_RESULT_BYTES,
    /** Above this many bytes (the upper bound kept while committing) the result is never one string; tests lower it. */
    private readonly wholeResultBytes = MAX_TEXT_INPUT_BYTES,
  ) {}

  resumeState(run: SinkRun): Promise<ResumeState> {
    const row = getTrialDbRow(this.archive, this.trialId);
    if (row === undefined) return Promise.reject(new OutputError(`archive: trial ${this.trialId} does not exist`));
    if (row.manifest_hash !== run.manifestHash) {
      return Promise.reject(new OutputError(`archive: trial ${this.trialId} runs manifest ${row.manifest_hash}, not ${run.manifestHash}`));
    }
    if (row.model_id !== run.modelId) {
      return Promise.reject(new OutputError(`archive: trial ${this.trialId} is of model ${JSON.stringify(row.model_id)}, not ${JSON.stringify(run.modelId)}`));
    }
    this.archive.write((archive) => setTrialStatus(archive, this.trialId, 'running'));
    this.run = run;
    try {
      const { indices, failures } = storedIndices(this.archive, this.trialId);
      const episodes = storedEpisodeBytes(this.archive, this.trialId);
      // The result without entries (manifest, hashes, model ID), then what is stored already.
      this.resultBytes = resultText(buildResult(run.manifest, run.manifestHash, run.modelId, [], [])).length;
      this.resultBytes += episodes.bytes + episodes.episodes * EPISODE_FRAME_BYTES;
      for (const failure of failures) this.resultBytes += failureBytes(failure);
      return Promise.resolve({ episodes: [], storedEpisodes: indices, failures });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The whole result, rebuilt from the stored episodes (digest-checked): only when asked (the end of the run). */
  storedResult(): EvaluationResult {
    if (this.run === undefined) throw new Error('ArchiveSink: storedResult before resumeState');
    const { episodes, failures } = storedEntries(this.archive, this.trialId);
    return buildResult(this.run.manifest, this.run.manifestHash, this.run.modelId, episodes, failures);
  }

  storedDigest(): string {
    return this.finalDigest ?? resultDigest(resultText(this.storedResult()));
  }

  async commit(entry: SinkEntry, state: SinkState): Promise<void> {
    // Serialized here, compressed in the thread pool: only the insert holds the event loop.
    const packed = entry.kind === 'episode' ? await packEpisodeAsync(entry.episode) : undefined;
    this.resultBytes = this.archive.write((archive) => {
      let bytes: number;
      let index: number;
      switch (entry.kind) {
        case 'episode':
          bytes = storeEpisode(archive, this.trialId, entry.episode, entry.scoring?.score ?? null, packed) + EPISODE_FRAME_BYTES;
          index = entry.episode.index;
          break;
        case 'failure':
          storeFailure(archive, this.trialId, entry.failure);
          bytes = failureBytes(entry.failure);
          index = entry.failure.index;
          break;
      }
      // Thrown inside the transaction: nothing of this entry stays.
      if (this.resultBytes + bytes > this.maxResultBytes) throw this.tooLarge(index);
      return this.resultBytes + bytes;
    });
    this.hooks.committed?.(entry, state);
  }

  private tooLarge(index: number): OutputError {
    return new OutputError(
      `archive: trial ${this.trialId}: with episode ${index} its result would pass ${describeBytes(this.maxResultBytes)}, the most the app keeps as one result; ` +
        'the episodes before it are kept. Run an evaluation this large with the command line (`emberbench evaluation run`), which streams its result, and score or bundle it there.',
    );
  }

  /**
   * Stores and scores the final result: the bytes of
   * resultText(storedResult()), composed from the stored episodes' canonical
   * texts (storedEpisodeChunks) without parsing and writing every record
   * again, digested as they are composed, compressed as one stream in the
   * thread pool and scored in the archive worker. The main thread holds its
   * event loop for one episode at a time, however large the result.
   */
  async finish(final: SinkFinal): Promise<void> {
    let result: PackedArtifact;
    let scored: ScoredTrial | null;
    if (this.resultBytes <= this.wholeResultBytes) {
      const composed = await this.composedResult(final.completed);
      this.finalDigest = composed.fileDigest;
      scored = await this.hooks.score(composed.chunks);
      result = await packChunksAsync('result', composed.chunks, composed.digest);
    } else {
      // Too large for one string: compressed as it is composed, then scored from the stored episodes.
      const { manifest, manifestHash, modelId } = this.requireRun();
      const packed = await packStoredResult(this.archive, this.trialId, manifest, manifestHash, modelId);
      this.finalDigest = packed.fileDigest;
      scored = this.hooks.scoreStored === undefined ? null : await this.hooks.scoreStored(packed.fileDigest);
      result = packed.packed;
    }
    this.archive.write((archive) =>
      storeOutcome(archive, this.trialId, {
        result,
        complete: final.completed === final.scheduled,
        report: scored?.report ?? null,
        reportText: scored?.reportText ?? null,
        summary: scored?.summary ?? null,
      }),
    );
  }

  private requireRun(): SinkRun {
    if (this.run === undefined) throw new Error('ArchiveSink: finish before resumeState');
    return this.run;
  }

  private async composedResult(committed: number): Promise<ComposedResult> {
    const { manifest, manifestHash, modelId } = this.requireRun();
    const composed = await composeStoredResult(this.archive, this.trialId, manifest, manifestHash, modelId);
    if (composed.episodes !== committed) throw new Error(`ArchiveSink: ${composed.episodes} episodes stored, the runner committed ${committed}`);
    return composed;
  }

  stopped(): Promise<void> {
    // Whatever stopped the run (a cancel, a quit, an agent failure), what was committed stays and the trial can be resumed.
    try {
      this.archive.write((archive) => setTrialStatus(archive, this.trialId, 'interrupted'));
    } catch {
      // the archive may be closing; the next start marks a `running` trial interrupted anyway
    }
    return Promise.resolve();
  }
}

/** What a declared failure adds to the result text: its canonical JSON and a comma. */
function failureBytes(failure: FailureDeclaration): number {
  return canonicalJson(failure).length + 1;
}
