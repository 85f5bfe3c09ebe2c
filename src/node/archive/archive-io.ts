/**
 * Import and export: the archive's border with files.
 *
 * Import takes an evaluation result made by the CLI: it must target a suite
 * the archive holds, it is authenticated from scratch like `evaluation
 * verify` (every record replayed, every metric recomputed) and scored like
 * `score --pack` (official) when its manifest is that of exactly one stored
 * environment pack, else like `score --suite` (unofficial); only then is
 * anything written, in one
 * transaction. A file that fails is refused whole with the reason; the same
 * bytes imported twice are found by their digest. The result's operational
 * record may come with it (checked first: valid, canonical, of the result's
 * model) and is stored with the trial; its isolation level becomes the
 * trial's.
 *
 * Export writes a trial's stored bytes into a new folder: result.json,
 * score.json and summary.txt, byte-identical to `evaluation run --out`,
 * `score --out` and the summary `score` prints. The folder is built beside
 * the target and renamed into place, so it is complete or absent.
 */

import { randomBytes } from 'node:crypto';
import { constants, existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { mkdir, open, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { EmberError, ValidationError } from '../../core/errors.js';
import { buildResult, parseResultText, resultText, type EvaluationResult } from '../../core/eval/result.js';
import { parseOperationalRecordText, type OperationalRecord } from '../../core/scoring/operational.js';
import type { ExportedFile } from '../../shared/api/contract.js';
import { getArtifact, putText, sha256OfBytes, utf8 } from './artifacts.js';
import type { Archive } from './archive.js';
import { hasSuite, loadStoredManifest, loadStoredSuite, storeManifest } from './inputs-store.js';
import { getTrialDbRow } from './queries.js';
import { scoreOffThread } from './off-thread.js';
import { runScoreJob, scoreJobOf } from './score-job.js';
import { scoreResultText, type ScoredTrial } from './score-trial.js';
import { insertTrial, setTrialIsolation, storedEntries, storeEpisode, storeFailure, storeOutcome } from './trials-store.js';

export const EXPORT_FILES = { result: 'result.json', report: 'score.json', summary: 'summary.txt' } as const;

export interface ImportOutcome {
  readonly trialId: number;
  readonly duplicate: boolean;
}

/** An authenticated, scored result, ready to be written. */
export interface PreparedImport {
  readonly fileName: string;
  readonly text: string;
  readonly digest: string;
  readonly result: EvaluationResult;
  readonly suiteHash: string;
  /** The one stored pack of the result's manifest (scored official against it), or null (unofficial). */
  readonly pack: { readonly digest: string; readonly packId: string } | null;
  readonly families: ReadonlyMap<string, string>;
  readonly scored: ScoredTrial;
  /** The result's operational record, when one was given. */
  readonly operational?: { readonly text: string; readonly record: OperationalRecord };
}

/** A result's operational record, as the CLI wrote it beside the result. */
export interface ImportedRecordFile {
  readonly fileName: string;
  readonly text: string;
}

function trialOfDigest(archive: Archive, digest: string): number | undefined {
  const row = archive.db.prepare('SELECT trial_id FROM trials WHERE result_digest = ? ORDER BY trial_id LIMIT 1').get(digest) as { trial_id: number } | undefined;
  return row?.trial_id;
}

interface CheckedImport {
  readonly fileName: string;
  readonly text: string;
  readonly digest: string;
  readonly result: EvaluationResult;
  readonly suiteHash: string;
  readonly pack: { readonly digest: string; readonly packId: string } | null;
  readonly operational?: { readonly text: string; readonly record: OperationalRecord };
}

/** The operational record given with a result: strict, canonical, and of the result's model (ValidationError otherwise). */
function checkRecordOf(result: EvaluationResult, file: ImportedRecordFile): { text: string; record: OperationalRecord } {
  const record = parseOperationalRecordText(file.text, file.fileName);
  if (record.model_id !== result.model_id) {
    throw new ValidationError(`${file.fileName}: the operational record is of model ${JSON.stringify(record.model_id)}, the result of ${JSON.stringify(result.model_id)}`);
  }
  return { text: file.text, record };
}

/** The pack to score an import against: the stored pack of its manifest when there is exactly one (two would make the choice arbitrary). */
function packOfManifest(archive: Archive, manifestHash: string): { digest: string; packId: string } | null {
  const rows = archive.db.prepare('SELECT pack_digest, pack_id FROM packs WHERE manifest_hash = ? ORDER BY pack_digest LIMIT 2').all(manifestHash) as { pack_digest: string; pack_id: string }[];
  return rows.length === 1 ? { digest: rows[0]!.pack_digest, packId: rows[0]!.pack_id } : null;
}

/** The quick checks of an import: a duplicate by digest, a strict parse, a suite the archive holds. */
function checkImport(archive: Archive, fileName: string, text: string, operational?: ImportedRecordFile): CheckedImport | { readonly duplicate: number } {
  const digest = sha256OfBytes(utf8(text));
  const existing = trialOfDigest(archive, digest);
  if (existing !== undefined) return { duplicate: existing };
  const result = parseResultText(text, fileName);
  const suiteRef = result.manifest.suite;
  if (!hasSuite(archive.db, suiteRef.suite_hash)) {
    throw new ValidationError(
      `${fileName}: the result targets suite ${suiteRef.suite_id} ${suiteRef.suite_version} (${suiteRef.suite_hash}), which is not in the archive; add that suite's folder first`,
    );
  }
  const record = operational === undefined ? {} : { operational: checkRecordOf(result, operational) };
  return { fileName, text, digest, result, suiteHash: suiteRef.suite_hash, pack: packOfManifest(archive, result.manifest_hash), ...record };
}

function withFamilies(archive: Archive, c: CheckedImport, scored: ScoredTrial): PreparedImport {
  const suite = loadStoredSuite(archive.db, c.suiteHash);
  return { ...c, families: new Map(suite.entries.map((e) => [e.scenarioId, e.primaryFamily])), scored };
}

/**
 * Authenticates and scores one evaluation result text without writing
 * anything; throws (ValidationError, or MismatchError for a replay
 * mismatch) with the reason when it does not authenticate. A result whose
 * bytes are already archived needs no work: `duplicate` names its trial.
 */
export function prepareImport(archive: Archive, fileName: string, text: string, operational?: ImportedRecordFile): PreparedImport | { readonly duplicate: number } {
  const c = checkImport(archive, fileName, text, operational);
  if ('duplicate' in c) return c;
  // The long part: every record replayed, every metric recomputed, the report built.
  const scored = c.pack === null ? scoreResultText(text, fileName, { suite: loadStoredSuite(archive.db, c.suiteHash), pack: null }) : runScoreJob(scoreJobOf(archive.db, text, fileName, c.suiteHash, c.pack.digest));
  return withFamilies(archive, c, scored);
}

/** prepareImport with the authentication and scoring in the archive worker (`archiveWorker`, else a later turn of this thread). */
export async function prepareImportOffThread(
  archive: Archive,
  fileName: string,
  text: string,
  archiveWorker: string | undefined,
  operational?: ImportedRecordFile,
): Promise<PreparedImport | { readonly duplicate: number }> {
  const c = checkImport(archive, fileName, text, operational);
  if ('duplicate' in c) return c;
  const scored = await scoreOffThread(archiveWorker, scoreJobOf(archive.db, text, fileName, c.suiteHash, c.pack?.digest ?? null));
  return withFamilies(archive, c, scored);
}

/** Writes prepared imports, all in one transaction; returns their trial IDs (an identical file imported twice in one batch is one trial). */
export function commitImports(archive: Archive, prepared: readonly PreparedImport[]): ImportOutcome[] {
  return archive.write((w) =>
    prepared.map((p): ImportOutcome => {
      const existing = trialOfDigest(archive, p.digest);
      if (existing !== undefined) return { trialId: existing, duplicate: true };
      const { result } = p;
      const manifestHash = storeManifest(w, result.manifest);
      const id = insertTrial(w, {
        modelId: result.model_id,
        manifest: result.manifest,
        manifestHash,
        pack: p.pack,
        status: 'running',
        origin: 'import',
        agentLabel: 'imported',
        runConfig: { importedFrom: p.fileName },
        families: p.families,
      });
      for (const e of result.episodes) storeEpisode(w, id, e, null);
      for (const f of result.failures) storeFailure(w, id, f);
      storeOutcome(w, id, {
        resultText: p.text,
        complete: result.episodes.length === result.manifest.episodes.length,
        report: p.scored.report,
        reportText: p.scored.reportText,
        summary: p.scored.summary,
      });
      if (p.operational !== undefined) {
        const digest = putText(w, 'operational', p.operational.text);
        w.prepare('UPDATE trials SET operational_digest = ? WHERE trial_id = ?').run(digest, id);
        if (p.operational.record.isolation !== undefined) setTrialIsolation(w, id, p.operational.record.isolation);
      }
      return { trialId: id, duplicate: false };
    }),
  );
}

/** Imports one evaluation result text: authenticated first, refused whole with the reason, written in one transaction. */
export function importResultText(archive: Archive, fileName: string, text: string): ImportOutcome {
  const prepared = prepareImport(archive, fileName, text);
  if ('duplicate' in prepared) return { trialId: prepared.duplicate, duplicate: true };
  return commitImports(archive, [prepared])[0]!;
}

/** The export files of a trial: the stored bytes, or for an unfinished trial its result so far (as the CLI's checkpoint holds it). */
export function trialFiles(archive: Archive, trialId: number): Map<string, Buffer> {
  const { db } = archive;
  const row = getTrialDbRow(db, trialId);
  if (row === undefined) throw new ValidationError(`there is no trial ${trialId} in the archive`);
  const files = new Map<string, Buffer>();
  if (row.result_digest !== null) {
    files.set(EXPORT_FILES.result, getArtifact(db, row.result_digest));
  } else {
    const manifest = loadStoredManifest(db, row.manifest_hash);
    if (manifest === undefined) throw new ValidationError(`archive: trial ${trialId} names manifest ${row.manifest_hash}, which is missing`);
    const { episodes, failures } = storedEntries(db, trialId);
    files.set(EXPORT_FILES.result, utf8(resultText(buildResult(manifest, row.manifest_hash, row.model_id, episodes, failures))));
  }
  if (row.report_digest !== null) files.set(EXPORT_FILES.report, getArtifact(db, row.report_digest));
  if (row.summary_digest !== null) files.set(EXPORT_FILES.summary, getArtifact(db, row.summary_digest));
  return files;
}

async function writeSynced(path: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o666);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** An output problem of the export folder (exit 6), naming the field `outDir` (the CLI's --out). */
function outDirError(problem: string): EmberError {
  return new EmberError('output', `outDir: ${problem}`, { field: 'outDir' });
}

function checkExportDir(outDir: string): void {
  const parent = dirname(resolve(outDir));
  if (!existsSync(parent) || !statSync(parent).isDirectory()) throw outDirError(`the parent folder ${parent} does not exist`);
  if (!existsSync(outDir)) return;
  const stat = lstatSync(outDir);
  if (!stat.isDirectory()) throw outDirError(`${outDir} exists and is not a folder`);
  if (readdirSync(outDir).length > 0) throw outDirError(`${outDir} is not empty (an export goes into a new or empty folder)`);
}

/** Writes the trial's files into `outDir` (new, or an existing empty folder), all or nothing. */
export async function exportTrial(archive: Archive, trialId: number, outDir: string): Promise<{ dir: string; files: ExportedFile[] }> {
  checkExportDir(outDir);
  const files = trialFiles(archive, trialId);
  const target = resolve(outDir);
  const tmp = `${target}.tmp-${randomBytes(6).toString('hex')}`;
  await mkdir(tmp);
  try {
    for (const [name, bytes] of files) await writeSynced(join(tmp, name), bytes);
    checkExportDir(outDir);
    if (existsSync(target)) await rmdir(target); // empty, checked just above
    await rename(tmp, target);
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error instanceof EmberError ? error : outDirError(`cannot write ${outDir} (${(error as Error).message})`);
  }
  return { dir: target, files: [...files].map(([file, bytes]) => ({ file, sha256: sha256OfBytes(bytes) })) };
}
