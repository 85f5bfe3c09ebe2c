/**
 * Preparing an import (src/node/archive/archive-io.ts writes it): everything but the
 * writing, so that it can run in the archive worker (off-thread.ts) while
 * the app's main process goes on. The result text is hashed, parsed
 * strictly, authenticated from scratch like `evaluation verify` (every
 * record replayed, every metric recomputed) and scored like `score --pack`
 * (official) when its manifest is that of exactly one stored environment
 * pack, else like `score --suite` (unofficial); then its records, metrics
 * and the result itself are packed (digested and compressed). What comes
 * back is plain data: the rows to write and the packed artifacts, never the
 * parsed result (sending it back would cost the main thread what parsing
 * did).
 *
 * In the worker the job reads the archive through its own read-only
 * connection (a job carries paths, never a database handle); the CLI
 * prepares in its own thread with its writer connection.
 */

import { ValidationError } from '../../core/errors.js';
import { parseResultText } from '../../core/eval/result.js';
import { parseOperationalRecordText, type OperationalRecord } from '../../core/scoring/operational.js';
import { packArtifact, sha256OfBytes, utf8 } from '../archive/artifacts.js';
import { Archive } from '../archive/archive.js';
import { onlyPackOfManifest } from '../archive/catalog-queries.js';
import { hasSuite, loadStoredSuite } from '../archive/inputs-store.js';
import { trialOfResultDigest } from '../archive/queries.js';
import { runScoreJob, scoreJobOf } from './score-job.js';
import { scoreResultText } from './score-trial.js';
import { episodeRowOf, packEpisode } from '../archive/trials-store.js';
import type { DuplicateImport, ImportedRecordFile, PreparedImport } from '../archive/archive-io.js';

/** The operational record given with a result: strict, canonical, and of the result's model (ValidationError otherwise). */
function checkRecordOf(modelId: string, file: ImportedRecordFile): { text: string; record: OperationalRecord } {
  const record = parseOperationalRecordText(file.text, file.fileName);
  if (record.model_id !== modelId) {
    throw new ValidationError(`${file.fileName}: the operational record is of model ${JSON.stringify(record.model_id)}, the result of ${JSON.stringify(modelId)}`);
  }
  return { text: file.text, record };
}

/**
 * Prepares one evaluation result text without writing anything; throws
 * (ValidationError, or MismatchError for a replay mismatch) with the reason
 * when it does not authenticate. A result whose bytes are already archived
 * needs no work: `duplicate` names its trial.
 */
export function prepareImport(archive: Archive, fileName: string, text: string, operational?: ImportedRecordFile): PreparedImport | DuplicateImport {
  const bytes = utf8(text);
  const digest = sha256OfBytes(bytes);
  const existing = trialOfResultDigest(archive, digest);
  if (existing !== undefined) return { duplicate: existing };
  const result = parseResultText(text, fileName);
  const suiteRef = result.manifest.suite;
  if (!hasSuite(archive, suiteRef.suite_hash)) {
    throw new ValidationError(
      `${fileName}: the result targets suite ${suiteRef.suite_id} ${suiteRef.suite_version} (${suiteRef.suite_hash}), which is not in the archive; add that suite's folder first`,
    );
  }
  const checkedRecord = operational === undefined ? undefined : checkRecordOf(result.model_id, operational);
  const pack = onlyPackOfManifest(archive, result.manifest_hash);
  const suite = loadStoredSuite(archive, suiteRef.suite_hash);
  // The long part: every record replayed, every metric recomputed, the report built.
  const scored = pack === null ? scoreResultText(text, fileName, { suite, pack: null }) : runScoreJob(scoreJobOf(archive, text, fileName, suiteRef.suite_hash, pack.digest));
  return {
    fileName,
    digest,
    modelId: result.model_id,
    manifest: result.manifest,
    suiteHash: suiteRef.suite_hash,
    pack,
    families: new Map(suite.entries.map((e) => [e.scenarioId, e.primaryFamily])),
    episodes: result.episodes.map((e) => ({ row: episodeRowOf(e), packed: packEpisode(e) })),
    failures: result.failures,
    complete: result.episodes.length === result.manifest.episodes.length,
    result: packArtifact('result', bytes),
    scored,
    ...(checkedRecord === undefined ? {} : { operational: checkedRecord }),
  };
}

/** The job of preparing an import in the archive worker: the archive's path (opened read-only there) and the files. */
export interface ImportPrepareJob {
  readonly archivePath: string;
  readonly fileName: string;
  readonly text: string;
  readonly operational?: ImportedRecordFile;
}

export function runImportPrepareJob(job: ImportPrepareJob): PreparedImport | DuplicateImport {
  const archive = Archive.open(job.archivePath, { mode: 'read' });
  try {
    return prepareImport(archive, job.fileName, job.text, job.operational);
  } finally {
    archive.close();
  }
}
