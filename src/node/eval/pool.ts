/**
 * The worker pool of `evaluation run --jobs N`: N worker_threads threads
 * (worker.ts), each with its own agent session, each running one episode at
 * a time. The runner commits results in completion order; the saved result
 * is always sorted by index, so the bytes equal a serial run's.
 *
 * Agent processes started in a worker do not get the worker's exit hooks
 * when the process exits (Ctrl+C exits from the main thread), so workers
 * report every agent process and the pool SIGKILLs the live ones on exit.
 */

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ManifestEpisode } from '../../core/eval/manifest.js';
import type { ResultEpisode } from '../../core/eval/result.js';
import { fromWire, type FromWorker, type ToWorker, type WorkerConfig } from './protocol.js';

/** How long a closing worker may take to close its agent session. */
const CLOSE_GRACE_MS = 5_000;

const livePids = new Set<number>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const pid of livePids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

/**
 * Starts a worker. From dist/ the worker is worker.js; from src/ (tsx,
 * vitest) it is worker.ts, and the thread registers tsx itself first:
 * `--import tsx` in a worker's execArgv does not apply its hooks on Node 20.
 */
function startWorker(config: WorkerConfig): Worker {
  const here = fileURLToPath(import.meta.url);
  if (!here.endsWith('.ts')) return new Worker(join(dirname(here), 'worker.js'), { workerData: config });
  const require = createRequire(import.meta.url);
  // tsx's ESM API (package export "./esm/api", import condition), resolved from this package.
  const tsxApi = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist', 'esm', 'api', 'index.mjs')).href;
  const entry = pathToFileURL(join(dirname(here), 'worker.ts')).href;
  const code = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(code, { eval: true, workerData: config });
}

interface Pending {
  resolve(episode: ResultEpisode): void;
  reject(error: Error): void;
}

class PoolWorker {
  private pending: Pending | undefined;
  private readyWaiter: { resolve(): void; reject(error: Error): void } | undefined;
  private closedWaiter: (() => void) | undefined;
  private readonly pids = new Set<number>();
  private failure: Error | undefined;
  readonly exited: Promise<void>;

  constructor(private readonly worker: Worker) {
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

  run(job: ManifestEpisode): Promise<ResultEpisode> {
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
    for (const pid of this.pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
      livePids.delete(pid);
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
        pending?.resolve(message.episode);
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
          this.pids.add(message.pid);
          livePids.add(message.pid);
        } else {
          this.pids.delete(message.pid);
          livePids.delete(message.pid);
        }
        return;
      case 'closed':
        // The session closed every agent process it started.
        for (const pid of this.pids) livePids.delete(pid);
        this.pids.clear();
        this.closedWaiter?.();
        return;
    }
  }
}

export class WorkerPool {
  private constructor(private readonly workers: readonly PoolWorker[]) {}

  /** Starts `size` workers and waits until every one has opened its agent session; the first failure is thrown. */
  static async open(size: number, config: WorkerConfig): Promise<WorkerPool> {
    installExitHook();
    const workers = Array.from({ length: size }, () => new PoolWorker(startWorker(config)));
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
  run(lane: number, job: ManifestEpisode): Promise<ResultEpisode> {
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
