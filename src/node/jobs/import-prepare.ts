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
 * prepares in its own thread with its writer connection, before its write
 * transaction and in slices (prepareImportCooperatively), so Ctrl+C stops it
 * at once; the steps are the same, so the prepared bytes are too.
 */

import { ValidationError } from '../../core/errors.js';
import { parseOperationalRecordText, type OperationalRecord } from '../../core/scoring/operational.js';
import { createHash } from 'node:crypto';
import { manifestHash } from '../../core/eval/manifest.js';
import { runSteps, type StepProgress, type Steps } from '../../core/steps.js';
import type { Suite } from '../../core/world/suite.js';
import { packArtifact, packArtifactAsync, utf8 } from '../archive/artifacts.js';
import { Archive } from '../archive/archive.js';
import { onlyPackOfManifest } from '../archive/catalog-queries.js';
import { hasSuite, loadStoredSuite, storedPackFiles, storedSuiteFiles, suiteFromFiles } from '../archive/inputs-store.js';
import { trialOfResultDigest } from '../archive/queries.js';
import { driveSteps } from '../cooperative.js';
import { parseResultTextSteps } from '../eval/result-text-steps.js';
import { scoreJobSteps } from './score-job.js';
import { scoreResultTextSteps } from './score-trial.js';
import { episodeRowOf, packEpisode, type EpisodeRowData, type PackedEpisode } from '../archive/trials-store.js';
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
 * A suite given with the import (a --suite folder) that is stored in the
 * import's own write transaction: preparing before that transaction uses
 * its files as the archive will hold them.
 */
export interface GivenSuite {
  readonly suite: Suite;
  readonly files: ReadonlyMap<string, Uint8Array>;
}

/** A prepared import whose result artifact is still to be packed (packed in this thread, or in the thread pool by the CLI). */
type UnpackedImport = Omit<PreparedImport, 'result'> & { readonly resultBytes: Buffer };

/** A result whose bytes the archive holds already, as this trial; with the digest it was found by. */
export type FoundDuplicate = DuplicateImport & { readonly digest: string };

/** Hashing a large result in pieces of this many bytes, a step each. */
const HASH_PIECE_BYTES = 4 << 20;

function* digestSteps(bytes: Buffer): Steps<string> {
  const hash = createHash('sha256');
  for (let at = 0; at < bytes.length; at += HASH_PIECE_BYTES) {
    hash.update(bytes.subarray(at, at + HASH_PIECE_BYTES));
    yield { what: 'hashing result', done: at, total: bytes.length };
  }
  return hash.digest('hex');
}

