/**
 * The evaluation runner (cli-v1.0.md "evaluation run", evaluation.md
 * section 3): runs every scheduled episode of a manifest with a fresh agent,
 * saving the whole result atomically after every episode, and resumes a
 * checkpoint.
 *
 * Order of checks: the model ID and --jobs (exit 2), the manifest against
 * the suite (exit 3), the output path, and with --resume the existing file
 * (exit 3, or 5 for a replay mismatch, when it does not authenticate; exit 6
 * when it is a valid result of another manifest or model) -- all before any
 * agent code is imported. Then the agent opens (exit 4 on failure).
 *
 * Agent failures: without continueOnFailure the run stops, the last
 * checkpoint (without the failed episode) stays, and the AgentError is
 * thrown (exit 4); with it a failure declaration is saved and the next
 * episode gets a fresh agent. Any other error stops the run and is thrown.
 */

import { availableParallelism } from 'node:os';
import { AgentError, EmberError, OutputError, UsageError, type FailureKind } from '../../core/errors.js';
import { authenticateResult } from '../../core/eval/authenticate.js';
import { checkManifestTargetsSuite, manifestHash, type EvaluationManifest, type ManifestEpisode } from '../../core/eval/manifest.js';
import { modelIdProblem } from '../../core/eval/model-id.js';
import {
  buildResult,
  clipFailureMessage,
  resultDigest,
  resultText,
  type EvaluationResult,
  type FailureDeclaration,
  type ResultEpisode,
} from '../../core/eval/result.js';
import type { TerminationReason } from '../../core/sim/events.js';
import type { Scenario } from '../../core/world/scenario-types.js';
import type { Suite } from '../../core/world/suite.js';
import { openAgent } from '../agents/open-agent.js';
import type { AgentSession, AgentSpec } from '../agents/spec.js';
import { checkOutputPath } from '../files.js';
import { readTextInput } from '../inputs.js';
import { CheckpointWriter } from './checkpoint.js';
import { episodeAgentError, runScheduledEpisode } from './episode.js';
import { WorkerPool } from './pool.js';

export interface EvaluationRunOptions {
  readonly suite: Suite;
  /** The suite directory: each --jobs worker loads the suite from it itself. */
  readonly suiteDir: string;
  readonly manifest: EvaluationManifest;
  /** Names the manifest in messages (its path). */
  readonly manifestSource?: string;
  readonly modelId: string;
  readonly agent: AgentSpec;
  readonly agentPaths: readonly string[];
  readonly actTimeoutMs: number;
  readonly outPath: string;
  /** Paths the output must never be (the suite directory, the manifest file, the agent module). */
  readonly inputs: readonly string[];
  readonly resume: boolean;
  readonly continueOnFailure: boolean;
  /** Episodes run in parallel, 1 .. maxJobs(); 1 runs them in this thread. */
  readonly jobs: number;
  readonly onProgress?: (progress: EvaluationProgress) => void;
  /** Aborting stops the run: running agents are killed, the checkpoint stays, an `interrupted` error is thrown. */
  readonly signal?: AbortSignal;
}

export type EvaluationProgress = {
  /** Committed and declared-failed episodes so far, including resumed ones. */
  readonly finished: number;
  readonly scheduled: number;
  readonly index: number;
  readonly scenarioId: string;
  /** Since this run started, in ms. */
  readonly elapsedMs: number;
  /** Estimated time to finish from this run's pace, in ms. */
  readonly etaMs: number;
} & (
  | { readonly status: 'done'; readonly termination: TerminationReason; readonly steps: number }
  | { readonly status: 'failed'; readonly failure: FailureKind }
);

export interface EvaluationRunSummary {
  readonly result: EvaluationResult;
  /** fileDigest of the saved result text. */
  readonly digest: string;
  readonly manifestHash: string;
  readonly scheduledEpisodes: number;
  readonly completedEpisodes: number;
  /** Declared failures. */
  readonly failedEpisodes: number;
  readonly complete: boolean;
  /** Episodes run (committed or declared) by this call. */
  readonly ranEpisodes: number;
}

/** The largest --jobs value: four per core. */
export function maxJobs(): number {
  return availableParallelism() * 4;
}

