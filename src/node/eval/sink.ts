/**
 * Where the evaluation runner puts its result. The runner (runner.ts) knows
 * nothing about files: it asks its sink what is already stored, hands it
 * every committed episode and every declared failure, one at a time, and
 * tells it when the run has finished.
 *
 * The protocol, in order, for one `runEvaluation` call:
 *
 * 1. `resumeState(run)` -- once, after the model ID, the jobs and the
 *    manifest were checked and BEFORE any agent code is loaded. The sink
 *    checks its destination (a file sink: the output path; an archive: the
 *    trial row) and returns the episodes and failures already stored for
 *    this manifest and model (empty for a new destination). It throws an
 *    EmberError when the destination cannot be used: OutputError (exit 6)
 *    for a conflict or a result of another manifest or model,
 *    ValidationError/MismatchError (exit 3/5) for a stored result that does
 *    not authenticate. Returned episodes must be authenticated: the runner
 *    does not run them again and trusts their metrics.
 * 2. `commit(entry, state)` -- once per episode that finished in this run,
 *    in the order they finished (with --jobs N not the index order). Calls
 *    are strictly sequential: the next one starts only after the previous
 *    promise settled, so each commit can be its own transaction (an SQLite
 *    archive) or its own fsynced write (the journal). A commit that
 *    rejects stops the run: no further commit follows, the error is thrown
 *    by the runner. `state` describes the stored result INCLUDING this
 *    entry; `state.result()` builds the whole EvaluationResult (O(result):
 *    call it only when the whole result is needed). A sink with
 *    `storedResult` (the journal) keeps the episodes itself: the runner then
 *    holds only indices and counts, and `state.result()` asks the sink.
 * 3. `finish(final)` -- once, when every queued episode has run (the
 *    result may still be incomplete: declared failures), also when nothing
 *    was left to run after a resume. Not called when the run stops early.
 * 4. `stopped(error, state)` -- instead of `finish`, when the run stops on
 *    an error or an interruption after `resumeState` succeeded; `state` is
 *    what was committed (a failed commit's entry is not in it). What was
 *    committed stays committed: it is what a later resume continues. An
 *    error thrown here is ignored: the run's own error is the one thrown.
 *
 * A sink is used for one run only.
 */

import type { EvaluationManifest } from '../../core/eval/manifest.js';
import { streamedResultDigest } from '../../core/eval/result-stream.js';
import { buildResult, resultDigest, resultText, type EvaluationResult, type FailureDeclaration, type ResultEpisode } from '../../core/eval/result.js';
import type { Suite } from '../../core/world/suite.js';
import type { EpisodeScoring } from './evaluate-episode.js';

/** What the run is: the sink may check a stored result against it. */
export interface SinkRun {
  readonly suite: Suite;
  readonly manifest: EvaluationManifest;
  readonly manifestHash: string;
  readonly modelId: string;
}

/** What is already stored for this run (authenticated). */
export interface ResumeState {
  readonly episodes: readonly ResultEpisode[];
  readonly failures: readonly FailureDeclaration[];
  /** A sink that keeps its episodes (`ResultSink.storedResult`) may give only their indices here, the episodes then left out. */
  readonly storedEpisodes?: readonly number[];
}

/** One committed episode (replay-checked and measured) or one declared agent failure. */
export type SinkEntry =
  | {
      readonly kind: 'episode';
      readonly episode: ResultEpisode;
      /** The episode's references and score, when the run was given a scoring context. */
      readonly scoring?: EpisodeScoring;
    }
  | { readonly kind: 'failure'; readonly failure: FailureDeclaration };

/** The stored result as it is after a commit (or at the end of the run). */
export interface SinkState {
  /** Committed episodes, resumed ones included. */
  readonly completed: number;
  /** Declared failures, resumed ones included. */
  readonly failed: number;
  readonly scheduled: number;
  /**
   * The whole result, episodes and failures sorted by index, built on each
   * call. In `commit` it is valid during the call (later entries change it).
   */
  result(): EvaluationResult;
}

