/**
 * Evaluations started from the app: the existing runner (worker threads for
 * jobs > 1, agents in their child-process hosts) writing into the archive
 * through an ArchiveSink, with live progress events (at most a few per
 * second per run), cancel, resume and the list of running work.
 *
 * A run's settings are stored with its trial (run_config), so a trial that
 * a cancel, a quit or a crash interrupted resumes with the same agent,
 * timeout and failure policy, and its final result is byte-identical to an
 * uninterrupted run's (the runner builds it from the committed episodes in
 * index order).
 */

import { availableParallelism } from 'node:os';
import { isEmberError } from '../../core/errors.js';
import { manifestHash as hashOfManifest } from '../../core/eval/manifest.js';
import type { AgentChoice, ArchiveChange, Events, EventName, ParsedInput, RunProgressEvent, RunStatus, RunTotals, TrialStatus } from '../../shared/api/contract.js';
import { checkActTimeout, checkAgentPaths } from '../agents/open-agent.js';
import { agentLabel, agentSpecOf, renameField } from './run-agents.js';
import { ArchiveSink } from '../archive/archive-sink.js';
import { storedSuiteFiles } from '../archive/inputs-store.js';
import { getTrialDbRow } from '../archive/queries.js';
import type { Archive } from '../archive/archive.js';
import { runOffThread, scoreOffThread } from '../jobs/off-thread.js';
import { scoreJobOf } from '../jobs/score-job.js';
import { scoreStoredJobOf } from '../jobs/score-stored.js';
import { insertTrial, setTrialIsolation, setTrialStatus, storedEpisodeScoreTotal } from '../archive/trials-store.js';
import { addRunTime, appendTrialLog } from '../archive/trial-housekeeping.js';
import { agentIsolation } from '../agents/local-operational.js';
import { storeOperationalRecord } from './local-runs.js';
import type { EntryPoints } from '../entry-points.js';
import { packScoringContext } from '../eval/evaluate-episode.js';
import { checkJobs, checkModelId, maxJobs, runEvaluation } from '../eval/runner.js';
import type { ResourceScope } from '../lifetime.js';
import { getPackSummary, storedManifest, storedPack, storedSuite } from './catalog.js';
import { ServiceError } from './dispatch.js';
import { createLiveUsage } from '../agents/openai-chat/live-usage.js';
import { addRunTotals, llmConfigOf, llmSpecOf, liveUsageOf, type LiveCounter } from './llm-runs.js';
import { runTrialSeries, type TrialHandle } from '../workflows/trial-series.js';

/** What a resume needs, stored with the trial. */
interface RunConfig {
  readonly agent: AgentChoice;
  readonly packDigest: string | null;
  readonly actTimeoutMs: number;
  readonly continueOnFailure: boolean;
  readonly jobs: number;
  /** Trials of this configuration still to start after this one (runs.start `trials` K: they run one after another). */
  readonly moreTrials?: number;
  /** K, the series' number of trials (absent in trials stored before it was: the series is then counted from this trial). */
  readonly trials?: number;
  /** With K > 1: this trial's place in its series and what the trials before it did (run.progress `trial`). */
  readonly series?: SeriesPlace;
}

/** How a trial's run ended; only a finished run lets its series go on. */
type RunEnd = 'complete' | 'incomplete' | 'cancelled' | 'failed';

/** A trial's place in a series of K (`first`: the series' first trial, null in the first itself). */
interface SeriesPlace {
  readonly first: number | null;
  readonly index: number;
  readonly count: number;
  readonly before: RunTotals;
}

const NO_TOTALS: RunTotals = { episodes: 0, calls: 0, inputTokens: 0, outputTokens: 0, cost: '0' };

export type Emit = <E extends EventName>(event: E, payload: Events[E]) => void;

/** The least time between two progress events of one run. */
const PROGRESS_INTERVAL_MS = 250;
/** How often the archive is asked again to mark an ended run's trial interrupted after a refused write. */
const MARK_RETRY_MS = 2000;
/** How often a language-model run's live token counter is looked at (an event only when it moved). */
const USAGE_TICK_MS = 500;

