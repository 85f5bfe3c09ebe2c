/**
 * The archive's long computations, as jobs that carry everything they need
 * (bytes or paths, never a database handle), so that the archive worker
 * (archive-worker.ts, a worker_threads thread) can run them off the app's
 * main process and the server's event loop (off-thread.ts):
 *
 * - `score`: authenticate a result and score it (score-job.ts), or, too
 *   large for one string, a run's result from its stored episodes
 *   (`score-stored`, score-stored.ts);
 * - `import-prepare`: authenticate, score and pack a result to import
 *   (import-prepare.ts), or `import-body` from a server's saved call body
 *   (import-body.ts);
 * - `pack-build`: `pack build` of a stored suite's bytes and a manifest
 *   text, in memory (every fire world and M*): the pack's files come back;
 * - `pack-verify`: a stored pack's files authenticated and every fire world
 *   and M* recomputed, as `pack verify`;
 * - the review views' reports, bundles and HTML reports (review-jobs.ts).
 */

import type { BundleIndex } from '../../core/bundle/bundle-index.js';
import { isEmberError } from '../../core/errors.js';
import type { ValidationReport } from '../../shared/api/contract.js';
import { buildPackFiles } from '../pack.js';
import { runImportBodyJob, type ImportBodyJob, type ImportBodyOutcome } from './import-body.js';
import type { DuplicateImport, PreparedImport } from '../archive/archive-io.js';
import { runImportPrepareJob, type ImportPrepareJob } from './import-prepare.js';
import { packFromFiles } from '../archive/inputs-store.js';
import {
  runBundleCreateJob,
  runBundleVerifyJob,
  runHtmlReportJob,
  runTrialsReportJob,
  type BundleCreateJob,
  type BundleVerifyOutput,
  type HtmlReportJob,
  type HtmlReportOutput,
  type TrialsReportJob,
} from './review-jobs.js';
import { runScoreJob, type ScoreJob } from './score-job.js';
import { runScoreStoredJob, type ScoreStoredJob } from './score-stored.js';
import type { ScoredTrial } from '../archive/trials-store.js';

export interface PackBuildJob {
  /** The suite's files by name (the archive's copy). */
  readonly suiteFiles: readonly (readonly [string, Uint8Array])[];
  /** The suite's name in messages (`archive:suite/...`). */
  readonly suiteSource: string;
  /** The evaluation manifest's file text. */
  readonly manifestText: string;
  readonly manifestSource: string;
}

export interface PackBuildOutput {
  readonly packDigest: string;
  /** The pack's files by pack-relative path: the bytes `pack build` writes into its folder. */
  readonly files: readonly (readonly [string, Uint8Array])[];
}

export interface PackVerifyJob {
  readonly packDigest: string;
  /** The stored pack's files by pack-relative path. */
  readonly files: readonly (readonly [string, Uint8Array])[];
}

/** Each kind of job: what it is given and what it answers. */
export interface ArchiveJobs {
  readonly score: { readonly input: ScoreJob; readonly output: ScoredTrial };
  /** A run's result too large for one string, scored from the stored episodes (score-stored.ts). */
  readonly 'score-stored': { readonly input: ScoreStoredJob; readonly output: ScoredTrial };
  /** Nothing is written: the caller commits what comes back (archive-io.ts commitImports). */
  readonly 'import-prepare': { readonly input: ImportPrepareJob; readonly output: PreparedImport | DuplicateImport };
  /** The same from a server's saved call body (import-body.ts): the result never passes the server's thread. */
  readonly 'import-body': { readonly input: ImportBodyJob; readonly output: ImportBodyOutcome };
  /** Nothing is written: the caller stores the files that come back. */
  readonly 'pack-build': { readonly input: PackBuildJob; readonly output: PackBuildOutput };
  readonly 'pack-verify': { readonly input: PackVerifyJob; readonly output: ValidationReport };
  /** The report's canonical text. */
  readonly 'trials-report': { readonly input: TrialsReportJob; readonly output: string };
  /** The bundle is written into `outDir`. */
  readonly 'bundle-create': { readonly input: BundleCreateJob; readonly output: BundleIndex };
  /** The input is the bundle folder. */
  readonly 'bundle-verify': { readonly input: string; readonly output: BundleVerifyOutput };
  readonly 'html-report': { readonly input: HtmlReportJob; readonly output: HtmlReportOutput };
}

export type ArchiveJobKind = keyof ArchiveJobs;

export interface ArchiveJob<K extends ArchiveJobKind = ArchiveJobKind> {
  readonly kind: K;
  readonly input: ArchiveJobs[K]['input'];
}

function buildPackJob(job: PackBuildJob): PackBuildOutput {
  const { pack, files } = buildPackFiles(new Map(job.suiteFiles), job.suiteSource, job.manifestText, job.manifestSource);
  return { packDigest: pack.digest, files: [...files] };
}

function verifyPackJob(job: PackVerifyJob): ValidationReport {
  try {
    const pack = packFromFiles(new Map(job.files), job.packDigest, true);
    return { valid: true, message: `${pack.packId}: every file matches its digest; all ${pack.manifest.episodes.length} fire worlds and M* recomputed equal` };
  } catch (error) {
    if (isEmberError(error)) return { valid: false, message: error.message };
    throw error;
  }
}

type Handlers = { readonly [K in ArchiveJobKind]: (input: ArchiveJobs[K]['input']) => ArchiveJobs[K]['output'] | Promise<ArchiveJobs[K]['output']> };

/** One handler per kind (a mapped type: a kind without one does not compile). */
const HANDLERS: Handlers = {
  score: runScoreJob,
  'score-stored': runScoreStoredJob,
  'import-prepare': runImportPrepareJob,
  'import-body': runImportBodyJob,
  'pack-build': buildPackJob,
  'pack-verify': verifyPackJob,
  'trials-report': runTrialsReportJob,
  'bundle-create': runBundleCreateJob,
  'bundle-verify': runBundleVerifyJob,
  'html-report': runHtmlReportJob,
};

/** Runs a job in this thread. */
export async function runArchiveJob<K extends ArchiveJobKind>(job: ArchiveJob<K>): Promise<ArchiveJobs[K]['output']> {
  const handler = HANDLERS[job.kind] as (input: ArchiveJobs[K]['input']) => ArchiveJobs[K]['output'] | Promise<ArchiveJobs[K]['output']>;
  return handler(job.input);
}
