/**
 * The evaluation runner (cli-v1.0.md "evaluation run", evaluation.md
 * section 3): runs every scheduled episode of a manifest with a fresh agent
 * and commits each one to a ResultSink (sink.ts) as it finishes: the file
 * checkpoint of the CLI, memory, or the app's archive. It knows nothing
 * about files.
 *
 * Order of checks: the model ID and jobs (exit 2, fields `modelId` and
 * `jobs`), the manifest against the suite (exit 3), then the sink's
 * resumeState (the output path; a resumed result that does not
 * authenticate: exit 3 or 5; one of another manifest or model: exit 6) --
 * all before any agent code is imported. Then the agent opens (exit 4 on
 * failure).
 *
 * Agent failures: without continueOnFailure the run stops, what was
 * committed stays, and the AgentError is thrown (exit 4); with it a failure
 * declaration is committed and the next episode gets a fresh agent, except
 * for an EndpointError (a refused key, an unreachable endpoint), which
 * always stops the run. Any other error stops the run and is thrown.
 */

import { availableParallelism } from 'node:os';
import { AgentError, EmberError, EndpointError, fieldError, type FailureKind } from '../../core/errors.js';
import { checkManifestTargetsSuite, manifestHash, type EvaluationManifest, type ManifestEpisode } from '../../core/eval/manifest.js';
import { modelIdProblem } from '../../core/eval/model-id.js';
import { inShard, type Shard } from '../../core/eval/shard.js';
import { clipFailureMessage, type EvaluationResult, type ResultEpisode } from '../../core/eval/result.js';
import type { TerminationReason } from '../../core/sim/events.js';
import type { Scenario } from '../../core/world/scenario-types.js';
import type { Suite } from '../../core/world/suite.js';
import { openAgent } from '../agents/open-agent.js';
import type { AgentSandboxOptions } from '../agents/sandbox-options.js';
import { episodeFactory, type AgentSession, type AgentSpec } from '../agents/spec.js';
import type { EntryPoints } from '../entry-points.js';
import { processScope, type ResourceScope } from '../lifetime.js';
import { episodeAgentError, evaluateEpisode, type EpisodeScoringContext } from './evaluate-episode.js';
import { WorkerPool, type PooledEpisode } from './pool.js';
import { sinkFinal, sinkState, storedSinkFinal, type ResultSink, type SinkEntry, type SinkRun, type SinkState } from './sink.js';

export interface EvaluationRunOptions {
  readonly suite: Suite;
  /**
   * Where each worker (jobs > 1, or workerThreads) loads the suite itself:
   * the suite directory, or `{files, source}`, the bytes of its files (the
   * app hands over the archive's copy, so no folder is written for it).
   */
  readonly suiteDir: string | { readonly files: ReadonlyMap<string, Uint8Array>; readonly source: string };
  readonly manifest: EvaluationManifest;
  /** Names the manifest in messages (its path). */
  readonly manifestSource?: string;
  readonly modelId: string;
  readonly agent: AgentSpec;
  readonly agentPaths: readonly string[];
  readonly actTimeoutMs: number;
  /** The sandbox of a module or command agent; default the default policy (sandbox-options.ts). */
  readonly sandbox?: AgentSandboxOptions;
  /** Where the result goes (sink.ts): a JournalCheckpointSink (the CLI's result file), a MemorySink, the archive. */
  readonly sink: ResultSink;
  readonly continueOnFailure: boolean;
  /** Episodes run in parallel, 1 .. maxJobs(); 1 runs them in this thread. */
  readonly jobs: number;
  /** Run episodes in worker threads also when one lane is enough (the app: its event loop must never simulate). */
  readonly workerThreads?: boolean;
  /** The worker and module host files (entry-points.ts). */
  readonly entryPoints: EntryPoints;
  /** Owns the run's agent processes and workers; default processScope. The run uses a child scope and disposes it when it ends. */
  readonly scope?: ResourceScope;
  /** Score each episode as it lands (the sink's entries then carry `scoring`). */
  readonly scoring?: EpisodeScoringContext;
  readonly onProgress?: (progress: EvaluationProgress) => void;
  /** Run only this slice of the manifest (core/eval/shard.ts); the result holds only its episodes. */
  readonly shard?: Shard;
  /** Aborting stops the run: running agents are killed, committed episodes stay, an `interrupted` error is thrown. */
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
  /** fileDigest of the result text (resultText(result)). */
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

/** UsageError (field `jobs`) unless `jobs` is an integer in 1 .. maxJobs(). */
export function checkJobs(jobs: number): void {
  const max = maxJobs();
  if (!Number.isSafeInteger(jobs) || jobs < 1 || jobs > max) {
    throw fieldError('jobs', `must be an integer from 1 to ${max} (four per core)`);
  }
}

/** UsageError (field `modelId`) unless the model ID is well-formed. */
export function checkModelId(modelId: string): void {
  const problem = modelIdProblem(modelId);
  if (problem !== null) throw fieldError('modelId', problem);
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
  run(lane: number, job: ManifestEpisode): Promise<PooledEpisode>;
  /** Closes the agent sessions (after the last episode). */
  close(): Promise<void>;
  /** Stops at once: running agents are killed, running episodes reject. */
  abort(): Promise<void>;
}

class InThreadExecutor implements EpisodeExecutor {
  /** One lane, or more for a session whose episodes wait on the network (episodesInFlight), capped by the queue. */
  readonly lanes: number;
  constructor(
    private readonly session: AgentSession,
    private readonly scenarios: ReadonlyMap<string, Scenario>,
    private readonly scoring: EpisodeScoringContext | undefined,
    queued: number,
  ) {
    this.lanes = Math.max(1, Math.min(session.episodesInFlight ?? 1, queued));
  }

