/**
 * Environment pack directories (src/core/pack/pack.ts has the format):
 * building one atomically, and loading one fail-closed.
 *
 * Build: the inputs are read and checked, the output path is checked, every
 * fire world and M* is computed; only then is anything created. The output
 * directory must not exist; it is written by writeOutputDirectory
 * (output-directory.ts): reserved with an exclusive mkdir (an empty
 * placeholder, so a directory another process creates meanwhile is never
 * replaced), the pack is written into a temporary directory beside it (each
 * file fsynced), read back and authenticated, and renamed over the empty
 * placeholder in one step. On any failure, and on Ctrl+C (files.ts
 * removePendingOutputs), the temporary directory and the placeholder are
 * removed: nothing is left behind.
 *
 * Build in memory (buildPackFiles, the app's `packs.build`): the same
 * pack from a stored suite's bytes and a manifest text, as files by
 * pack-relative path, byte-identical to the folder's; nothing is written.
 *
 * Load: the directory holds exactly pack.json, manifest.json and suite/;
 * the suite copy is loaded with the suite loader and its files' bytes are
 * hashed; authenticatePack checks the rest. Every input problem is a
 * ValidationError (exit 3); every output problem an OutputError (exit 6).
 */

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ValidationError, isEmberError } from '../core/errors.js';
import { parseManifestText } from '../core/eval/manifest.js';
import {
  PACK_FILE,
  PACK_MANIFEST_FILE,
  PACK_SUITE_DIR,
  authenticatePack,
  authenticatePackSteps,
  buildPackValue,
  buildPackValueSteps,
  fileBytesDigest,
  packText,
  type EnvironmentPack,
} from '../core/pack/pack.js';
import { runSteps, type StepProgress, type Steps } from '../core/steps.js';
import { SUITE_MANIFEST_FILE, type Suite } from '../core/world/suite.js';
import { driveSteps } from './cooperative.js';
import { checkOutputDirectory, stripTrailingSeparators, syncDirectory, writeFileSynced, writeOutputDirectory, type OutputDirectoryHooks } from './output-directory.js';
import { loadSuiteDir, readTextInput, suiteFromFiles } from './inputs.js';

export interface LoadPackOptions {
  /** Recompute every fire world and M* (`pack verify`). The scorer's load leaves it off and checks each result with checkResultAgainstPack. */
  readonly recompute?: boolean;
}

function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The bytes of every file of a loaded suite directory (manifest.json and the listed files), by name. */
function readSuiteBytes(dir: string, suite: Suite): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const name of [SUITE_MANIFEST_FILE, ...suite.entries.map((e) => e.file)]) {
    try {
      out.set(name, readFileSync(join(dir, name)));
    } catch (error) {
      throw new ValidationError(`${dir}/${name}: cannot read suite file (${errnoCode(error) ?? String(error)})`);
    }
  }
  return out;
}

function digestsOf(files: ReadonlyMap<string, Uint8Array>): Map<string, string> {
  return new Map([...files].map(([name, bytes]) => [name, fileBytesDigest(bytes)]));
}

/** Loads and authenticates a pack directory (exit 3 on any problem). */
export function loadPack(dir: string, options: LoadPackOptions = {}): EnvironmentPack {
  return runSteps(loadPackSteps(dir, options));
}

/** loadPack as steps (src/core/steps.ts): with `recompute`, one step per recomputed episode. */
export function* loadPackSteps(dir: string, options: LoadPackOptions = {}): Steps<EnvironmentPack> {
  const base = stripTrailingSeparators(dir);
  let entries: { name: string; isFile: boolean; isDirectory: boolean }[];
  try {
    if (!statSync(base).isDirectory()) throw new ValidationError(`${base}: environment pack is not a directory`);
    entries = readdirSync(base, { withFileTypes: true }).map((d) => ({ name: d.name, isFile: d.isFile(), isDirectory: d.isDirectory() }));
  } catch (error) {
    if (isEmberError(error)) throw error;
    const code = errnoCode(error);
    throw new ValidationError(code === 'ENOENT' ? `${base}: environment pack directory does not exist` : `${base}: cannot read environment pack directory (${code ?? String(error)})`);
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const layout = `${PACK_FILE}, ${PACK_MANIFEST_FILE} and ${PACK_SUITE_DIR}/`;
  for (const entry of entries) {
    const expectedFile = entry.name === PACK_FILE || entry.name === PACK_MANIFEST_FILE;
    const expectedDir = entry.name === PACK_SUITE_DIR;
    if (!(expectedFile && entry.isFile) && !(expectedDir && entry.isDirectory)) {
      throw new ValidationError(`${base}/${entry.name}: unexpected entry (an environment pack holds exactly ${layout})`);
    }
  }
  for (const name of [PACK_FILE, PACK_MANIFEST_FILE, PACK_SUITE_DIR]) {
    if (!entries.some((e) => e.name === name)) throw new ValidationError(`${base}/${name}: missing (an environment pack holds exactly ${layout})`);
  }
  const packText = readTextInput(`${base}/${PACK_FILE}`, 'pack file');
  const manifestText = readTextInput(`${base}/${PACK_MANIFEST_FILE}`, 'evaluation manifest');
  const suiteDir = `${base}/${PACK_SUITE_DIR}`;
  const suite = loadSuiteDir(suiteDir);
  const suiteFileDigests = digestsOf(readSuiteBytes(suiteDir, suite));
  return yield* authenticatePackSteps({ packText, manifestText, suite, suiteFileDigests }, base, { recompute: options.recompute === true });
}

/** The files of a pack by pack-relative path (suite/NAME, manifest.json, pack.json), as a pack folder holds them. */
function packFilesOf(suiteBytes: ReadonlyMap<string, Uint8Array>, manifestText: string, text: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const [name, bytes] of suiteBytes) files.set(`${PACK_SUITE_DIR}/${name}`, bytes);
  files.set(PACK_MANIFEST_FILE, Buffer.from(manifestText, 'utf8'));
  files.set(PACK_FILE, Buffer.from(text, 'ascii'));
  return files;
}