/** UsageError unless `jobs` is an integer in 1 .. maxJobs(). */
export function checkJobs(jobs: number): void {
  const max = maxJobs();
  if (!Number.isSafeInteger(jobs) || jobs < 1 || jobs > max) {
    throw new UsageError(`--jobs: must be an integer from 1 to ${max} (four per core)`);
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** One progress line (no seed values): `episode 7/30 done (v1-pub-03, all_resolved, 41 steps); elapsed 3.2 s, ETA 10.5 s`. */
export function progressLine(p: EvaluationProgress): string {
  const what =
    p.status === 'done' ? `done (${p.scenarioId}, ${p.termination}, ${p.steps} steps)` : `failed (${p.scenarioId}, ${p.failure})`;
  return `episode ${p.finished}/${p.scheduled} ${what}; elapsed ${seconds(p.elapsedMs)}, ETA ${seconds(p.etaMs)}`;
}

/** Runs episodes in `lanes` parallel lanes; lane i runs one episode at a time. */
interface EpisodeExecutor {
  readonly lanes: number;
  run(lane: number, job: ManifestEpisode): Promise<ResultEpisode>;
  /** Closes the agent sessions (after the last episode). */
  close(): Promise<void>;
  /** Stops at once: running agents are killed, running episodes reject. */
  abort(): Promise<void>;
}

class InThreadExecutor implements EpisodeExecutor {
  readonly lanes = 1;
  constructor(
    private readonly session: AgentSession,
    private readonly scenarios: ReadonlyMap<string, Scenario>,
  ) {}

  run(_lane: number, job: ManifestEpisode): Promise<ResultEpisode> {
    return runScheduledEpisode(this.session, this.scenarios.get(job.scenario_id)!, job);
  }

  close(): Promise<void> {
    return this.session.close();
  }

  abort(): Promise<void> {
    return this.session.close();
  }
}

class PoolExecutor implements EpisodeExecutor {
  constructor(private readonly pool: WorkerPool) {}

  get lanes(): number {
    return this.pool.size;
  }

  run(lane: number, job: ManifestEpisode): Promise<ResultEpisode> {
    return this.pool.run(lane, job);
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  abort(): Promise<void> {
    return this.pool.terminate();
  }
}

function interrupted(): EmberError {
  return new EmberError('interrupted', 'interrupted');
}

interface Resumed {
  readonly episodes: readonly ResultEpisode[];
  readonly failures: readonly FailureDeclaration[];
  readonly identity: { readonly dev: number; readonly ino: number } | undefined;
  readonly text: string | undefined;
}

async function outputExists(path: string): Promise<boolean> {
  return (await CheckpointWriter.identify(path)) !== undefined;
}

/**
 * Checks the output path; with resume and an existing file, authenticates it
 * completely and requires the same manifest hash and model ID.
 */
async function prepareOutput(opts: EvaluationRunOptions, hash: string): Promise<Resumed> {
  const { outPath, inputs } = opts;
  if (!opts.resume || !(await outputExists(outPath))) {
    await checkOutputPath(outPath, { force: false, inputs });
    return { episodes: [], failures: [], identity: undefined, text: undefined };
  }
  // force: the file exists and is ours to continue; every other output rule still applies.
  await checkOutputPath(outPath, { force: true, inputs });
  const identity = await CheckpointWriter.identify(outPath);
  const text = readTextInput(outPath, 'evaluation result');
  const existing = authenticateResult(text, outPath, opts.suite);
  if (existing.manifestHash !== hash) {
    throw new OutputError(`${outPath}: cannot resume: it is a result of manifest ${existing.manifestHash}, not of the given manifest ${hash}`);
  }
  if (existing.result.model_id !== opts.modelId) {
    throw new OutputError(`${outPath}: cannot resume: it is a result of model ${JSON.stringify(existing.result.model_id)}, not ${JSON.stringify(opts.modelId)}`);
  }
  return { episodes: existing.result.episodes, failures: existing.result.failures, identity, text };
}

async function openExecutor(opts: EvaluationRunOptions, lanes: number): Promise<EpisodeExecutor> {
  if (lanes === 1) {
    const session = await openAgent(opts.agent, { agentPaths: opts.agentPaths, actTimeoutMs: opts.actTimeoutMs });
    return new InThreadExecutor(session, new Map(opts.suite.entries.map((e) => [e.scenarioId, e.scenario])));
  }
  const pool = await WorkerPool.open(lanes, {
    suiteDir: opts.suiteDir,
    suiteHash: opts.suite.hash,
    agent: opts.agent,
    agentPaths: opts.agentPaths,
    actTimeoutMs: opts.actTimeoutMs,
  });
  return new PoolExecutor(pool);
}

export async function runEvaluation(opts: EvaluationRunOptions): Promise<EvaluationRunSummary> {
  const began = performance.now();
  const problem = modelIdProblem(opts.modelId);
  if (problem !== null) throw new UsageError(`--model-id: ${problem}`);
  checkJobs(opts.jobs);
  const { manifest } = opts;
  checkManifestTargetsSuite(manifest, opts.suite, opts.manifestSource ?? 'manifest');
  const hash = manifestHash(manifest);
  const resumed = await prepareOutput(opts, hash);

  const committed = new Map(resumed.episodes.map((e) => [e.index, e]));
  const declared = new Map(resumed.failures.map((f) => [f.index, f]));
  const scheduled = manifest.episodes.length;
  const currentResult = (): EvaluationResult => buildResult(manifest, hash, opts.modelId, committed.values(), declared.values());
  const summary = (text: string, ran: number): EvaluationRunSummary => ({
    result: currentResult(),
    digest: resultDigest(text),
    manifestHash: hash,
    scheduledEpisodes: scheduled,
    completedEpisodes: committed.size,
    failedEpisodes: declared.size,
    complete: committed.size === scheduled,
    ranEpisodes: ran,
  });

  const queue = manifest.episodes.filter((e) => !committed.has(e.index) && !declared.has(e.index));
  if (queue.length === 0) return summary(resumed.text ?? resultText(currentResult()), 0);
  if (opts.signal?.aborted) throw interrupted();

  const checkpoint = new CheckpointWriter(opts.outPath, opts.inputs, resumed.identity);
  const executor = await openExecutor(opts, Math.min(opts.jobs, queue.length));
  let stopError: unknown;
  let stopped = false;
  let ran = 0;
  let savedText = resumed.text;
  let saving: Promise<void> = Promise.resolve();
  // The first error stops the run; episodes still running are abandoned
  // (their agents killed), so the checkpoint holds only what was saved.
  const stop = (error: unknown): void => {
    if (stopped) return;
    stopError = error;
    stopped = true;
    void executor.abort().catch(() => undefined);
  };
  const onAbort = (): void => stop(interrupted());
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  // Saves are chained: each writes the state as it is when its turn comes.
  const save = (): Promise<void> => {
    saving = saving.then(async () => {
      const text = resultText(currentResult());
      if (text === savedText) return;
      await checkpoint.write(text);
      savedText = text;
    });
    return saving;
  };

  type Detail = { status: 'done'; termination: TerminationReason; steps: number } | { status: 'failed'; failure: FailureKind };
  // `finished` is counted when the episode is committed, so parallel lanes report distinct counts.
  const report = (job: ManifestEpisode, finished: number, detail: Detail): void => {
    ran += 1;
    const elapsedMs = performance.now() - began;
    const etaMs = (elapsedMs / ran) * (scheduled - finished);
    opts.onProgress?.({ ...detail, finished, scheduled, index: job.index, scenarioId: job.scenario_id, elapsedMs, etaMs });
  };

  const runLane = async (lane: number): Promise<void> => {
    while (!stopped) {
      const job = queue.shift();
      if (job === undefined) return;
      let episode: ResultEpisode;
      try {
        episode = await executor.run(lane, job);
      } catch (error) {
        if (stopped) return;
        if (!(error instanceof AgentError)) return stop(error);
        if (!opts.continueOnFailure) return stop(episodeAgentError(error, job));
        declared.set(job.index, { index: job.index, kind: error.failure, message: clipFailureMessage(error.message) });
        const finished = committed.size + declared.size;
        try {
          await save();
        } catch (saveError) {
          return stop(saveError);
        }
        report(job, finished, { status: 'failed', failure: error.failure });
        continue;
      }
      if (stopped) return;
      committed.set(job.index, episode);
      const finished = committed.size + declared.size;
      try {
        await save();
      } catch (error) {
        return stop(error);
      }
      report(job, finished, { status: 'done', termination: episode.record.termination_reason, steps: episode.record.steps });
    }
  };

  try {
    await Promise.all(Array.from({ length: executor.lanes }, (_, lane) => runLane(lane)));
    await saving.catch(() => undefined);
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    if (stopped) await executor.abort().catch(() => undefined);
    else await executor.close();
  }
  if (stopped) throw stopError;
  return summary(savedText ?? resultText(currentResult()), ran);
}