/** The end of a run that went through its whole queue. */
export interface SinkFinal extends SinkState {
  /**
   * resultText(result()): the canonical result text, built on first use and
   * kept. A sink that writes a file streams result() instead (a result of
   * more than about 512 MB cannot be one string).
   */
  readonly text: string;
  /** resultDigest(text), computed from `text` if it was built, else streamed (result-stream.ts). */
  readonly digest: string;
}

export interface ResultSink {
  resumeState(run: SinkRun): Promise<ResumeState>;
  commit(entry: SinkEntry, state: SinkState): Promise<void>;
  finish(final: SinkFinal): Promise<void>;
  stopped(error: unknown, state: SinkState): Promise<void>;
  /**
   * Present on a sink that keeps the committed episodes itself (the
   * journal): the runner then keeps only their indices and the counts, never
   * the records, so a run of any size fits in memory; `state.result()` and
   * the summary's result call this (O(result): only when asked).
   */
  storedResult?(): EvaluationResult;
  /** With storedResult: resultDigest of the result text (after `finish`: of the text it wrote). */
  storedDigest?(): string;
}

/**
 * Keeps the result in memory (tests, in-process rankings, the app's preview
 * runs). It can start from a stored state, like a resumed file.
 */
export class MemorySink implements ResultSink {
  private last: SinkFinal | undefined;
  private commits = 0;

  constructor(private readonly initial: ResumeState = { episodes: [], failures: [] }) {}

  resumeState(): Promise<ResumeState> {
    return Promise.resolve(this.initial);
  }

  commit(_entry: SinkEntry, _state: SinkState): Promise<void> {
    this.commits += 1;
    return Promise.resolve();
  }

  finish(final: SinkFinal): Promise<void> {
    this.last = final;
    return Promise.resolve();
  }

  stopped(_error: unknown, _state: SinkState): Promise<void> {
    return Promise.resolve();
  }

  /** How many entries this run committed. */
  get committed(): number {
    return this.commits;
  }

  /** The finished result and its text; throws if the run did not finish. */
  get final(): { readonly result: EvaluationResult; readonly text: string } {
    if (this.last === undefined) throw new Error('the evaluation has not finished');
    return { result: this.last.result(), text: this.last.text };
  }
}

/** A SinkState over the runner's maps (the runner's helper, exported for sinks' tests). */
export function sinkState(
  run: SinkRun,
  episodes: ReadonlyMap<number, ResultEpisode>,
  failures: ReadonlyMap<number, FailureDeclaration>,
): SinkState {
  return {
    completed: episodes.size,
    failed: failures.size,
    scheduled: run.manifest.episodes.length,
    result: () => buildResult(run.manifest, run.manifestHash, run.modelId, episodes.values(), failures.values()),
  };
}

/**
 * The state of a sink that keeps its episodes (storedResult): counts from
 * the runner, the whole result and its digest from the sink, when asked.
 */
export function storedSinkFinal(storedResult: () => EvaluationResult, storedDigest: () => string, state: SinkState): SinkFinal {
  let result: EvaluationResult | undefined;
  let text: string | undefined;
  return {
    completed: state.completed,
    failed: state.failed,
    scheduled: state.scheduled,
    result: () => (result ??= storedResult()),
    get text(): string {
      text ??= resultText((result ??= storedResult()));
      return text;
    },
    get digest(): string {
      return storedDigest();
    },
  };
}

/** The final state; its text and digest are computed when first asked for. */
export function sinkFinal(state: SinkState): SinkFinal {
  const result = state.result();
  let text: string | undefined;
  let digest: string | undefined;
  return {
    completed: state.completed,
    failed: state.failed,
    scheduled: state.scheduled,
    result: () => result,
    get text(): string {
      text ??= resultText(result);
      return text;
    },
    get digest(): string {
      digest ??= text !== undefined ? resultDigest(text) : streamedResultDigest(result);
      return digest;
    },
  };
}
