/**
 * The scoring worker (a worker_threads thread started by score-job.ts):
 * scores one trial from the bytes it is given and posts the report, or the
 * error in its wire form.
 */

import { parentPort, workerData } from 'node:worker_threads';
import { toWire } from '../eval/protocol.js';
import { runScoreJob, type ScoreJob, type ScoreReply } from './score-job.js';

if (parentPort !== null) {
  let reply: ScoreReply;
  try {
    reply = { ok: true, scored: runScoreJob(workerData as ScoreJob) };
  } catch (error) {
    reply = { ok: false, error: toWire(error) };
  }
  parentPort.postMessage(reply);
}
