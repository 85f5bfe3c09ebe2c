/**
 * Scoring a trial off the caller's event loop. Authenticating a result
 * replays every record and the report runs a bootstrap: seconds for a large
 * trial, which must not freeze the app's main process (IPC) or the server.
 * A ScoreJob carries the bytes it needs (the result text, the suite's or the
 * pack's files), so a worker thread (score-worker.ts) rebuilds and checks
 * everything itself; without a worker entry it runs in this thread.
 */

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { fromWire, type WireError } from '../eval/protocol.js';
import type { Db } from './db.js';
import { packFromFiles, storedPackFiles, storedSuiteFiles, suiteFromFiles } from './inputs-store.js';
import { scoreResultText, type ScoredTrial } from './score-trial.js';

export interface ScoreJob {
  readonly resultText: string;
  /** Names the result in messages. */
  readonly source: string;
  readonly suiteHash: string;
  readonly suiteFiles: readonly (readonly [string, Uint8Array])[];
  /** An official trial's pack, or null (scored against the suite). */
  readonly pack: { readonly digest: string; readonly files: readonly (readonly [string, Uint8Array])[] } | null;
}

export type ScoreReply = { readonly ok: true; readonly scored: ScoredTrial } | { readonly ok: false; readonly error: WireError };

/** The job of a result text against a stored suite (and pack), its bytes read (and digest-checked) from the archive. */
export function scoreJobOf(db: Db, resultText: string, source: string, suiteHash: string, packDigest: string | null): ScoreJob {
  return {
    resultText,
    source,
    suiteHash,
    suiteFiles: [...storedSuiteFiles(db, suiteHash)],
    pack: packDigest === null ? null : { digest: packDigest, files: [...storedPackFiles(db, packDigest)] },
  };
}

/** Runs a job in this thread: the suite and pack authenticated from the bytes, then `score`'s computation. */
export function runScoreJob(job: ScoreJob): ScoredTrial {
  const pack = job.pack === null ? null : packFromFiles(new Map(job.pack.files), job.pack.digest, false);
  const suite = pack?.suite ?? suiteFromFiles(new Map(job.suiteFiles), `archive:suite/${job.suiteHash.slice(0, 12)}`);
  return scoreResultText(job.resultText, job.source, { suite, pack });
}

function startWorker(entry: string, job: ScoreJob): Worker {
  if (!entry.endsWith('.ts')) return new Worker(entry, { workerData: job });
  // A source entry (tsx, vitest): register tsx in the thread first (execArgv --import does not apply on Node 20).
  const require = createRequire(import.meta.url);
  const tsxApi = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist', 'esm', 'api', 'index.mjs')).href;
  const code = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(pathToFileURL(entry).href)}); });`;
  return new Worker(code, { eval: true, workerData: job });
}

/** Scores in a worker thread started from `entry` (score-worker.ts or its bundle), or in this thread without one. */
export function scoreOffThread(entry: string | undefined, job: ScoreJob): Promise<ScoredTrial> {
  if (entry === undefined) return new Promise((resolve, reject) => setImmediate(() => {
    try {
      resolve(runScoreJob(job));
    } catch (error) {
      reject(error);
    }
  }));
  return new Promise((resolve, reject) => {
    const worker = startWorker(entry, job);
    let settled = false;
    worker.once('message', (reply: ScoreReply) => {
      settled = true;
      if (reply.ok) resolve(reply.scored);
      else reject(fromWire(reply.error));
      void worker.terminate();
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the scoring worker stopped (exit code ${code}) before it answered`));
    });
  });
}
