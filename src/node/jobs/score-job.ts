/**
 * Scoring a trial as an archive job (archive-jobs.ts, run off the caller's
 * event loop by off-thread.ts). Authenticating a result replays every
 * record and the report runs a bootstrap: seconds for a large trial. A
 * ScoreJob carries the bytes it needs (the result, the suite's or the
 * pack's files), so the archive worker rebuilds and checks everything
 * itself.
 */

import type { Archive } from '../archive/archive.js';
import { packFromFiles, storedPackFiles, storedSuiteFiles, suiteFromFiles } from '../archive/inputs-store.js';
import type { EvaluationResult } from '../../core/eval/result.js';
import { runSteps, type Steps } from '../../core/steps.js';
import { scoreResultTextSteps } from './score-trial.js';
import type { ScoredTrial } from '../archive/trials-store.js';

export interface ScoreJob {
  /** The result file's text, or its UTF-8 bytes in consecutive chunks (a result the archive composed: see ArchiveSink.finish). */
  readonly result: string | readonly Uint8Array[];
  /** Names the result in messages. */
  readonly source: string;
  readonly suiteHash: string;
  readonly suiteFiles: readonly (readonly [string, Uint8Array])[];
  /** An official trial's pack, or null (scored against the suite). */
  readonly pack: { readonly digest: string; readonly files: readonly (readonly [string, Uint8Array])[] } | null;
}

/** The job of a result text against a stored suite (and pack), its bytes read (and digest-checked) from the archive. */
export function scoreJobOf(archive: Archive, result: string | readonly Uint8Array[], source: string, suiteHash: string, packDigest: string | null): ScoreJob {
  return {
    result,
    source,
    suiteHash,
    suiteFiles: [...storedSuiteFiles(archive, suiteHash)],
    pack: packDigest === null ? null : { digest: packDigest, files: [...storedPackFiles(archive, packDigest)] },
  };
}

/** Runs a job in this thread: the suite and pack authenticated from the bytes, then `score`'s computation. */
export function runScoreJob(job: ScoreJob): ScoredTrial {
  return runSteps(scoreJobSteps(job));
}

/** runScoreJob as steps (src/core/steps.ts): those of scoreResultTextSteps. `parsed`: the caller's parse of the job's result text. */
export function* scoreJobSteps(job: ScoreJob, parsed?: EvaluationResult): Steps<ScoredTrial> {
  const pack = job.pack === null ? null : packFromFiles(new Map(job.pack.files), job.pack.digest, false);
  const suite = pack?.suite ?? suiteFromFiles(new Map(job.suiteFiles), `archive:suite/${job.suiteHash.slice(0, 12)}`);
  const text = typeof job.result === 'string' ? job.result : Buffer.concat(job.result).toString('utf8');
  return yield* scoreResultTextSteps(text, job.source, { suite, pack }, parsed);
}