/** `pack verify`: loads the pack and recomputes every fire world and M*. */
export function verifyPack(dir: string): EnvironmentPack {
  return loadPack(dir, { recompute: true });
}

/** verifyPack without holding the event loop (cooperative.ts): Ctrl+C stops it between episodes. */
export function verifyPackCooperatively(dir: string, onProgress?: (progress: StepProgress) => void): Promise<EnvironmentPack> {
  return driveSteps(loadPackSteps(dir, { recompute: true }), onProgress === undefined ? {} : { onProgress });
}

const PACK_OUTPUT = { what: 'environment pack', existsNote: 'a pack is always built into a new directory' } as const;

/**
 * `pack build`: copies the suite directory byte for byte, writes the
 * evaluation manifest text and pack.json into a new directory `out`,
 * atomically. Returns the pack as read back from disk.
 */
/** Seams for tests: a failure or a concurrent writer at the moment a real filesystem rarely shows on demand. */
export type BuildPackHooks = OutputDirectoryHooks & {
  /** Progress of the episodes' computation, reported between slices of work (cooperative.ts). */
  readonly onProgress?: (progress: StepProgress) => void;
};

export async function buildPack(suiteDirArg: string, manifestPath: string, out: string, hooks: BuildPackHooks = {}): Promise<EnvironmentPack> {
  // 1. Inputs (exit 3), then the output path (exit 6), before the long computation.
  const suiteDir = stripTrailingSeparators(suiteDirArg);
  const suite = loadSuiteDir(suiteDir);
  const suiteBytes = readSuiteBytes(suiteDir, suite);
  const manifestText = readTextInput(manifestPath, 'evaluation manifest');
  const manifest = parseManifestText(manifestText, manifestPath);
  const target = stripTrailingSeparators(out);
  checkOutputDirectory(target, PACK_OUTPUT, [{ dir: suiteDir, label: 'suite directory' }]);

  // 2. Every fire world and M*, computed once.
  // In slices, so Ctrl+C stops it at once: nothing has been created yet.
  const value = await driveSteps(buildPackValueSteps(suite, manifest, digestsOf(suiteBytes), manifestPath), hooks.onProgress === undefined ? {} : { onProgress: hooks.onProgress });
  const text = packText(value);

  // 3. A temporary directory beside the output, read back, then published by rename.
  const files = packFilesOf(suiteBytes, manifestText, text);
  return writeOutputDirectory(
    target,
    PACK_OUTPUT,
    async (temp) => {
      // The suite copy first, then manifest.json, then pack.json (the order of packFilesOf).
      await mkdir(join(temp, PACK_SUITE_DIR));
      for (const [name, bytes] of files) {
        if (name === PACK_MANIFEST_FILE) await syncDirectory(join(temp, PACK_SUITE_DIR));
        await writeFileSynced(join(temp, name), bytes);
      }
      // Read back what was written: a pack that cannot be loaded is never published.
      // The pack value holds no paths, so the read-back pack is the published one.
      return loadPack(temp);
    },
    hooks,
  );
}

/**
 * `pack build` in memory, for a suite the archive holds (its files' bytes by
 * name) and a manifest text: the pack's files by pack-relative path, the
 * bytes the folder `buildPack` writes holds, and the pack authenticated
 * from those bytes as a loaded folder is. Nothing is written.
 */
export function buildPackFiles(
  suiteFiles: ReadonlyMap<string, Uint8Array>,
  suiteSource: string,
  manifestText: string,
  manifestSource: string,
): { pack: EnvironmentPack; files: Map<string, Uint8Array> } {
  const suite = suiteFromFiles(suiteFiles, suiteSource);
  // The files the suite lists, in buildPack's order (a folder's other files are not part of the suite).
  const suiteBytes = new Map<string, Uint8Array>();
  for (const name of [SUITE_MANIFEST_FILE, ...suite.entries.map((e) => e.file)]) {
    const bytes = suiteFiles.get(name);
    if (bytes === undefined) throw new ValidationError(`${suiteSource}/${name}: cannot read suite file (missing)`);
    suiteBytes.set(name, bytes);
  }
  const manifest = parseManifestText(manifestText, manifestSource);
  const suiteFileDigests = digestsOf(suiteBytes);
  const text = packText(buildPackValue(suite, manifest, suiteFileDigests, manifestSource));
  const files = packFilesOf(suiteBytes, manifestText, text);
  const pack = authenticatePack({ packText: text, manifestText, suite, suiteFileDigests }, `${suiteSource} pack`, { recompute: false });
  return { pack, files };
}
