/**
 * The archive worker (a worker_threads thread started by off-thread.ts):
 * runs the one job it is given (archive-jobs.ts) and posts its output, or
 * the error in its wire form.
 */

import { parentPort, workerData } from 'node:worker_threads';
import { toWire } from '../eval/protocol.js';
import { useNativeHash } from '../native-hash.js';
import { runArchiveJob, type ArchiveJob } from './archive-jobs.js';
import type { ArchiveJobReply } from './off-thread.js';

const port = parentPort;
if (port !== null) {
  useNativeHash();
  void runArchiveJob(workerData as ArchiveJob).then(
    (output): void => port.postMessage({ ok: true, output } satisfies ArchiveJobReply),
    (error: unknown): void => port.postMessage({ ok: false, error: toWire(error) } satisfies ArchiveJobReply),
  );
}
