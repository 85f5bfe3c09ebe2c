/**
 * Environment pack directories (src/core/pack/pack.ts has the format):
 * building one atomically, and loading one fail-closed.
 *
 * Build: the inputs are read and checked, the output path is checked, every
 * fire world and M* is computed; only then is anything created. The output
 * directory must not exist. It is reserved with an exclusive mkdir (an empty
 * placeholder, so a directory another process creates meanwhile is never
 * replaced), the pack is written into a temporary directory beside it (each
 * file fsynced), read back and authenticated, and renamed over the empty
 * placeholder in one step. On any failure, and on Ctrl+C (files.ts
 * removePendingOutputs), the temporary directory and the placeholder are
 * removed: nothing is left behind.
 *
 * Load: the directory holds exactly pack.json, manifest.json and suite/;
 * the suite copy is loaded with the suite loader and its files' bytes are
 * hashed; authenticatePack checks the rest. Every input problem is a
 * ValidationError (exit 3); every output problem an OutputError (exit 6).
 */

import { randomBytes } from 'node:crypto';
import { constants, lstatSync, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { OutputError, ValidationError, isEmberError } from '../core/errors.js';
import { parseManifestText } from '../core/eval/manifest.js';
import {
  PACK_FILE,
  PACK_MANIFEST_FILE,
  PACK_SUITE_DIR,
  authenticatePack,
  buildPackValue,
  fileBytesDigest,
  packText,
  type EnvironmentPack,
} from '../core/pack/pack.js';
import { SUITE_MANIFEST_FILE, type Suite } from '../core/world/suite.js';
import { trackPendingDirectory } from './files.js';
import { loadSuiteDir, readTextInput } from './inputs.js';

export interface LoadPackOptions {
  /** Recompute every fire world and M* (`pack verify`). The scorer's load leaves it off and checks each result with checkResultAgainstPack. */
  readonly recompute?: boolean;
}

function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function stripTrailingSeparators(dir: string): string {
  return dir.length > 1 ? dir.replace(/[\\/]+$/, '') : dir;
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
  return authenticatePack({ packText, manifestText, suite, suiteFileDigests }, base, { recompute: options.recompute === true });
}

/** `pack verify`: loads the pack and recomputes every fire world and M*. */
export function verifyPack(dir: string): EnvironmentPack {
  return loadPack(dir, { recompute: true });
}

function isInside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

/** The output directory must not exist, its parent must, and it must not lie inside the input suite. */
function checkPackOutput(out: string, suiteDir: string): void {
  if (out === '') throw new OutputError('output directory path is empty');
  const parent = dirname(resolve(out));
  let parentIsDir = false;
  try {
    parentIsDir = statSync(parent).isDirectory();
  } catch {
    throw new OutputError(`output parent directory does not exist: ${dirname(out)}`);
  }
  if (!parentIsDir) throw new OutputError(`output parent is not a directory: ${dirname(out)}`);
  let exists = true;
  try {
    lstatSync(out);
  } catch {
    exists = false;
  }
  // A pack directory is never replaced, not even an empty one: there is no --force.
  if (exists) throw new OutputError(`output directory exists (a pack is always built into a new directory): ${out}`);
  if (isInside(realpathSync(parent), realpathSync(suiteDir))) {
    throw new OutputError(`output ${out} is inside the input suite directory ${suiteDir}; inputs are never written`);
  }
}

async function writeFileSynced(path: string, data: Uint8Array): Promise<void> {
  const handle = await open(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o666);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDirectory(dir: string): Promise<void> {
  // Makes new entries durable; not every platform can open a directory.
  try {
    const handle = await open(dir, constants.O_RDONLY);
    await handle.sync().catch(() => undefined);
    await handle.close();
  } catch {
    // best effort
  }
}

/** Removes the placeholder only while it is still the empty directory this process created. */
async function removePlaceholder(path: string, ours: { readonly dev: number; readonly ino: number }): Promise<void> {
  try {
    const now = await lstat(path);
    if (now.dev === ours.dev && now.ino === ours.ino && (await readdir(path)).length === 0) await rmdir(path);
  } catch {
    // gone already
  }
}

/**
 * `pack build`: copies the suite directory byte for byte, writes the
 * evaluation manifest text and pack.json into a new directory `out`,
 * atomically. Returns the pack as read back from disk.
 */
/** Seams for tests: a failure or a concurrent writer at the moment a real filesystem rarely shows on demand. */
export interface BuildPackHooks {
  /** Runs after the temporary directory is complete and read back, before it is renamed into place. */
  readonly beforePublish?: (tempDir: string) => void | Promise<void>;
}

export async function buildPack(suiteDirArg: string, manifestPath: string, out: string, hooks: BuildPackHooks = {}): Promise<EnvironmentPack> {
  // 1. Inputs (exit 3), then the output path (exit 6), before the long computation.
  const suiteDir = stripTrailingSeparators(suiteDirArg);
  const suite = loadSuiteDir(suiteDir);
  const suiteBytes = readSuiteBytes(suiteDir, suite);
  const manifestText = readTextInput(manifestPath, 'evaluation manifest');
  const manifest = parseManifestText(manifestText, manifestPath);
  const target = stripTrailingSeparators(out);
  checkPackOutput(target, suiteDir);

  // 2. Every fire world and M*, computed once.
  const value = buildPackValue(suite, manifest, digestsOf(suiteBytes), manifestPath);
  const text = packText(value);

  // 3. Reserve the output, write a temporary directory beside it, publish by rename.
  try {
    await mkdir(target);
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') throw new OutputError(`output directory exists (a pack is always built into a new directory): ${target}`);
    throw new OutputError(`cannot create output directory ${target}: ${errnoCode(error) ?? String(error)}`);
  }
  const untrackPlaceholder = trackPendingDirectory(target, false);
  const placeholder = await lstat(target);
  const ours = { dev: placeholder.dev, ino: placeholder.ino };
  const temp = join(dirname(resolve(target)), `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const untrackTemp = trackPendingDirectory(temp, true);
  try {
    await mkdir(temp);
    await mkdir(join(temp, PACK_SUITE_DIR));
    for (const [name, bytes] of suiteBytes) await writeFileSynced(join(temp, PACK_SUITE_DIR, name), bytes);
    await syncDirectory(join(temp, PACK_SUITE_DIR));
    await writeFileSynced(join(temp, PACK_MANIFEST_FILE), Buffer.from(manifestText, 'utf8'));
    await writeFileSynced(join(temp, PACK_FILE), Buffer.from(text, 'ascii'));
    await syncDirectory(temp);
    // Read back what was written: a pack that cannot be loaded is never published.
    const written = loadPack(temp);
    await hooks.beforePublish?.(temp);
    await publish(temp, target, ours);
    untrackTemp();
    untrackPlaceholder();
    await syncDirectory(dirname(resolve(target)));
    // The pack value holds no paths, so the read-back pack is the published one.
    return written;
  } catch (error) {
    await rm(temp, { recursive: true, force: true }).catch(() => undefined);
    await removePlaceholder(target, ours);
    untrackTemp();
    untrackPlaceholder();
    if (isEmberError(error)) throw error;
    throw new OutputError(`cannot write environment pack ${target}: ${errnoCode(error) ?? String(error)}`);
  }
}

/**
 * Renames the temporary directory over the empty placeholder. POSIX rename
 * replaces an empty directory atomically and fails if it is not empty
 * (someone wrote into it: then it is not replaced). Where rename cannot
 * replace a directory at all (Windows), the placeholder is removed first,
 * but only while it is still ours and empty.
 */
async function publish(temp: string, target: string, ours: { readonly dev: number; readonly ino: number }): Promise<void> {
  try {
    await rename(temp, target);
    return;
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOTEMPTY') throw new OutputError(`output directory ${target} was written by another process; it is not replaced`);
    if (code !== 'EPERM' && code !== 'EEXIST' && code !== 'EACCES' && code !== 'EISDIR') throw error;
  }
  const now = await lstat(target).catch(() => undefined);
  if (now === undefined || now.dev !== ours.dev || now.ino !== ours.ino || (await readdir(target)).length !== 0) {
    throw new OutputError(`output directory ${target} was changed by another process; it is not replaced`);
  }
  await rmdir(target);
  try {
    await rename(temp, target);
  } catch (error) {
    if (errnoCode(error) === 'EEXIST' || errnoCode(error) === 'ENOTEMPTY') throw new OutputError(`output directory exists: ${target}`);
    throw error;
  }
}
