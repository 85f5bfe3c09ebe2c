/**
 * Official bundles on disk (docs/bundles.md): `bundle create` writes one
 * into a new folder, whole or not at all; `bundle verify` authenticates one
 * from disk: the file list against the index (a changed, missing or extra
 * file is named), then every artifact recomputed from the bundle's own pack
 * and results and compared byte for byte.
 */

import { lstatSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { BUNDLE_INDEX_FILE, BUNDLE_PACK_DIR, BUNDLE_SIGNATURES_FILE, bundleIndexText, parseBundleIndexText, type BundleIndex } from '../../core/bundle/bundle-index.js';
import { MismatchError, ValidationError } from '../../core/errors.js';
import type { CheckedSignature, SignatureSet } from '../../core/signing/signatures.js';
import { readBytesInput, readTextInput, resultTextOrStream } from '../inputs.js';
import { checkOutputDirectory, copyFileSynced, stripTrailingSeparators, writeFileSynced, writeOutputDirectory } from '../output-directory.js';
import { loadPack } from '../pack.js';
import { bundleSignaturesText, checkBundleSignatures, NO_TRUST, signBundleIndex, type Signer, type TrustOptions } from '../signing/signature-files.js';
import { runSteps, type StepProgress, type Steps } from '../../core/steps.js';
import { driveSteps } from '../cooperative.js';
import { bundleContentSteps, type BundleContent, type BundleResult } from './bundle-content.js';
import { fileSha256 } from '../files.js';

const BUNDLE_OUTPUT = { what: 'official bundle', existsNote: 'a bundle is always written into a new directory' } as const;

/** Every regular file under `dir`, as `/`-separated relative paths; anything else (a symlink, a device) is refused. */
export function listFiles(dir: string, base = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(dir, base), { withFileTypes: true })) {
    const rel = base === '' ? entry.name : `${base}/${entry.name}`;
    if (entry.isDirectory()) out.push(...listFiles(dir, rel));
    else if (entry.isFile()) out.push(rel);
    else throw new ValidationError(`${join(dir, rel)}: not a regular file or folder (a bundle holds only plain files)`);
  }
  return out;
}

function readPackFiles(packDir: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const rel of listFiles(packDir).sort()) files.set(rel, readBytesInput(join(packDir, rel), 'pack file'));
  return files;
}

export interface CreateBundleOptions {
  readonly packDir: string;
  readonly resultPaths: readonly string[];
  readonly operationalPaths: readonly string[];
  readonly resamples: number;
  readonly out: string;
  /** A result larger than this many bytes is streamed and copied (default MAX_TEXT_INPUT_BYTES, the most read as one text; tests set 0). */
  readonly streamAbove?: number;
  /** Operators who sign the new bundle (written as its signatures.json before it is published). */
  readonly signers?: readonly Signer[];
  /** Progress of the replays and bootstraps, reported between slices of work (cooperative.ts). */
  readonly onProgress?: (progress: StepProgress) => void;
}

/** A result file for the bundle: read whole when it fits in one string, else streamed and copied as it is. */
function bundleResult(path: string, streamAbove?: number): BundleResult {
  const text = resultTextOrStream(path, streamAbove);
  return text === null ? { path, source: path } : { text, source: path };
}

/** Scores (and compares, for two models) the results against the pack and writes the bundle. */
export async function createBundle(opts: CreateBundleOptions): Promise<BundleIndex> {
  const out = stripTrailingSeparators(opts.out);
  const pack = loadPack(opts.packDir);
  const packFiles = readPackFiles(opts.packDir);
  const results = opts.resultPaths.map((path) => bundleResult(path, opts.streamAbove));
  const operational = opts.operationalPaths.map((path) => ({ text: readTextInput(path, 'operational record'), source: path }));
  checkOutputDirectory(out, BUNDLE_OUTPUT, [{ dir: opts.packDir, label: 'pack directory' }]);
  // In slices, so Ctrl+C stops it at once: nothing has been created yet.
  const content = await driveSteps(bundleContentSteps({ pack, packFiles, results, operational, resamples: opts.resamples }), opts.onProgress === undefined ? {} : { onProgress: opts.onProgress });
  await writeBundleDirectory(out, content, opts.signers);
  return content.index;
}

/**
 * Writes bundle content into a new folder (also the app's export), read back
 * and verified before it is published; signed by `signers` when given, so a
 * signed bundle never appears unsigned.
 */
export async function writeBundleDirectory(out: string, content: BundleContent, signers: readonly Signer[] = []): Promise<void> {
  await writeOutputDirectory(out, BUNDLE_OUTPUT, async (temp) => {
    for (const path of [...content.files.keys()].sort()) {
      const full = join(temp, ...path.split('/'));
      await mkdir(dirname(full), { recursive: true });
      const file = content.files.get(path)!;
      // A result too large for one string is copied as it is; the read-back below checks its digest.
      if (file instanceof Uint8Array) await writeFileSynced(full, file);
      else await copyFileSynced(file.path, full);
    }
    const indexText = bundleIndexText(content.index);
    await writeFileSynced(join(temp, BUNDLE_INDEX_FILE), indexText);
    if (signers.length > 0) await writeFileSynced(join(temp, BUNDLE_SIGNATURES_FILE), bundleSignaturesText(indexText, signers));
    checkFileList(temp, content.index);
  });
}