/** The bytes of a given suite's files as storedSuiteFiles reads them back once stored (ordered by name, as SQLite's BINARY collation orders them). */
function givenSuiteFiles(given: GivenSuite): Map<string, Uint8Array> {
  return new Map([...given.files].sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
}

/**
 * Prepares one evaluation result text without writing anything, as steps
 * (src/core/steps.ts): hashing, parsing, the replay of every record and the
 * bootstrap, then the packing of each episode, each yielding its progress.
 * The suite may be stored in the archive or be one of `given` (stored by
 * the caller's write transaction): it is loaded from the same bytes either way.
 */
function* prepareUnpackedSteps(
  archive: Archive,
  fileName: string,
  text: string,
  operational: ImportedRecordFile | undefined,
  given: readonly GivenSuite[],
): Steps<UnpackedImport | FoundDuplicate> {
  const bytes = utf8(text);
  const digest = yield* digestSteps(bytes);
  const existing = trialOfResultDigest(archive, digest);
  if (existing !== undefined) return { duplicate: existing, digest };
  const result = yield* parseResultTextSteps(text, bytes, fileName);
  yield { what: 'replaying episodes', done: 0, total: result.episodes.length };
  const suiteRef = result.manifest.suite;
  const stored = hasSuite(archive, suiteRef.suite_hash);
  const givenSuite = stored ? undefined : given.find((g) => g.suite.hash === suiteRef.suite_hash);
  if (!stored && givenSuite === undefined) {
    throw new ValidationError(
      `${fileName}: the result targets suite ${suiteRef.suite_id} ${suiteRef.suite_version} (${suiteRef.suite_hash}), which is not in the archive; add that suite's folder first`,
    );
  }
  const checkedRecord = operational === undefined ? undefined : checkRecordOf(result.model_id, operational);
  const pack = onlyPackOfManifest(archive, result.manifest_hash);
  const suiteFiles = givenSuite === undefined ? storedSuiteFiles(archive, suiteRef.suite_hash) : givenSuiteFiles(givenSuite);
  const suite = givenSuite === undefined ? loadStoredSuite(archive, suiteRef.suite_hash) : suiteFromFiles(suiteFiles, `archive:suite/${suiteRef.suite_hash.slice(0, 12)}`);
  // The long part: every record replayed, every metric recomputed, the report built.
  const scored =
    pack === null
      ? yield* scoreResultTextSteps(text, fileName, { suite, pack: null }, result)
      : yield* scoreJobSteps(
          { result: text, source: fileName, suiteHash: suiteRef.suite_hash, suiteFiles: [...suiteFiles], pack: { digest: pack.digest, files: [...storedPackFiles(archive, pack.digest)] } },
          result,
        );
  const episodes: { row: EpisodeRowData; packed: PackedEpisode }[] = [];
  for (const [k, e] of result.episodes.entries()) {
    yield { what: 'packing episodes', done: k, total: result.episodes.length };
    episodes.push({ row: episodeRowOf(e), packed: packEpisode(e) });
  }
  return {
    fileName,
    digest,
    modelId: result.model_id,
    manifest: result.manifest,
    suiteHash: suiteRef.suite_hash,
    pack,
    families: new Map(suite.entries.map((e) => [e.scenarioId, e.primaryFamily])),
    episodes,
    failures: result.failures,
    complete: result.episodes.length === result.manifest.episodes.length,
    resultBytes: bytes,
    scored,
    ...(checkedRecord === undefined ? {} : { operational: checkedRecord }),
  };
}

/**
 * Prepares one evaluation result text without writing anything; throws
 * (ValidationError, or MismatchError for a replay mismatch) with the reason
 * when it does not authenticate. A result whose bytes are already archived
 * needs no work: `duplicate` names its trial.
 */
export function prepareImport(archive: Archive, fileName: string, text: string, operational?: ImportedRecordFile, given: readonly GivenSuite[] = []): PreparedImport | FoundDuplicate {
  const p = runSteps(prepareUnpackedSteps(archive, fileName, text, operational, given));
  if ('duplicate' in p) return p;
  const { resultBytes, ...rest } = p;
  return { ...rest, result: packArtifact('result', resultBytes) };
}

/**
 * prepareImport for a command: its steps driven in slices (src/node/cooperative.ts),
 * so Ctrl+C stops it at once, with their progress; the result compressed in
 * the thread pool (the same bytes as in this thread). Nothing is written.
 */
export async function prepareImportCooperatively(
  archive: Archive,
  fileName: string,
  text: string,
  operational: ImportedRecordFile | undefined,
  given: readonly GivenSuite[],
  onProgress?: (progress: StepProgress) => void,
): Promise<PreparedImport | FoundDuplicate> {
  const p = await driveSteps(prepareUnpackedSteps(archive, fileName, text, operational, given), onProgress === undefined ? {} : { onProgress });
  if ('duplicate' in p) return p;
  const { resultBytes, ...rest } = p;
  return { ...rest, result: await packArtifactAsync('result', resultBytes) };
}

/**
 * Whether what a preparation assumed of the archive still holds (called in
 * the write transaction, after the given suites are stored): the trial of a
 * duplicate is still there, the result's suite is stored, and the result's
 * manifest still has the same one pack (or none) that decided official or
 * unofficial. Another writer may have changed the archive in between.
 */
export function stillPrepared(archive: Archive, p: PreparedImport | FoundDuplicate): boolean {
  if ('duplicate' in p) return trialOfResultDigest(archive, p.digest) === p.duplicate;
  return hasSuite(archive, p.suiteHash) && onlyPackOfManifest(archive, manifestHash(p.manifest))?.digest === p.pack?.digest;
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
