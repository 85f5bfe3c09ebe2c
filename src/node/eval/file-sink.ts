/**
 * The result file of `evaluation run` as a ResultSink (sink.ts): the whole
 * result is saved atomically after every committed episode or declared
 * failure (CheckpointWriter), so a crash, kill -9 or Ctrl+C leaves the last
 * complete checkpoint, and a resumed run continues it.
 *
 * resumeState checks the output path (exit 6) and, when resuming an
 * existing file, authenticates it completely (exit 3, or 5 for a replay
 * mismatch) and requires the run's manifest hash and model ID (exit 6).
 * An existing file is never replaced without `resume`.
 */

import { OutputError } from '../../core/errors.js';
import { authenticateResult } from '../../core/eval/authenticate.js';
import { resultText } from '../../core/eval/result.js';
import { checkOutputPath } from '../files.js';
import { readTextInput } from '../inputs.js';
import type { ResourceScope } from '../lifetime.js';
import { CheckpointWriter } from './checkpoint.js';
import type { ResultSink, ResumeState, SinkRun, SinkState } from './sink.js';

export interface FileCheckpointOptions {
  /** The result file; its directory must exist. */
  readonly path: string;
  /** Paths the output must never be (the suite directory, the manifest file, the agent module). */
  readonly inputs: readonly string[];
  /** Continue an existing file (same manifest and model); without it an existing file is a conflict. */
  readonly resume: boolean;
  /**
   * What to do about an existing file when not resuming, in the caller's
   * words (the CLI: "use --resume to continue it, or choose another --out").
   */
  readonly existsHint?: string;
  /** Owns the checkpoint's temp files; default processScope. */
  readonly scope?: ResourceScope;
}

const DEFAULT_EXISTS_HINT = 'resume it to continue, or choose another output';

export class FileCheckpointSink implements ResultSink {
  private writer: CheckpointWriter | undefined;
  private savedText: string | undefined;

  constructor(private readonly opts: FileCheckpointOptions) {}

  get path(): string {
    return this.opts.path;
  }

  async resumeState(run: SinkRun): Promise<ResumeState> {
    const { path, inputs } = this.opts;
    const identity = await CheckpointWriter.identify(path);
    if (identity === undefined || !this.opts.resume) {
      // force: the existence check is ours (with its hint); every other output rule applies.
      await checkOutputPath(path, { force: true, inputs });
      if (identity !== undefined || (await CheckpointWriter.identify(path)) !== undefined) {
        throw new OutputError(`output file exists (${this.opts.existsHint ?? DEFAULT_EXISTS_HINT}): ${path}`);
      }
      this.writer = new CheckpointWriter(path, inputs, undefined, this.opts.scope);
      return { episodes: [], failures: [] };
    }
    await checkOutputPath(path, { force: true, inputs });
    const text = readTextInput(path, 'evaluation result');
    const existing = authenticateResult(text, path, run.suite);
    if (existing.manifestHash !== run.manifestHash) {
      throw new OutputError(`${path}: cannot resume: it is a result of manifest ${existing.manifestHash}, not of the given manifest ${run.manifestHash}`);
    }
    if (existing.result.model_id !== run.modelId) {
      throw new OutputError(`${path}: cannot resume: it is a result of model ${JSON.stringify(existing.result.model_id)}, not ${JSON.stringify(run.modelId)}`);
    }
    this.writer = new CheckpointWriter(path, inputs, identity, this.opts.scope);
    this.savedText = text;
    return { episodes: existing.result.episodes, failures: existing.result.failures };
  }

  async commit(_entry: unknown, state: SinkState): Promise<void> {
    if (this.writer === undefined) throw new Error('FileCheckpointSink: commit before resumeState');
    const text = resultText(state.result());
    if (text === this.savedText) return;
    await this.writer.write(text);
    this.savedText = text;
  }

  /** Every entry was saved by its commit; nothing is left to write. */
  finish(): Promise<void> {
    return Promise.resolve();
  }

  /** The last checkpoint stays: it is what --resume continues. */
  stopped(): Promise<void> {
    return Promise.resolve();
  }
}
