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
import { getHeapStatistics } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { EmberError } from '../../core/errors.js';
import { fromWire, type WireError } from '../eval/protocol.js';
import { runArchiveJob, type ArchiveJob, type ArchiveJobKind, type ArchiveJobs } from './archive-jobs.js';
import { sqliteNativeBinding } from '../archive/sqlite-binding.js';
import type { ScoreJob } from './score-job.js';
import type { ScoredTrial } from '../archive/trials-store.js';

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

const MiB = 1024 * 1024;

/**
 * The heap one job's thread may use. A thread without a limit that runs out
 * of memory aborts the whole process (the server, the app and every running
 * evaluation with it); with one, only that thread ends, and its job fails
 * with ArchiveJobOutOfMemory. The default is this process's own heap limit,
 * so every job that ran before still runs.
 */
let jobHeapMb = Math.floor(getHeapStatistics().heap_size_limit / MiB);

/** Sets the heap limit of the archive jobs started from now on (a server with little memory; tests). */
export function setArchiveJobHeapLimit(megabytes: number): void {
  if (!Number.isInteger(megabytes) || megabytes < 16) throw new RangeError(`an archive job's heap limit must be an integer of at least 16 MB, not ${megabytes}`);
  jobHeapMb = megabytes;
}

/** A job whose thread reached its heap limit: the thread was stopped, nothing of the job was written. */
export class ArchiveJobOutOfMemory extends EmberError {
  override name = 'ArchiveJobOutOfMemory';
  constructor(kind: ArchiveJobKind, heapMb: number) {
    super(
      'validation',
      `${JOB_NAMES[kind]} needed more than the ${heapMb} MB of memory an archive job may use, and was stopped; nothing was written. The input is too large for this machine: ${kind.startsWith('import') ? 'import it with `emberbench archive import`, which has the memory of its own process' : 'try it with the emberbench command line'}`,
    );
  }
}

/** How a message names each kind of job. */
const JOB_NAMES: Readonly<Record<ArchiveJobKind, string>> = {
  score: 'scoring the result',
  'score-stored': 'scoring the stored result',
  'import-prepare': 'authenticating the imported result',
  'import-body': 'authenticating the imported result',
  'pack-build': 'building the pack',
  'pack-verify': 'verifying the pack',
  'trials-report': 'the report',
  'bundle-create': 'creating the bundle',
  'bundle-verify': 'verifying the bundle',
  'html-report': 'the HTML report',
};

function startWorker(entry: string, job: ArchiveJob): Worker {
  const workerData: ArchiveWorkerData = { job, sqliteBinding: sqliteNativeBinding() };
  const resourceLimits = { maxOldGenerationSizeMb: jobHeapMb };
  if (!entry.endsWith('.ts')) return new Worker(entry, { workerData, resourceLimits });
  // A source entry (tsx, vitest): register tsx in the thread first (execArgv --import does not apply on Node 20).
  const require = createRequire(import.meta.url);
  const tsxApi = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist', 'esm', 'api', 'index.mjs')).href;
  const code = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(pathToFileURL(entry).href)}); });`;
  return new Worker(code, { eval: true, workerData, resourceLimits });
}

/** Runs `job` in a worker thread started from `entry`, or in this thread (a later turn) without one. */
export function runOffThread<K extends ArchiveJobKind>(entry: string | undefined, job: ArchiveJob<K>): Promise<ArchiveJobs[K]['output']> {
  if (entry === undefined) return new Promise((resolve) => setImmediate(() => resolve(runArchiveJob(job))));
  const heapMb = jobHeapMb;
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
      reject((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY' ? new ArchiveJobOutOfMemory(job.kind, heapMb) : error);
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