interface ActiveRun {
  readonly trialId: number;
  readonly modelId: string;
  readonly agentLabel: string;
  readonly controller: AbortController;
  readonly began: number;
  state: 'running' | 'cancelling';
  finished: number;
  scheduled: number;
  etaMs: number;
  scoreSum: number;
  scoreCount: number;
  lastEmit: number;
  timer: NodeJS.Timeout | undefined;
  pending: RunProgressEvent | undefined;
  done: Promise<void>;
  /** Language-model runs: the live token counter, and the timer that reports it between episodes. */
  live: LiveCounter | undefined;
  ticker: NodeJS.Timeout | undefined;
  /** Its place in a series of K trials, if any. */
  readonly series: SeriesPlace | undefined;
}

/** The archive change a progress event stands for: committed episodes while it runs, its status once it ended. */
export function changeOf(event: RunProgressEvent): ArchiveChange {
  return { kind: 'trial', trialId: event.trialId, what: event.state === 'running' ? 'progress' : 'status' };
}

/** Episode score text (decimal points) as a number, for the running mean only. */
function points(score: string): number {
  return Number(score);
}

export class RunManager {
  private readonly active = new Map<number, ActiveRun>();
  private stopping = false;
  /** A finished trial of a series: its series totals, until the next trial starts from them. */
  private readonly endTotals = new Map<number, RunTotals>();
  /** Ended runs whose trial the archive could not mark interrupted yet (markInterrupted). */
  private readonly unmarked = new Set<number>();
  private retryMarks: NodeJS.Timeout | undefined;

  constructor(
    private readonly archive: Archive,
    private readonly entryPoints: EntryPoints,
    private readonly scope: ResourceScope,
    private readonly emit: Emit,
  ) {}

  /** The default and the cap of `jobs`. */
  static jobLimits(): { maxJobs: number; defaultJobs: number } {
    return { maxJobs: maxJobs(), defaultJobs: Math.max(1, availableParallelism()) };
  }

  list(): RunStatus[] {
    return [...this.active.values()].map((r) => ({
      trialId: r.trialId,
      modelId: r.modelId,
      agentLabel: r.agentLabel,
      state: r.state,
      finished: r.finished,
      scheduled: r.scheduled,
      elapsedMs: Math.round(performance.now() - r.began),
      etaMs: Math.round(r.etaMs),
    }));
  }

  isActive(trialId: number): boolean {
    return this.active.has(trialId);
  }

  start(input: ParsedInput<'runs.start'>): number {
    checkModelId(input.modelId);
    const jobs = Math.min(input.jobs, maxJobs());
    checkActTimeout(input.actTimeoutMs);
    if (input.agent.kind === 'openai-chat') llmConfigOf(input.agent);
    else agentSpecOf(input.agent);
    renameField('agentPaths', 'agent.agentPaths', () => checkAgentPaths(input.agent.kind === 'module' || input.agent.kind === 'command' ? input.agent.agentPaths : []));
    // Both authenticated from the archive before anything starts.
    storedManifest(this.archive, input.manifestHash);
    let pack = null;
    if (input.packDigest !== null) {
      pack = storedPack(this.archive, input.packDigest, false);
      if (pack.manifestHash !== input.manifestHash) {
        throw new ServiceError('usage', `packDigest: pack ${pack.packId} is of manifest ${pack.manifestHash}, not of the chosen manifest ${input.manifestHash}`, 'packDigest');
      }
    }
    const config: RunConfig = { agent: input.agent, packDigest: input.packDigest, actTimeoutMs: input.actTimeoutMs, continueOnFailure: input.continueOnFailure, jobs, moreTrials: input.trials - 1, trials: input.trials };
    return this.runSeries(input.modelId, input.manifestHash, config, null, jobs);
  }

