/**
 * Scoring a run's result that is too large for one string (more than
 * MAX_TEXT_INPUT_BYTES), as an archive job: the worker reads the trial's
 * stored episodes through its own read-only connection and authenticates
 * and scores them one at a time, as `emberbench score` streams a large
 * result file (workflows/score.ts piecesTrial). The report is the one
 * `score` writes for the same result, byte for byte.
 */

import { ValidationError } from '../../core/errors.js';
import { scoreReportText } from '../../core/scoring/report.js';
import { summaryText } from '../../core/scoring/summary.js';
import type { ResultPieces } from '../eval/result-reader.js';
import { piecesTrial, scoreAuthenticated } from '../workflows/score.js';
import { Archive } from '../archive/archive.js';
import { loadStoredManifest, packFromFiles, storedPackFiles, storedSuiteFiles, suiteFromFiles } from '../archive/inputs-store.js';
import { getTrialDbRow } from '../archive/queries.js';
import type { ScoredTrial } from '../archive/trials-store.js';
import { storedEpisodeJson, storedEpisodeRefs, storedResultHead } from '../archive/stored-result.js';

type Files = readonly (readonly [string, Uint8Array])[];

export interface ScoreStoredJob {
  readonly archivePath: string;
  readonly trialId: number;
  /** Names the result in messages (as the whole-text path names it). */
  readonly source: string;
  /** The result's digest (fileDigest), taken as its bytes were composed and stored. */
  readonly fileDigest: string;
  readonly suiteHash: string;
  readonly suiteFiles: Files;
  /** An official trial's pack, or null (scored against the suite). */
  readonly pack: { readonly digest: string; readonly files: Files } | null;
}

const EMPTY_EPISODES = '{"episodes":[]';

/** The job for a trial of `archive`, its suite's (and pack's) bytes read (and digest-checked) here. */
export function scoreStoredJobOf(archive: Archive, trialId: number, source: string, fileDigest: string, suiteHash: string, packDigest: string | null): ScoreStoredJob {
  return {
    archivePath: archive.path,
    trialId,
    source,
    fileDigest,
    suiteHash,
    suiteFiles: [...storedSuiteFiles(archive, suiteHash)],
    pack: packDigest === null ? null : { digest: packDigest, files: [...storedPackFiles(archive, packDigest)] },
  };
}

export function runScoreStoredJob(job: ScoreStoredJob): ScoredTrial {
  const pack = job.pack === null ? null : packFromFiles(new Map(job.pack.files), job.pack.digest, false);
  const suite = pack?.suite ?? suiteFromFiles(new Map(job.suiteFiles), `archive:suite/${job.suiteHash.slice(0, 12)}`);
  const archive = Archive.open(job.archivePath, { mode: 'read' });
  try {
    const row = getTrialDbRow(archive, job.trialId);
    if (row === undefined) throw new ValidationError(`archive: there is no trial ${job.trialId}`);
    const manifest = loadStoredManifest(archive, row.manifest_hash);
    if (manifest === undefined) throw new ValidationError(`archive: trial ${job.trialId} names manifest ${row.manifest_hash}, which is missing`);
    const refs = storedEpisodeRefs(archive, job.trialId);
    const head = storedResultHead(archive, job.trialId, manifest, row.manifest_hash, row.model_id);
    const pieces: ResultPieces = {
      tail: head.slice(EMPTY_EPISODES.length),
      count: refs.length,
      episode: (i) => storedEpisodeJson(archive, refs[i]!),
      at: () => 0,
      digest: job.fileDigest,
    };
    const trial = piecesTrial(suite, pack, pieces, job.source, 0).trial;
    const report = scoreAuthenticated({ suite, pack, trials: [trial], results: [{ source: job.source }] });
    return { report, reportText: scoreReportText(report), summary: summaryText(report) };
  } finally {
    archive.close();
  }
}
