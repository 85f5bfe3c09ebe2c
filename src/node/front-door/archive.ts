/**
 * The front door of the `archive` commands (src/cli/commands/archive.ts): one
 * function per command (import, list, export, check and repair), each
 * opening the archive file, doing its work and closing it, so the command
 * layer never holds an Archive or any other storage object; it only turns
 * what these answer into its report and text. The CLI loads only the
 * running command's part of src/node (one module per group, never one
 * barrel).
 */

import { commitImports, exportTrial, type PreparedImport } from '../archive/archive-io.js';
import { withArchiveFaultsAsync } from '../archive/archive-errors.js';
import { Archive } from '../archive/archive.js';
import { readSuiteFolder, storeSuite, type SuiteSource } from '../archive/inputs-store.js';
import { listTrials } from '../archive/queries.js';
import { readTextInput } from '../inputs.js';
import { checkArchive, type ArchiveCheckReport } from '../jobs/check.js';
import { prepareImport, prepareImportCooperatively, stillPrepared, type FoundDuplicate } from '../jobs/import-prepare.js';
import { runScoreJob } from '../jobs/score-job.js';
import type { StepProgress } from '../../core/steps.js';
import type { TrialRow } from '../../shared/api/views.js';

export { defaultArchivePath } from '../services/paths.js';
export type { ArchiveCheckReport } from '../jobs/check.js';

export interface ArchiveImportInput {
  /** Evaluation result files. */
  readonly files: readonly string[];
  /** Their operational record files: none, or one per result, paired in order (the command checks the counts). */
  readonly records: readonly string[];
  /** Suite folders the results target, stored with them. */
  readonly suites: readonly { readonly dir: string; readonly source: SuiteSource }[];
}

export interface ArchiveImportOutcome {
  /** The archive file's path. */
  readonly archive: string;
  /** One per result file, in order: its trial, and whether the same bytes were archived already. */
  readonly imported: readonly { readonly file: string; readonly trialId: number; readonly duplicate: boolean }[];
}

/**
 * `archive import`: every file and suite read first; then, with the writer
 * lock held, every result prepared (authenticated, scored, packed) in
 * slices, so Ctrl+C stops it at once with nothing written; then one short
 * transaction stores the suites and every result (all or nothing). What the
 * preparation assumed of the archive is checked again inside the
 * transaction, and a result whose assumption no longer holds is prepared
 * again there, as it would have been without slices.
 */
export async function importIntoArchive(archivePath: string, input: ArchiveImportInput, onProgress?: (progress: StepProgress) => void): Promise<ArchiveImportOutcome> {
  const texts = input.files.map((path) => readTextInput(path, 'evaluation result'));
  const recordFiles = input.records.map((path) => ({ fileName: path, text: readTextInput(path, 'operational record') }));
  const suites = input.suites.map((s) => ({ ...readSuiteFolder(s.dir), source: s.source }));
  const archive = Archive.open(archivePath, { mode: 'write' });
  try {
    const prepared: (PreparedImport | FoundDuplicate)[] = [];
    for (const [k, path] of input.files.entries()) prepared.push(await prepareImportCooperatively(archive, path, texts[k]!, recordFiles[k], suites, onProgress));
    const outcomes = archive.write((db) => {
      for (const s of suites) storeSuite(db, s.suite, s.files, s.source);
      const current = prepared.map((p, k) => (stillPrepared(db, p) ? p : prepareImport(db, input.files[k]!, texts[k]!, recordFiles[k])));
      const fresh = commitImports(archive, current.filter((p): p is PreparedImport => !('duplicate' in p)));
      let next = 0;
      return current.map((p) => ('duplicate' in p ? { trialId: p.duplicate, duplicate: true } : fresh[next++]!));
    });
    return { archive: archive.path, imported: outcomes.map((o, k) => ({ file: input.files[k]!, trialId: o.trialId, duplicate: o.duplicate })) };
  } finally {
    archive.close();
  }
}

/** `archive list`: every trial, oldest first (reads only). */
export function listArchiveTrials(archivePath: string): { readonly archive: string; readonly trials: readonly TrialRow[] } {
  const archive = Archive.open(archivePath, { mode: 'read' });
  try {
    const page = archive.read((db) => listTrials(db, { sort: 'created', direction: 'asc', filter: {}, offset: 0, limit: 1_000_000 }));
    return { archive: archive.path, trials: page.rows };
  } finally {
    archive.close();
  }
}

/** `archive export`: the trial's files into a new folder `out`, every artifact checked first (reads only); in pieces, so Ctrl+C stops it at once and leaves no folder. */
export async function exportArchiveTrial(
  archivePath: string,
  trialId: number,
  out: string,
  onProgress?: (progress: StepProgress) => void,
): Promise<{ readonly dir: string; readonly files: readonly { readonly file: string; readonly sha256: string }[] }> {
  const archive = Archive.open(archivePath, { mode: 'read' });
  try {
    return await withArchiveFaultsAsync(archive.path, () => exportTrial(archive, trialId, out, onProgress));
  } finally {
    archive.close();
  }
}

/** `archive check [--repair]`: every artifact and trial read back; with `repair` (which writes) damaged results rebuilt and reports re-scored. */
export async function checkArchiveFile(archivePath: string, repair: boolean): Promise<{ readonly archive: string; readonly report: ArchiveCheckReport }> {
  const archive = Archive.open(archivePath, { mode: repair ? 'write' : 'read' });
  try {
    const report = await checkArchive(archive, { repair, score: (job) => Promise.resolve(runScoreJob(job)) });
    return { archive: archive.path, report };
  } finally {
    archive.close();
  }
}
export { deleteTrialFromArchive } from '../jobs/delete-trial.js';