/** The folder holds exactly the index's files, each with its digest (exit 3 naming the file otherwise); signatures.json is beside them. */
function checkFileList(dir: string, index: BundleIndex): void {
  const listed = new Map(index.files.map((f) => [f.file, f.sha256]));
  const present = listFiles(dir).filter((f) => f !== BUNDLE_INDEX_FILE && f !== BUNDLE_SIGNATURES_FILE);
  for (const file of present.sort()) {
    if (!listed.has(file)) throw new ValidationError(`${join(dir, file)}: extra file, not in ${BUNDLE_INDEX_FILE}`);
  }
  const presentSet = new Set(present);
  for (const { file, sha256 } of index.files) {
    if (!presentSet.has(file)) throw new ValidationError(`${join(dir, file)}: missing (listed in ${BUNDLE_INDEX_FILE})`);
    const actual = fileSha256(join(dir, file));
    if (actual !== sha256) throw new ValidationError(`${join(dir, file)}: changed (sha256 ${actual}, ${BUNDLE_INDEX_FILE} says ${sha256})`);
  }
}

export interface VerifiedBundle {
  readonly index: BundleIndex;
  readonly files: number;
  /** Each result's fileDigest by bundle-relative path (resultFileEpisodeTexts reads its episodes against it). */
  readonly resultDigests: ReadonlyMap<string, string>;
  /** Every signature of signatures.json, each valid (an invalid one is refused), or null when the bundle has none. */
  readonly signatures: readonly CheckedSignature[] | null;
}

/**
 * Authenticates a bundle from disk: the index, its signatures (exit 5 for a
 * signature that is invalid or of another bundle.json, or when `trust`
 * requires a trusted one and there is none), the file list and digests
 * (exit 3, naming the file), the pack, every result replayed, and every
 * score report, summary, statistics file and comparison recomputed and
 * compared byte for byte (exit 5 naming the file). A result larger than
 * `streamAbove` bytes (default: what fits in one string) is streamed.
 */
export function verifyBundle(dirArg: string, streamAbove?: number, trust: TrustOptions = NO_TRUST): VerifiedBundle {
  return runSteps(verifyBundleSteps(dirArg, streamAbove, trust));
}

/** verifyBundle without holding the event loop (cooperative.ts): Ctrl+C stops it between slices. */
export function verifyBundleCooperatively(dirArg: string, trust: TrustOptions, onProgress?: (progress: StepProgress) => void): Promise<VerifiedBundle> {
  return driveSteps(verifyBundleSteps(dirArg, undefined, trust), onProgress === undefined ? {} : { onProgress });
}

/** verifyBundle as steps (src/core/steps.ts): the same checks in the same order. */
export function* verifyBundleSteps(dirArg: string, streamAbove?: number, trust: TrustOptions = NO_TRUST): Steps<VerifiedBundle> {
  const dir = stripTrailingSeparators(dirArg);
  let isDir = false;
  try {
    isDir = lstatSync(dir).isDirectory();
  } catch {
    // reported below
  }
  if (!isDir) throw new ValidationError(`${dir}: not a bundle folder (no such directory)`);
  const indexPath = join(dir, BUNDLE_INDEX_FILE);
  const indexText = readTextInput(indexPath, 'bundle index');
  const index = parseBundleIndexText(indexText, indexPath);
  const signatures = checkBundleSignatures(dir, indexText, trust);
  checkFileList(dir, index);

  const packDir = join(dir, BUNDLE_PACK_DIR);
  const pack = loadPack(packDir);
  if (pack.digest !== index.pack_digest || pack.packId !== index.pack_id || pack.manifestHash !== index.manifest_hash) {
    throw new MismatchError(`${indexPath}: names pack ${index.pack_id} (${index.pack_digest}), but the bundle holds ${pack.packId} (${pack.digest})`);
  }
  const results = index.models.flatMap((m) => Array.from({ length: m.trials }, (_, k) => `${m.dir}/trial-${k + 1}.result.json`));
  const operational = index.models.filter((m) => m.operational).map((m) => `${m.dir}/operational.json`);
  const content = yield* bundleContentSteps({
    pack,
    packFiles: readPackFiles(packDir),
    results: results.map((file) => bundleResult(join(dir, file), streamAbove)),
    operational: operational.map((file) => ({ text: readTextInput(join(dir, file), 'operational record'), source: join(dir, file) })),
    resamples: resamplesOf(dir, index),
  });
  for (const { file, sha256 } of content.index.files) {
    const stored = index.files.find((f) => f.file === file);
    if (stored === undefined) throw new MismatchError(`${join(dir, file)}: missing: the bundle's results call for it`);
    if (stored.sha256 !== sha256) throw new MismatchError(`${join(dir, file)}: does not match what the bundle's pack and results give (recomputed sha256 ${sha256})`);
  }
  if (bundleIndexText(content.index) !== bundleIndexText(index)) {
    throw new MismatchError(`${indexPath}: does not match the index recomputed from the bundle's pack and results`);
  }
  return { index, files: index.files.length + 1, resultDigests: content.resultDigests, signatures };
}

/** `bundle sign`: authenticates the whole bundle, then adds the operator's signature of its bundle.json. */
export async function signBundle(dir: string, signer: Signer): Promise<{ readonly verified: VerifiedBundle; readonly set: SignatureSet }> {
  const verified = verifyBundle(dir);
  return { verified, set: await signBundleIndex(stripTrailingSeparators(dir), signer) };
}

/** The resamples the bundle was made with, read from its first score report (every artifact in it uses the same). */
function resamplesOf(dir: string, index: BundleIndex): number {
  const path = join(dir, index.models[0]!.dir, 'score.json');
  const report = JSON.parse(readTextInput(path, 'score report')) as { resamples?: unknown };
  if (typeof report.resamples !== 'number' || !Number.isSafeInteger(report.resamples) || report.resamples < 1) {
    throw new ValidationError(`${path}: has no valid resamples field`);
  }
  return report.resamples;
}
