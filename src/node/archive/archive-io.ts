/**
 * Import and export: the archive's border with files.
 *
 * Import takes an evaluation result made by the CLI: it must target a suite
 * the archive holds, it is authenticated from scratch like `evaluation
 * verify` (every record replayed, every metric recomputed) and scored like
 * `score --pack` (official) when its manifest is that of exactly one stored
 * environment pack, else like `score --suite` (unofficial), all of that in
 * src/node/jobs/import-prepare.ts (in the archive worker for the app); only
 * then is anything written, here, in one transaction. A file that fails is refused whole with the reason; the same
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
import { errnoCode } from '../errno.js';
import { trackPendingDirectory } from '../files.js';
import type { StepProgress } from '../../core/steps.js';
import type { EvaluationManifest } from '../../core/eval/manifest.js';
import type { FailureDeclaration } from '../../core/eval/result.js';
import type { OperationalRecord } from '../../core/scoring/operational.js';
import type { ExportedFile } from '../../shared/api/contract.js';
import { artifactSize, getArtifactInPieces, putText, sha256OfBytes, type PackedArtifact } from './artifacts.js';
import type { Archive } from './archive.js';
import { loadStoredManifest, storeManifest } from './inputs-store.js';
import { getTrialDbRow, trialOfResultDigest } from './queries.js';
import { composeStoredResult } from './stored-result.js';
import { insertTrial, setOperationalDigest, setTrialIsolation, storeEpisodeRow, storeFailure, storeOutcome, type EpisodeRowData, type PackedEpisode, type ScoredTrial } from './trials-store.js';

export const EXPORT_FILES = { result: 'result.json', report: 'score.json', summary: 'summary.txt' } as const;

/** A result's operational record, as the CLI wrote it beside the result. */
export interface ImportedRecordFile {
  readonly fileName: string;
  readonly text: string;
}

/** An authenticated, scored and packed result, ready to be written. */
export interface PreparedImport {
  readonly fileName: string;
  /** SHA-256 of the file's bytes: the result artifact's digest, by which a second import of it is found. */
  readonly digest: string;
  readonly modelId: string;
  readonly manifest: EvaluationManifest;
  readonly suiteHash: string;
  /** The one stored pack of the result's manifest (scored official against it), or null (unofficial). */
  readonly pack: { readonly digest: string; readonly packId: string } | null;
  /** scenario ID -> primary family */
  readonly families: ReadonlyMap<string, string>;
  readonly episodes: readonly { readonly row: EpisodeRowData; readonly packed: PackedEpisode }[];
  readonly failures: readonly FailureDeclaration[];
  readonly complete: boolean;
  readonly result: PackedArtifact;
  readonly scored: ScoredTrial;
  /** The result's operational record, when one was given. */
  readonly operational?: { readonly text: string; readonly record: OperationalRecord };
}

/** An import that needs no work: the archive holds these bytes already, as this trial. */
export interface DuplicateImport {
  readonly duplicate: number;
}

export interface ImportOutcome {
  readonly trialId: number;
  readonly duplicate: boolean;
}

/** Writes prepared imports, all in one transaction; returns their trial IDs (an identical file imported twice in one batch is one trial). */
export function commitImports(archive: Archive, prepared: readonly PreparedImport[]): ImportOutcome[] {
  return archive.write((w) =>
    prepared.map((p): ImportOutcome => {
      // Checked again here: another import of the same bytes may have landed since this one was prepared.
      const existing = trialOfResultDigest(w, p.digest);
      if (existing !== undefined) return { trialId: existing, duplicate: true };
      const manifestHash = storeManifest(w, p.manifest);
      const id = insertTrial(w, {
        modelId: p.modelId,
        manifest: p.manifest,
        manifestHash,
        pack: p.pack,
        status: 'running',
        origin: 'import',
        agentLabel: 'imported',
        runConfig: { importedFrom: p.fileName },
        families: p.families,
      });
      for (const e of p.episodes) storeEpisodeRow(w, id, e.row, null, e.packed);
      for (const f of p.failures) storeFailure(w, id, f);
      storeOutcome(w, id, {
        result: p.result,
        complete: p.complete,
        report: p.scored.report,
        reportText: p.scored.reportText,
        summary: p.scored.summary,
      });
      if (p.operational !== undefined) {
        setOperationalDigest(w, id, putText(w, 'operational', p.operational.text));
        if (p.operational.record.isolation !== undefined) setTrialIsolation(w, id, p.operational.record.isolation);
      }
      return { trialId: id, duplicate: false };
    }),
  );
}