  /**
   * Runs a series of trials of one configuration (workflows/trial-series.ts,
   * the CLI's loop) from `resumed` (an interrupted trial of it) or a new
   * trial; each next trial is a new row whose stored configuration counts
   * the trials still to come, so a restarted app goes on with the series
   * when that trial is resumed. Answers the first trial's ID.
   */
  private runSeries(modelId: string, manifestHash: string, config: RunConfig, resumed: number | null, jobs: number): number {
    const more = config.moreTrials ?? 0;
    const trials = config.trials ?? more + 1;
    let firstId: number | undefined;
    let current: number | undefined;
    // The series' first trial (null while that is the trial being created) and the totals of the trials before this one.
    let seriesFirst = config.series?.first ?? resumed;
    let before = config.series?.before ?? NO_TOTALS;
    void runTrialSeries<RunEnd>(
      {
        runTrial: (trial) => {
          if (current !== undefined) before = this.endTotals.get(current) ?? before;
          const series: SeriesPlace | undefined = trials > 1 ? { first: seriesFirst, index: trial.progress.trial, count: trials, before } : undefined;
          const trialConfig: RunConfig = { ...config, moreTrials: trials - trial.progress.trial, trials, ...(series === undefined ? {} : { series }) };
          const first = firstId === undefined;
          const trialId = first && resumed !== null ? resumed : this.createTrial(modelId, manifestHash, trialConfig);
          firstId ??= trialId;
          seriesFirst ??= trialId;
          if (current !== undefined) this.endTotals.delete(current);
          current = trialId;
          try {
            return this.launch(trialId, trialConfig, first ? jobs : config.jobs, trial);
          } catch (error) {
            // Created but not started (a full disk refused the launch's first write): interrupted, resumable.
            if (trialId !== resumed) this.markInterrupted(trialId);
            throw error;
          }
        },
        keepRecord: (_progress, record) => storeOperationalRecord(this.archive, current!, record),
        // The next of K trials only after a finished run, and unless the services are stopping.
        goOn: (end) => (end === 'complete' || end === 'incomplete') && !this.stopping,
      },
      { first: trials - more, trials },
    ).catch(() => {
      // A next trial that could not start: the archive is closing.
    });
    // runTrialSeries started the first trial before it returned.
    return firstId!;
  }

  /** Creates a trial row (every episode `missing`). */
  private createTrial(modelId: string, manifestHash: string, config: RunConfig): number {
    const manifest = storedManifest(this.archive, manifestHash);
    const suite = storedSuite(this.archive, manifest.suite.suite_hash);
    const pack = config.packDigest === null ? null : getPackSummary(this.archive, config.packDigest);
    const families = new Map(suite.entries.map((e) => [e.scenarioId, e.primaryFamily]));
    const trialId = this.archive.write((db) =>
      insertTrial(db, {
        modelId,
        manifest,
        manifestHash: hashOfManifest(manifest),
        pack: pack === null ? null : { digest: pack.packDigest, packId: pack.packId },
        status: 'running',
        origin: 'run',
        agentLabel: agentLabel(config.agent),
        runConfig: config,
        families,
      }),
    );
    this.emit('archive.changed', { kind: 'trial', trialId, what: 'added' });
    return trialId;
  }

  resume(trialId: number, jobs: number | undefined): number {
    const row = getTrialDbRow(this.archive, trialId);
    if (row === undefined) throw new ServiceError('not_found', `trialId: no trial ${trialId} in the archive`, 'trialId');
    if (this.active.has(trialId)) throw new ServiceError('conflict', `trialId: trial ${trialId} is already running`, 'trialId');
    if (row.origin !== 'run' || row.run_config === null) throw new ServiceError('conflict', `trialId: trial ${trialId} was imported; only runs started here can be resumed`, 'trialId');
    // `running` but not running here: this process is the archive's one writer, so the run ended without its status
    // written (a full disk refused the write); it is interrupted, and resumes like one.
    const stale = row.status === 'running';
    if (row.status !== 'interrupted' && !stale) throw new ServiceError('conflict', `trialId: trial ${trialId} is ${row.status}; only an interrupted trial can be resumed`, 'trialId');
    const config = JSON.parse(row.run_config) as RunConfig;
    if (jobs !== undefined) checkJobs(Math.min(jobs, maxJobs()));
    this.runSeries(row.model_id, row.manifest_hash, config, trialId, Math.min(jobs ?? config.jobs, maxJobs()));
    this.unmarked.delete(trialId);
    return trialId;
  }