  async run(_lane: number, job: ManifestEpisode): Promise<PooledEpisode> {
    const { episode, scoring } = await evaluateEpisode(episodeFactory(this.session, job.index), this.scenarios.get(job.scenario_id)!, job, { scoring: this.scoring });
    return scoring === undefined ? { episode } : { episode, scoring };
  }

  close(): Promise<void> {
    return this.session.close();
  }

  abort(): Promise<void> {
    return this.session.close();
  }
}

class PoolExecutor implements EpisodeExecutor {
  constructor(
    private readonly pool: WorkerPool,
    /**
     * Abort by closing the sessions (bounded by the pool's close grace): the chat adapter's close aborts its calls
     * at once, and the cut episodes then write their transcripts, so their spend is kept (transcript.ts, `cut/`).
     * Other agents are killed at once.
     */
    private readonly closeOnAbort: boolean,
  ) {}

  get lanes(): number {
    return this.pool.size;
  }

  run(lane: number, job: ManifestEpisode): Promise<PooledEpisode> {
    return this.pool.run(lane, job);
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private aborting: Promise<void> | undefined;

  abort(): Promise<void> {
    // Asked twice on a stop (at once, and after the lanes end): one close, not two racing ones.
    this.aborting ??= this.closeOnAbort ? this.pool.close() : this.pool.terminate();
    return this.aborting;
  }
}

function interrupted(): EmberError {
  return new EmberError('interrupted', 'interrupted');
}

async function openExecutor(opts: EvaluationRunOptions, lanes: number, scope: ResourceScope, queued: number): Promise<EpisodeExecutor> {
  if (lanes === 1 && opts.workerThreads !== true) {
    const session = await openAgent(opts.agent, { agentPaths: opts.agentPaths, actTimeoutMs: opts.actTimeoutMs, entryPoints: opts.entryPoints, scope, sandbox: opts.sandbox });
    return new InThreadExecutor(session, new Map(opts.suite.entries.map((e) => [e.scenarioId, e.scenario])), opts.scoring, queued);
  }
  const pool = await WorkerPool.open(
    lanes,
    {
      suite: typeof opts.suiteDir === 'string' ? { dir: opts.suiteDir } : opts.suiteDir,
      suiteHash: opts.suite.hash,
      agent: opts.agent,
      agentPaths: opts.agentPaths,
      actTimeoutMs: opts.actTimeoutMs,
      entryPoints: opts.entryPoints,
      ...(opts.sandbox === undefined ? {} : { sandbox: opts.sandbox }),
      ...(opts.scoring === undefined ? {} : { scoring: opts.scoring }),
    },
    scope,
  );
  return new PoolExecutor(pool, opts.agent.kind === 'llm');
}

export async function runEvaluation(opts: EvaluationRunOptions): Promise<EvaluationRunSummary> {
  const began = performance.now();
  checkModelId(opts.modelId);
  checkJobs(opts.jobs);
  const { manifest, sink } = opts;
  checkManifestTargetsSuite(manifest, opts.suite, opts.manifestSource ?? 'manifest');
  const hash = manifestHash(manifest);
  const run: SinkRun = { suite: opts.suite, manifest, manifestHash: hash, modelId: opts.modelId };
  const resumed = await sink.resumeState(run);

  // The sink's state: an entry is added when its commit starts, so during a
  // commit these hold exactly the entries committed so far and this one.
  // Per episode the runner keeps its index; the record only for a sink that
  // builds whole results from the runner's state (MemorySink, the archive).
  // A sink that keeps its episodes (storedResult: the journal) owns the
  // bytes, so a run of any size fits in memory (issue 12).
  const stored =
    sink.storedResult !== undefined && sink.storedDigest !== undefined
      ? { result: sink.storedResult.bind(sink), digest: sink.storedDigest.bind(sink) }
      : undefined;
  const records = new Map<number, ResultEpisode>(stored === undefined ? resumed.episodes.map((e) => [e.index, e]) : []);
  const done = new Set<number>([...resumed.episodes.map((e) => e.index), ...(resumed.storedEpisodes ?? [])]);
  const declared = new Map(resumed.failures.map((f) => [f.index, f]));
  const scheduled = manifest.episodes.length;
  const state = (): SinkState =>
    stored === undefined ? sinkState(run, records, declared) : { completed: done.size, failed: declared.size, scheduled, result: stored.result };
  const finishRun = async (ran: number): Promise<EvaluationRunSummary> => {
    const final = stored === undefined ? sinkFinal(state()) : storedSinkFinal(stored.result, stored.digest, state());
    await sink.finish(final);
    const digest = final.digest;
    return {
      // Built when asked: a sink that keeps its episodes rebuilds the whole result only for a caller that needs it.
      get result(): EvaluationResult {
        return final.result();
      },
      digest,
      manifestHash: hash,
      scheduledEpisodes: scheduled,
      completedEpisodes: done.size,
      failedEpisodes: declared.size,
      complete: done.size === scheduled,
      ranEpisodes: ran,
    };
  };

  // Sharding is only this filter: a shard's result is the whole manifest's result with the other episodes left out.
  const queue = manifest.episodes.filter((e) => inShard(e.index, opts.shard) && !done.has(e.index) && !declared.has(e.index));
  if (queue.length === 0) return finishRun(0);
  const scope = (opts.scope ?? processScope).child();
  let executor: EpisodeExecutor;
  try {
    if (opts.signal?.aborted) throw interrupted();
    executor = await openExecutor(opts, Math.min(opts.jobs, queue.length), scope, queue.length);
  } catch (error) {
    await scope.dispose();
    // The run's own error is the one reported; a sink that cannot wrap up keeps what it committed.
    await sink.stopped(error, state()).catch(() => undefined);
    throw error;
  }
  let stopError: unknown;
  let stopped = false;
  let ran = 0;
  let committing: Promise<void> = Promise.resolve();
  // The first error stops the run; episodes still running are abandoned
  // (their agents killed), so the sink holds only what was committed.
  const stop = (error: unknown): void => {
    if (stopped) return;
    stopError = error;
    stopped = true;
    void executor.abort().catch(() => undefined);
  };
  const onAbort = (): void => stop(interrupted());
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  // An abort while the executor was opening (workers starting) fired before this listener existed.
  if (opts.signal?.aborted === true) stop(interrupted());

  // Commits are chained: one at a time, in finishing order; a failed commit
  // fails every later one, so nothing is committed after a gap.
  const commit = (entry: SinkEntry): Promise<number> => {
    const turn = committing.then(async () => {
      const index = entry.kind === 'episode' ? entry.episode.index : entry.failure.index;
      if (entry.kind === 'episode') {
        done.add(index);
        if (stored === undefined) records.set(index, entry.episode);
      } else declared.set(index, entry.failure);
      try {
        await sink.commit(entry, state());
      } catch (error) {
        // Not committed: the state the sink is told about at the end must not hold it.
        if (entry.kind === 'episode') {
          done.delete(index);
          records.delete(index);
        } else declared.delete(index);
        throw error;
      }
      return done.size + declared.size;
    });
    committing = turn.then(() => undefined);
    return turn;
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
      let done: PooledEpisode;
      try {
        done = await executor.run(lane, job);
      } catch (error) {
        if (stopped) return;
        if (!(error instanceof AgentError)) return stop(error);
        // An endpoint that refuses the key or cannot be reached would fail every episode alike: stop, declare nothing.
        if (!opts.continueOnFailure || error instanceof EndpointError) return stop(episodeAgentError(error, job));
        const failure = { index: job.index, kind: error.failure, message: clipFailureMessage(error.message) };
        let finished: number;
        try {
          finished = await commit({ kind: 'failure', failure });
        } catch (commitError) {
          return stop(commitError);
        }
        report(job, finished, { status: 'failed', failure: error.failure });
        continue;
      }
      if (stopped) return;
      const { episode } = done;
      let finished: number;
      try {
        finished = await commit(done.scoring === undefined ? { kind: 'episode', episode } : { kind: 'episode', episode, scoring: done.scoring });
      } catch (error) {
        return stop(error);
      }
      report(job, finished, { status: 'done', termination: episode.record.termination_reason, steps: episode.record.steps });
    }
  };

  try {
    await Promise.all(Array.from({ length: executor.lanes }, (_, lane) => runLane(lane)));
    await committing.catch(() => undefined);
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    if (stopped) await executor.abort().catch(() => undefined);
    else await executor.close().catch((error: unknown) => stop(error));
    await scope.dispose();
  }
  if (stopped) {
    await sink.stopped(stopError, state()).catch(() => undefined);
    throw stopError;
  }
  return finishRun(ran);
}
