/**
 * Runs an archive job (archive-jobs.ts) off the caller's event loop: in a
 * worker thread started from the archive worker's entry (archive-worker.ts
 * or its bundle), one thread per job, or, without an entry, in this thread
 * on a later turn. Authenticating a large result or recomputing a pack's
 * fire worlds takes seconds, which must not freeze the app's main process
 * (every IPC call waits on it) or the server.
 */

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { fromWire, type WireError } from '../eval/protocol.js';
import { runArchiveJob, type ArchiveJob, type ArchiveJobKind, type ArchiveJobs } from './archive-jobs.js';
import { sqliteNativeBinding } from './db.js';
import type { ScoreJob } from './score-job.js';
import type { ScoredTrial } from './score-trial.js';

/**
 * What a worker thread is started with: its job, and the better-sqlite3
 * binding of this thread (the Electron build, in the app's main process),
 * since a job that reads the archive opens it there (import-prepare.ts,
 * score-stored.ts) and a thread loads its modules afresh.
 */
export interface ArchiveWorkerData {
  readonly job: ArchiveJob;
  readonly sqliteBinding: string | undefined;
}

/** The worker's one message: the job's output, or its error in wire form. */
export type ArchiveJobReply = { readonly ok: true; readonly output: unknown } | { readonly ok: false; readonly error: WireError };

function startWorker(entry: string, job: ArchiveJob): Worker {
  const workerData: ArchiveWorkerData = { job, sqliteBinding: sqliteNativeBinding() };
  if (!entry.endsWith('.ts')) return new Worker(entry, { workerData });
  // A source entry (tsx, vitest): register tsx in the thread first (execArgv --import does not apply on Node 20).
  const require = createRequire(import.meta.url);
  const tsxApi = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist', 'esm', 'api', 'index.mjs')).href;
  const code = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(pathToFileURL(entry).href)}); });`;
  return new Worker(code, { eval: true, workerData });
}

/** Runs `job` in a worker thread started from `entry`, or in this thread (a later turn) without one. */
export function runOffThread<K extends ArchiveJobKind>(entry: string | undefined, job: ArchiveJob<K>): Promise<ArchiveJobs[K]['output']> {
  if (entry === undefined) return new Promise((resolve) => setImmediate(() => resolve(runArchiveJob(job))));
  return new Promise((resolve, reject) => {
    const worker = startWorker(entry, job);
    let settled = false;
    worker.once('message', (reply: ArchiveJobReply) => {
      settled = true;
      // The worker answers a job of kind K with that kind's output.
      if (reply.ok) resolve(reply.output as ArchiveJobs[K]['output']);
      else reject(fromWire(reply.error));
      void worker.terminate();
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the archive worker stopped (exit code ${code}) before it answered`));
    });
  });
}

/** Scores a trial off the caller's event loop (score-job.ts). */
export function scoreOffThread(entry: string | undefined, job: ScoreJob): Promise<ScoredTrial> {
  return runOffThread(entry, { kind: 'score', input: job });
}