  /**
   * The status a view shows: a trial `running` in the archive but not here
   * is interrupted (its status could not be written yet).
   */
  shownStatus(trialId: number, stored: TrialStatus): TrialStatus {
    return stored === 'running' && !this.active.has(trialId) ? 'interrupted' : stored;
  }

  /**
   * Marks an ended run's trial interrupted. When the archive refuses the
   * write (a full disk), it is tried again every few seconds until it
   * commits, a resume takes the trial, or the services stop; meanwhile the
   * views show it interrupted (shownStatus) and Resume accepts it.
   */
  private markInterrupted(trialId: number): void {
    try {
      this.archive.write((db) => {
        if (getTrialDbRow(db, trialId)?.status === 'running') setTrialStatus(db, trialId, 'interrupted');
      });
      this.unmarked.delete(trialId);
    } catch {
      this.unmarked.add(trialId);
      this.retryMarks ??= setTimeout(() => {
        this.retryMarks = undefined;
        if (this.stopping) return;
        for (const id of [...this.unmarked]) if (!this.active.has(id)) this.markInterrupted(id);
      }, MARK_RETRY_MS);
      this.retryMarks.unref();
    }
  }

  cancel(trialId: number): void {
    const run = this.active.get(trialId);
    if (run === undefined) throw new ServiceError('not_found', `trialId: trial ${trialId} is not running`, 'trialId');
    run.state = 'cancelling';
    run.controller.abort();
  }

  /** Cancels every run and waits until each has stopped (their trials become interrupted). */
  async stopAll(): Promise<void> {
    this.stopping = true;
    if (this.retryMarks !== undefined) clearTimeout(this.retryMarks);
    const runs = [...this.active.values()];
    for (const r of runs) {
      r.state = 'cancelling';
      r.controller.abort();
    }
    await Promise.all(runs.map((r) => r.done));
  }

