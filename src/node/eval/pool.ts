/**
 * The worker pool of `evaluation run --jobs N`: N worker_threads threads
 * (worker.ts), each with its own agent session, each running one episode at
 * a time. The runner commits results in completion order; the saved result
 * is always sorted by index, so the bytes equal a serial run's.
 *
 * Agent processes started in a worker do not get the worker's exit hooks
 * when the process exits (Ctrl+C exits from the main thread), so workers
 * report every agent process and the pool holds the live ones in its
 * ResourceScope (killed on dispose or exit).
 */

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ManifestEpisode } from '../../core/eval/manifest.js';
import type { ResultEpisode } from '../../core/eval/result.js';
import type { EpisodeScoring } from './evaluate-episode.js';
import { processResource, processScope, type Release, type ResourceScope } from '../lifetime.js';
import { fromWire, type FromWorker, type ToWorker, type WorkerConfig } from './protocol.js';

/** How long a closing worker may take to close its agent session. */
const CLOSE_GRACE_MS = 5_000;

function killPid(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Starts a worker from EntryPoints.evaluationWorker. A built worker (.js)
 * starts directly; a source worker (.ts, under tsx or vitest) registers tsx
 * in its thread first: `--import tsx` in a worker's execArgv does not apply
 * its hooks on Node 20.
 */
function startWorker(config: WorkerConfig): Worker {
  const entry = config.entryPoints.evaluationWorker;
  if (!entry.endsWith('.ts')) return new Worker(entry, { workerData: config });
  const require = createRequire(import.meta.url);
  // tsx's ESM API (package export "./esm/api", import condition), resolved from this package.
  const tsxApi = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist', 'esm', 'api', 'index.mjs')).href;
  const code = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(pathToFileURL(entry).href)}); });`;
  return new Worker(code, { eval: true, workerData: config });
}

/** A finished episode from a worker: what the runner commits, scored when the run has a scoring context. */
export interface PooledEpisode {
  readonly episode: ResultEpisode;
  readonly scoring?: EpisodeScoring;
}

interface Pending {
  resolve(episode: PooledEpisode): void;
  reject(error: Error): void;
}

class PoolWorker {
  private pending: Pending | undefined;
  private readyWaiter: { resolve(): void; reject(error: Error): void } | undefined;
  private closedWaiter: (() => void) | undefined;
  /** Live agent processes the worker reported, each held in the pool's scope. */
  private readonly pids = new Map<number, Release>();
  private failure: Error | undefined;
  readonly exited: Promise<void>;

  constructor(
    private readonly worker: Worker,
    private readonly scope: ResourceScope,
  ) {
    worker.on('message', (message: FromWorker) => this.onMessage(message));
    worker.on('error', (error) => this.fail(error instanceof Error ? error : new Error(String(error))));
    this.exited = new Promise((resolveExit) => {
      worker.on('exit', (code) => {
        this.fail(new Error(`evaluation worker exited unexpectedly (code ${code})`));
        this.closedWaiter?.();
        resolveExit();
      });
    });
  }

  ready(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.readyWaiter = { resolve, reject };
    });
  }

  run(job: ManifestEpisode): Promise<PooledEpisode> {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      if (this.pending) return reject(new Error('evaluation worker is busy'));
      this.pending = { resolve, reject };
      this.worker.postMessage({ type: 'run', job } satisfies ToWorker);
    });
  }

  /** Asks the worker to close its agent session; terminates it if that takes too long. */
  async close(): Promise<void> {
    if (this.failure === undefined) {
      const closed = new Promise<void>((resolve) => {
        this.closedWaiter = resolve;
      });
      this.worker.postMessage({ type: 'close' } satisfies ToWorker);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)))]);
      clearTimeout(timer);
    }
    await this.terminate();
  }

  /** Stops the thread now and kills the agent processes it reported. */
  async terminate(): Promise<void> {
    this.fail(new Error('evaluation worker stopped'));
    await this.worker.terminate();
    this.killChildren();
  }

  private killChildren(): void {
    for (const [pid, release] of this.pids) {
      killPid(pid);
      release();
    }
    this.pids.clear();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(this.failure);
    this.readyWaiter?.reject(this.failure);
    this.readyWaiter = undefined;
  }

  private onMessage(message: FromWorker): void {
    switch (message.type) {
      case 'ready':
        this.readyWaiter?.resolve();
        this.readyWaiter = undefined;
        return;
      case 'done': {
        const pending = this.pending;
        this.pending = undefined;
        pending?.resolve(message.scoring === undefined ? { episode: message.episode } : { episode: message.episode, scoring: message.scoring });
        return;
      }
      case 'error': {
        const error = fromWire(message.error);
        if (this.readyWaiter) {
          // The worker could not open: it has nothing more to do.
          this.fail(error);
          return;
        }
        const pending = this.pending;
        this.pending = undefined;
        pending?.reject(error);
        return;
      }
      case 'child':
        if (message.live) {
          if (!this.pids.has(message.pid)) this.pids.set(message.pid, this.scope.add(processResource(() => killPid(message.pid))));
        } else {
          this.pids.get(message.pid)?.();
          this.pids.delete(message.pid);
        }
        return;
      case 'closed':
        // The session closed every agent process it started.
        for (const release of this.pids.values()) release();
        this.pids.clear();
        this.closedWaiter?.();
        return;
    }
  }
}

export class WorkerPool {
  private constructor(private readonly workers: readonly PoolWorker[]) {}

  /**
   * Starts `size` workers and waits until every one has opened its agent
   * session; the first failure is thrown. The agent processes the workers
   * report are held in `scope` (default processScope), so they are killed
   * when it is disposed or the process exits.
   */
  static async open(size: number, config: WorkerConfig, scope: ResourceScope = processScope): Promise<WorkerPool> {
    const workers = Array.from({ length: size }, () => new PoolWorker(startWorker(config), scope));
    const results = await Promise.allSettled(workers.map((w) => w.ready()));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) {
      await Promise.all(workers.map((w) => w.terminate()));
      throw failed.reason;
    }
    return new WorkerPool(workers);
  }

  get size(): number {
    return this.workers.length;
  }

  /** Runs a job on worker `lane` (0 .. size - 1), which must be idle: each lane runs one episode at a time. */
  run(lane: number, job: ManifestEpisode): Promise<PooledEpisode> {
    const worker = this.workers[lane];
    if (worker === undefined) throw new RangeError(`no worker ${lane}`);
    return worker.run(job);
  }

  /** Closes every worker's agent session, then stops the threads. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
  }

  /** Stops every thread now and kills their agent processes. */
  async terminate(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
