/**
 * The review views' long computations as archive jobs (archive-jobs.ts):
 * each authenticates results, replays records or runs a bootstrap, which
 * takes seconds to minutes on large trials and must not freeze the app's
 * main process or the server (off-thread.ts).
 *
 * - `trials-report`: several trials of one model scored as one report, as
 *   `score --result A --result B ...` does;
 * - `bundle-create`: `bundle create` from stored results into a new folder;
 * - `bundle-verify`: `bundle verify` of a folder;
 * - `html-report`: `report html` of a verified bundle into a new file.
 *
 * Like every archive job they carry bytes and paths, never a database
 * handle: the caller reads (and digest-checks) the stored bytes first.
 */

import { resolve } from 'node:path';
import type { BundleIndex } from '../../core/bundle/bundle-index.js';
import { sha256Hex } from '../../core/hash.js';
import { scoreReportText } from '../../core/scoring/report.js';
import { bundleContent } from '../bundle/bundle-content.js';
import { verifyBundle, writeBundleDirectory } from '../bundle/bundle.js';
import type { CheckedSignature } from '../../core/signing/signatures.js';
import type { Signer } from '../signing/signature-files.js';
import { checkOutputPath, writeOutputFile } from '../files.js';
import { renderHtmlReport } from '../report-html/html-report.js';
import { scoreResults } from '../workflows/score.js';
import { packFromFiles, suiteFromFiles } from '../archive/inputs-store.js';

type Files = readonly (readonly [string, Uint8Array])[];

/** A stored result's text and the name messages give it. */
export interface ResultText {
  readonly text: string;
  readonly source: string;
}

export interface TrialsReportJob {
  readonly results: readonly ResultText[];
  readonly suiteHash: string;
  readonly suiteFiles: Files;
  /** The trials' pack (an official report), or null (against the suite). */
  readonly pack: { readonly digest: string; readonly files: Files } | null;
}

export interface BundleCreateJob {
  readonly packDigest: string;
  /** The stored pack's files by pack-relative path. */
  readonly packFiles: Files;
  readonly results: readonly ResultText[];
  readonly operational: readonly ResultText[];
  readonly resamples: number;
  /** A new folder (absolute). */
  readonly outDir: string;
  /** The app's unlocked key when the bundle is signed (handed to this thread in memory, never written but as a signature). */
  readonly signers?: readonly Signer[];
}

/** A verified bundle: its index and its signatures (trust is the caller's to apply), null when unsigned. */
export interface BundleVerifyOutput {
  readonly index: BundleIndex;
  readonly signatures: readonly CheckedSignature[] | null;
}

export interface HtmlReportJob {
  readonly bundleDir: string;
  /** A new file. */
  readonly outFile: string;
  readonly episodes?: readonly number[];
}

export interface HtmlReportOutput {
  readonly file: string;
  readonly bytes: number;
  readonly sha256: string;
}

/** The canonical text of the report of all the trials (scoring-v1.0.md section 12: each episode's trials averaged). */
export function runTrialsReportJob(job: TrialsReportJob): string {
  const pack = job.pack === null ? null : packFromFiles(new Map(job.pack.files), job.pack.digest, false);
  const suite = pack?.suite ?? suiteFromFiles(new Map(job.suiteFiles), `archive:suite/${job.suiteHash.slice(0, 12)}`);
  return scoreReportText(scoreResults({ suite, pack, results: job.results }));
}

/** Writes the bundle (complete or absent, as `bundle create`); answers its index. */
export async function runBundleCreateJob(job: BundleCreateJob): Promise<BundleIndex> {
  const pack = packFromFiles(new Map(job.packFiles), job.packDigest, false);
  const content = bundleContent({ pack, packFiles: new Map(job.packFiles), results: job.results, operational: job.operational, resamples: job.resamples });
  await writeBundleDirectory(job.outDir, content, job.signers);
  return content.index;
}

/** `bundle verify`: every file, result, report and signature authenticated; answers the index and the signatures. */
export function runBundleVerifyJob(dir: string): BundleVerifyOutput {
  const { index, signatures } = verifyBundle(dir);
  return { index, signatures };
}

/** `report html` into a new file (never replaced). */
export async function runHtmlReportJob(job: HtmlReportJob): Promise<HtmlReportOutput> {
  const output = { force: false, inputs: [job.bundleDir] };
  await checkOutputPath(job.outFile, output);
  const html = renderHtmlReport(job.bundleDir, job.episodes === undefined ? {} : { episodes: job.episodes });
  await writeOutputFile(job.outFile, html, output);
  return { file: resolve(job.outFile), bytes: Buffer.byteLength(html, 'utf8'), sha256: sha256Hex(html) };
}