/**
 * The export files of a trial: the stored bytes, or for an unfinished trial
 * its result so far (as the CLI's checkpoint holds it), composed from the
 * stored episodes. Artifacts are inflated in the thread pool and checked
 * piece by piece (getArtifactInPieces), so the event loop is never held
 * for a whole one; `onProgress` is told the stored bytes read so far.
 */
export async function trialFiles(archive: Archive, trialId: number, onProgress?: (progress: StepProgress) => void): Promise<Map<string, Buffer>> {
  const row = getTrialDbRow(archive, trialId);
  if (row === undefined) throw new ValidationError(`there is no trial ${trialId} in the archive`);
  const stored = [
    [EXPORT_FILES.result, row.result_digest],
    [EXPORT_FILES.report, row.report_digest],
    [EXPORT_FILES.summary, row.summary_digest],
  ] as const;
  const total = stored.reduce((n, [, digest]) => n + (digest === null ? 0 : artifactSize(archive, digest)), 0);
  let before = 0;
  const read = async (digest: string): Promise<Buffer> => {
    const bytes = await getArtifactInPieces(archive, digest, (done) => onProgress?.({ what: 'reading trial files', done: before + done, total }));
    before += bytes.length;
    return bytes;
  };
  const files = new Map<string, Buffer>();
  if (row.result_digest !== null) {
    files.set(EXPORT_FILES.result, await read(row.result_digest));
  } else {
    const manifest = loadStoredManifest(archive, row.manifest_hash);
    if (manifest === undefined) throw new ValidationError(`archive: trial ${trialId} names manifest ${row.manifest_hash}, which is missing`);
    const composed = await composeStoredResult(archive, trialId, manifest, row.manifest_hash, row.model_id);
    files.set(EXPORT_FILES.result, Buffer.concat(composed.chunks));
  }
  if (row.report_digest !== null) files.set(EXPORT_FILES.report, await read(row.report_digest));
  if (row.summary_digest !== null) files.set(EXPORT_FILES.summary, await read(row.summary_digest));
  return files;
}

/** A file is written in pieces of this many bytes, so progress can be shown. */
const WRITE_PIECE_BYTES = 4 << 20;

async function writeSynced(path: string, bytes: Uint8Array, onBytes: (written: number) => void): Promise<void> {
  const handle = await open(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o666);
  try {
    for (let at = 0; at < bytes.byteLength; at += WRITE_PIECE_BYTES) {
      const piece = bytes.subarray(at, at + WRITE_PIECE_BYTES);
      // writeFile writes the whole piece (looping over short writes).
      await handle.writeFile(piece);
      onBytes(piece.byteLength);
    }
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

/**
 * Writes the trial's files into `outDir` (new, or an existing empty folder),
 * all or nothing. The folder being built is tracked (files.ts
 * trackPendingDirectory), so an interrupt or an exit midway removes it.
 */
export async function exportTrial(archive: Archive, trialId: number, outDir: string, onProgress?: (progress: StepProgress) => void): Promise<{ dir: string; files: ExportedFile[] }> {
  checkExportDir(outDir);
  const files = await trialFiles(archive, trialId, onProgress);
  const target = resolve(outDir);
  const tmp = `${target}.tmp-${randomBytes(6).toString('hex')}`;
  await mkdir(tmp);
  const untrack = trackPendingDirectory(tmp, true);
  try {
    const total = [...files.values()].reduce((n, bytes) => n + bytes.byteLength, 0);
    let written = 0;
    for (const [name, bytes] of files) {
      await writeSynced(join(tmp, name), bytes, (n) => onProgress?.({ what: 'writing export', done: (written += n), total }));
    }
    checkExportDir(outDir);
    if (existsSync(target)) await rmdir(target); // empty, checked just above
    await rename(tmp, target);
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    if (error instanceof EmberError) throw error;
    if (errnoCode(error) === 'ENOSPC') throw outDirError(`the disk is full (no space left on device) writing ${outDir}; free some space there and try again (nothing was written)`);
    throw outDirError(`cannot write ${outDir} (${(error as Error).message})`);
  } finally {
    untrack();
  }
  return { dir: target, files: [...files].map(([file, bytes]) => ({ file, sha256: sha256OfBytes(bytes) })) };
}