  /** Launches a trial's run; answers how it ended. */
  private launch(trialId: number, config: RunConfig, jobs: number, trial: TrialHandle): Promise<RunEnd> {
    const row = getTrialDbRow(this.archive, trialId)!;
    const manifest = storedManifest(this.archive, row.manifest_hash);
    const suite = storedSuite(this.archive, manifest.suite.suite_hash);
    const pack = config.packDigest === null ? null : storedPack(this.archive, config.packDigest, false);
    const liveBuffer = createLiveUsage();
    const llm = config.agent.kind === 'openai-chat' ? llmSpecOf(this.archive, config.agent, trialId, liveBuffer) : null;
    const { spec, agentPaths } = llm === null ? agentSpecOf(config.agent) : { spec: llm.spec, agentPaths: [] };
    // The isolation level the agent runs at (the sandbox probe its host makes in the workers), stored with the trial for the views.
    const isolation = agentIsolation(spec);
    this.archive.write((db) => setTrialIsolation(db, trialId, isolation));
    const resumed = row.episodes_completed + row.episodes_failed > 0;
    this.log(trialId, 'info', `${resumed ? 'resumed' : 'started'}: ${row.agent_label}, ${jobs} job(s), ${row.episodes_scheduled - row.episodes_completed - row.episodes_failed} episode(s) to run`);
    if (isolation === 'none') this.log(trialId, 'warning', 'the agent runs with your full rights, not in a sandbox (bubblewrap is missing or refused): the score cannot show it saw only its observations');
    // The workers get the stored suite's bytes and load it themselves: no folder is written for them.
    const suiteDir = { files: storedSuiteFiles(this.archive, suite.hash), source: `archive:suite/${suite.hash.slice(0, 12)}` };
    // A resumed run's mean starts from the episodes the trial already holds.
    const earlier = storedEpisodeScoreTotal(this.archive, trialId);
    const run: ActiveRun = {
      trialId,
      modelId: row.model_id,
      agentLabel: row.agent_label,
      controller: new AbortController(),
      began: performance.now(),
      state: 'running',
      finished: row.episodes_completed + row.episodes_failed,
      scheduled: row.episodes_scheduled,
      etaMs: 0,
      scoreSum: earlier.sum,
      scoreCount: earlier.count,
      lastEmit: 0,
      timer: undefined,
      pending: undefined,
      done: Promise.resolve(),
      live: llm === null ? undefined : { buffer: liveBuffer, config: llm.config },
      ticker: undefined,
      series: config.series,
    };
    this.active.set(trialId, run);
    if (run.live !== undefined) {
      let calls = 0;
      run.ticker = setInterval(() => {
        const now = liveUsageOf(run.live!).calls;
        if (now === calls) return;
        calls = now;
        this.progress(run, { state: 'running' }, false);
      }, USAGE_TICK_MS);
    }
    const sink = new ArchiveSink(this.archive, trialId, {
      committed: (entry) => {
        if (entry.kind === 'episode' && entry.scoring?.score != null) {
          run.scoreSum += points(entry.scoring.score);
          run.scoreCount += 1;
        }
      },
      // The report is what `emberbench score` writes for this result; it replays every record and runs the bootstrap, in the archive worker.
      score: (result) => scoreOffThread(this.entryPoints.archiveWorker, scoreJobOf(this.archive, result, `trial ${trialId}`, suite.hash, config.packDigest)),
      // A result too large for one string: the worker reads the stored episodes itself.
      scoreStored: (fileDigest) =>
        runOffThread(this.entryPoints.archiveWorker, { kind: 'score-stored', input: scoreStoredJobOf(this.archive, trialId, `trial ${trialId}`, fileDigest, suite.hash, config.packDigest) }),
    });
    trial.started();
    const ended = runEvaluation({
      suite,
      suiteDir,
      manifest,
      manifestSource: `manifest ${row.manifest_hash}`,
      modelId: row.model_id,
      agent: spec,
      agentPaths,
      actTimeoutMs: config.actTimeoutMs,
      sink,
      continueOnFailure: config.continueOnFailure,
      jobs,
      workerThreads: true,
      entryPoints: this.entryPoints,
      scope: this.scope,
      scoring: pack === null ? {} : packScoringContext(pack),
      signal: run.controller.signal,
      onProgress: (p) => {
        run.finished = p.finished;
        run.scheduled = p.scheduled;
        run.etaMs = p.etaMs;
        const detail = p.status === 'done' ? `${p.termination}, ${p.steps} steps` : p.failure;
        // A failure's message ends with the agent's stderr tail, when its process wrote any.
        if (p.status === 'failed') this.log(trialId, 'failure', `episode ${p.index} (${p.scenarioId}) failed: ${p.failure}`);
        this.progress(run, { state: 'running', episode: { index: p.index, scenarioId: p.scenarioId, status: p.status, detail } }, false);
      },
    }).then(
      async (summary): Promise<RunEnd> => {
        run.finished = summary.completedEpisodes + summary.failedEpisodes;
        if (spec.kind !== 'builtin') {
          // The operational record (built by the series, workflows/trial-record.ts), before the run is reported ended:
          // a language model's from the transcripts of the episodes the result holds; a module or command agent's its
          // isolation level and this run's wall time.
          try {
            const wallMs = performance.now() - run.began;
            await trial.record({ modelId: row.model_id, agent: spec, agentPaths, actTimeoutMs: config.actTimeoutMs, isolation, summary, wallMs });
            this.emit('archive.changed', { kind: 'trial', trialId, what: 'details' });
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            this.end(run, { state: 'failed', error: { kind: isEmberError(error) ? error.kind : 'internal', message: `operational record: ${message}` } });
            return 'failed';
          }
        }
        const state = summary.complete ? 'complete' : 'incomplete';
        // What the next trial of a series starts from (runSeries reads it).
        if (run.series !== undefined) this.endTotals.set(trialId, this.totals(run));
        this.end(run, { state });
        return state;
      },
      (error: unknown): RunEnd => {
        // The sink marked the trial interrupted (or it never started); make sure of it.
        this.active.delete(trialId);
        this.markInterrupted(trialId);
        if (isEmberError(error) && error.kind === 'interrupted') {
          this.end(run, { state: 'cancelled' });
          return 'cancelled';
        }
        const kind = isEmberError(error) ? error.kind : 'internal';
        const message = error instanceof Error ? error.message : String(error);
        this.end(run, { state: 'failed', error: { kind, message } });
        return 'failed';
      },
    );
    run.done = ended.then(() => undefined);
    return ended;
  }

