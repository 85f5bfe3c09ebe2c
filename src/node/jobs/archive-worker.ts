/**
 * The archive worker (a worker_threads thread started by off-thread.ts):
 * runs the one job it is given (archive-jobs.ts) and posts its output, or
 * the error in its wire form.
 */

import { parentPort, workerData } from 'node:worker_threads';
import { toWire } from '../eval/protocol.js';
import { useNativeHash } from '../native-hash.js';
import { runArchiveJob } from './archive-jobs.js';
import { useSqliteNativeBinding } from '../archive/sqlite-binding.js';
import type { ArchiveJobReply, ArchiveWorkerData } from './off-thread.js';

const port = parentPort;
if (port !== null) {
  useNativeHash();
  const data = workerData as ArchiveWorkerData;
  // The app's main process loads better-sqlite3 built for Electron: this thread must load the same build.
  useSqliteNativeBinding(data.sqliteBinding);
  void runArchiveJob(data.job).then(
    (output): void => port.postMessage({ ok: true, output } satisfies ArchiveJobReply),
    (error: unknown): void => port.postMessage({ ok: false, error: toWire(error) } satisfies ArchiveJobReply),
  );
}