  private event(run: ActiveRun, extra: Partial<RunProgressEvent> & Pick<RunProgressEvent, 'state'>): RunProgressEvent {
    return {
      trialId: run.trialId,
      finished: run.finished,
      scheduled: run.scheduled,
      elapsedMs: Math.round(performance.now() - run.began),
      etaMs: Math.round(run.etaMs),
      runningScore: run.scoreCount === 0 ? null : (run.scoreSum / run.scoreCount).toFixed(2),
      ...(run.live === undefined ? {} : { usage: liveUsageOf(run.live) }),
      ...(run.series === undefined ? {} : { trial: { index: run.series.index, count: run.series.count, totals: this.totals(run) } }),
      ...extra,
    };
  }

  /** The series' totals so far: the trials before this one, plus this one's episodes and live usage. */
  private totals(run: ActiveRun): RunTotals {
    const before = run.series?.before ?? NO_TOTALS;
    return addRunTotals(before, run.finished, run.live === undefined ? undefined : liveUsageOf(run.live));
  }

  /** Emits now, or once the interval has passed (the latest state wins), so a fast run cannot flood the renderer. */
  private progress(run: ActiveRun, extra: Partial<RunProgressEvent> & Pick<RunProgressEvent, 'state'>, force: boolean): void {
    const event = this.event(run, extra);
    const now = performance.now();
    if (force || now - run.lastEmit >= PROGRESS_INTERVAL_MS) {
      if (run.timer !== undefined) clearTimeout(run.timer);
      run.timer = undefined;
      run.pending = undefined;
      run.lastEmit = now;
      this.emit('run.progress', event);
      this.emit('archive.changed', changeOf(event));
      return;
    }
    run.pending = event;
    run.timer ??= setTimeout(() => {
      run.timer = undefined;
      const pending = run.pending;
      run.pending = undefined;
      if (pending === undefined) return;
      run.lastEmit = performance.now();
      this.emit('run.progress', pending);
      this.emit('archive.changed', changeOf(pending));
    }, PROGRESS_INTERVAL_MS - (now - run.lastEmit));
  }

  /**
   * Appends to the trial's run log (trial-housekeeping.ts). The log is for
   * people, beside the trial: a write the archive refuses (a full disk)
   * never fails or stops the run.
   */
  private log(trialId: number, level: 'info' | 'warning' | 'failure', message: string): void {
    try {
      this.archive.write((db) => appendTrialLog(db, trialId, { at: new Date().toISOString(), level, message }));
    } catch {
      // the run's own writes report a full disk
    }
  }

  /** The run's wall time (added to the trial's: a resume adds its own) and how it ended, in the run log. */
  private recordEnd(run: ActiveRun, extra: Pick<RunProgressEvent, 'state'> & Partial<RunProgressEvent>): void {
    const wallMs = performance.now() - run.began;
    try {
      this.archive.write((db) => addRunTime(db, run.trialId, wallMs));
    } catch {
      // as in log()
    }
    const how = `${extra.state}: ${run.finished} of ${run.scheduled} episode(s) finished after ${(wallMs / 1000).toFixed(1)} s`;
    if (extra.state === 'failed') this.log(run.trialId, 'failure', `${how}; ${extra.error?.kind ?? 'internal'}: ${extra.error?.message ?? ''}`);
    else this.log(run.trialId, extra.state === 'incomplete' ? 'warning' : 'info', how);
  }

  private end(run: ActiveRun, extra: Pick<RunProgressEvent, 'state'> & Partial<RunProgressEvent>): void {
    this.recordEnd(run, extra);
    if (run.ticker !== undefined) clearInterval(run.ticker);
    run.ticker = undefined;
    this.active.delete(run.trialId);
    this.progress(run, { ...extra, etaMs: 0 }, true);
  }
}
