/**
 * Reading input files and suite directories (evaluation.md section 1,
 * "Loading: fail closed"). Every problem is a ValidationError (exit 3) that
 * names the path as the user gave it.
 */

import { closeSync, fstatSync, openSync, readFileSync, readSync, readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { ValidationError } from '../core/errors.js';
import { parseManifestText, type EvaluationManifest } from '../core/eval/manifest.js';
import { JsonStringLengthGuard } from '../core/json/string-limit.js';
import { parseScenarioText } from '../core/world/scenario.js';
import type { Scenario } from '../core/world/scenario-types.js';
import { SUITE_MANIFEST_FILE, loadSuite, type Suite } from '../core/world/suite.js';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function errnoCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}

/** Every kind of input file a command reads; each has its own size limit. */
export type InputKind =
  | 'scenario file'
  | 'suite manifest'
  | 'suite file'
  | 'evaluation manifest'
  | 'pack file'
  | 'run record'
  | 'evaluation result'
  | 'failures file'
  | 'score report'
  | 'operational record'
  | 'generator configuration'
  | 'freeze record'
  | 'bundle index'
  | 'run settings'
  | 'signing key'
  | 'signature file';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/**
 * The largest file of each kind a command accepts, checked from the file's
 * size BEFORE anything is read, so that a huge input is a precise exit 3 and
 * never an out-of-memory abort. Each limit is far above the largest legal
 * file (docs/formats.md "Input size limits" gives the reasoning):
 * - a scenario (256 x 256 cells, 10,000 people, every cell an ignition) is
 *   about 3 MB compact, a few tens of MB however it is indented;
 * - a run record of 10,000 people over 10,000 steps is about 200 MB;
 * - manifests, packs and failures files grow by a few hundred bytes per
 *   episode: 256 MiB is about a million episodes;
 * - a result holds every record of an evaluation and can be GBs; its limit is
 *   meant for streamed reading, and while results are read as one text they
 *   are also bounded by {@link MAX_TEXT_INPUT_BYTES}.
 */
export const INPUT_SIZE_LIMITS: Readonly<Record<InputKind, number>> = {
  'scenario file': 64 * MiB,
  'suite file': 64 * MiB,
  'suite manifest': 64 * MiB,
  'evaluation manifest': 256 * MiB,
  'pack file': 256 * MiB,
  'run record': 256 * MiB,
  'failures file': 256 * MiB,
  'operational record': 256 * MiB,
  // A configuration is a few lines; a freeze record grows by ~300 bytes per scenario (at most 1,000) plus its configuration.
  'generator configuration': 64 * MiB,
  'freeze record': 64 * MiB,
  // Grows by ~100 bytes per file of the bundle.
  'bundle index': 64 * MiB,
  // A run folder's run.json: one line of settings.
  'run settings': 1 * MiB,
  // A key file is a few hundred bytes; a signature set about 250 bytes per signature.
  'signing key': 64 * 1024,
  'signature file': 16 * MiB,
  'score report': 500 * MiB,
  'evaluation result': 64 * GiB,
};

/**
 * The most bytes read into one string (V8 strings end at 2^29 - 24 code
 * units; 500 MiB stays below that with room for the decoder).
 */
export const MAX_TEXT_INPUT_BYTES = 500 * MiB;

/** "67108864 bytes (64 MiB)". */
export function describeBytes(bytes: number): string {
  if (bytes >= GiB && bytes % GiB === 0) return `${bytes} bytes (${bytes / GiB} GiB)`;
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes} bytes (${bytes / MiB} MiB)`;
  return `${bytes} bytes`;
}

/** `size` undefined: a pipe or a growing file, found larger while reading. */
function tooLarge(path: string, kind: InputKind, size: number | undefined, limit: number): ValidationError {
  const why = limit === MAX_TEXT_INPUT_BYTES && limit < INPUT_SIZE_LIMITS[kind] ? 'the most a command reads as one text' : `the limit for a ${kind}`;
  const is = size === undefined ? 'is' : `is ${size} bytes,`;
  return new ValidationError(`${path}: ${kind} ${is} more than ${describeBytes(limit)}, ${why}`);
}

function openError(path: string, kind: InputKind, error: unknown): ValidationError {
  const code = errnoCode(error);
  switch (code) {
    case 'ENOENT':
      return new ValidationError(`${path}: ${kind} does not exist`);
    case 'EISDIR':
      return new ValidationError(`${path}: ${kind} is a directory, not a file`);
    default:
      return new ValidationError(`${path}: cannot read ${kind} (${code})`);
  }
}

/** Largest read chunk once a file turns out bigger than its size said (it grew, or it is a pipe). */
const READ_CHUNK_BYTES = MiB;
/** Bytes per read while the strings of a text are checked: a refusal reads at most this far past the limit. */
const GUARDED_READ_BYTES = 8 * MiB;

/**
 * The longest string an evaluation result may hold, as written (escapes
 * counted as their bytes). The longest legal one is far shorter: a step's
 * `actions` or `moved` has one character per person (at most 10,000), a
 * failure message at most 2,000 characters, a model ID at most 256. Checked
 * while the file is read (JsonStringLengthGuard), so a result with a huge
 * string is refused after reading about this much of it, in bounded memory.
 */
export const MAX_RESULT_STRING_BYTES = MiB;

/** How an input file is read: the limit of its size, the name its messages give it, and a bound on its strings. */
export interface ReadInputOptions {
  readonly limit?: number;
  /** The name the user knows the file by (an upload's name); the path by default. */
  readonly label?: string;
  /** Refuse a JSON string longer than this many bytes, while reading. */
  readonly maxStringBytes?: number;
}

/** The refusal of a text holding a string longer than `max` bytes, starting at byte `at`. */
export function stringTooLong(label: string, kind: InputKind, at: number, max: number): ValidationError {
  return new ValidationError(`${label}: ${kind} has a string of more than ${describeBytes(max)} (from byte ${at}), the most one string of it may hold: it was not made by emberbench`);
}

/**
 * Checks the strings of a regular file before it is read whole (positioned
 * reads of GUARDED_READ_BYTES; the file position does not move), so that a
 * refused file never costs a buffer of its size.
 */
function checkStrings(fd: number, size: number, label: string, kind: InputKind, maxStringBytes: number): void {
  const guard = new JsonStringLengthGuard(maxStringBytes);
  const buffer = Buffer.allocUnsafe(Math.min(GUARDED_READ_BYTES, size + 1));
  for (let offset = 0; ; ) {
    const n = readSync(fd, buffer, 0, buffer.length, offset);
    if (n === 0) return;
    const at = guard.push(buffer.subarray(0, n));
    if (at >= 0) throw stringTooLong(label, kind, at, maxStringBytes);
    offset += n;
  }
}

/**
 * The bytes of an input file, bounded: the size is checked before reading,
 * and reading stops one byte past the limit (a file that grows while it is
 * read, or a pipe, cannot get past it either). With `maxStringBytes`, a
 * string longer than that is refused at its first byte past the limit.
 */
export function readBytesInput(path: string, kind: InputKind, limitOrOptions: number | ReadInputOptions = {}): Buffer {
  const opts: ReadInputOptions = typeof limitOrOptions === 'number' ? { limit: limitOrOptions } : limitOrOptions;
  const limit = opts.limit ?? INPUT_SIZE_LIMITS[kind];
  const label = opts.label ?? path;
  const { fd, stat } = openInput(path, kind, label);
  try {
    if (stat.isFile() && stat.size > limit) throw tooLarge(label, kind, stat.size, limit);
    if (stat.isFile() && opts.maxStringBytes !== undefined) checkStrings(fd, stat.size, label, kind, opts.maxStringBytes);
    // A pipe cannot be read twice: its strings are checked as they arrive.
    const guard = !stat.isFile() && opts.maxStringBytes !== undefined ? new JsonStringLengthGuard(opts.maxStringBytes) : undefined;
    const chunks: Buffer[] = [];
    let total = 0;
    // One byte more than the stated size, to see the end (or growth) in one read.
    let buffer = Buffer.allocUnsafe(stat.isFile() ? stat.size + 1 : 64 * 1024);
    for (;;) {
      let filled = 0;
      while (filled < buffer.length) {
        const n = readSync(fd, buffer, filled, buffer.length - filled, null);
        if (n === 0) break;
        const at = guard?.push(buffer.subarray(filled, filled + n)) ?? -1;
        if (at >= 0) throw stringTooLong(label, kind, at, guard!.maxBytes);
        filled += n;
      }
      total += filled;
      chunks.push(buffer.subarray(0, filled));
      if (total > limit) throw tooLarge(label, kind, undefined, limit);
      if (filled < buffer.length) break;
      buffer = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, limit + 1 - total));
    }
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    throw openError(label, kind, error);
  } finally {
    closeSync(fd);
  }
}

/** Opens an input file for reading: its descriptor (the caller closes it) and status; a directory is refused. */
function openInput(path: string, kind: InputKind, label = path): { fd: number; stat: Stats } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw openError(label, kind, error);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw openError(label, kind, Object.assign(new Error('EISDIR'), { code: 'EISDIR' }));
    return { fd, stat };
  } catch (error) {
    closeSync(fd);
    throw error instanceof ValidationError ? error : openError(label, kind, error);
  }
}

/**
 * The size of an input file, checked as readBytesInput checks it (it exists,
 * is not a directory, is within the limit of its kind) without reading it;
 * undefined for what is not a regular file (a pipe: only reading tells).
 */
export function inputFileSize(path: string, kind: InputKind): number | undefined {
  const { fd, stat } = openInput(path, kind);
  closeSync(fd);
  if (!stat.isFile()) return undefined;
  if (stat.size > INPUT_SIZE_LIMITS[kind]) throw tooLarge(path, kind, stat.size, INPUT_SIZE_LIMITS[kind]);
  return stat.size;
}

/**
 * The text of an input file: it must exist, be a file, be no larger than the
 * limit of its kind (and {@link MAX_TEXT_INPUT_BYTES}), be valid UTF-8 and
 * not start with a byte order mark (no artifact of the benchmark has one,
 * and a BOM would silently change what a hand-edited file means). An
 * evaluation result's strings are bounded too (MAX_RESULT_STRING_BYTES).
 * `label` names the file in messages (the path by default).
 */
export function readTextInput(path: string, kind: InputKind, label = path): string {
  const bytes = readBytesInput(path, kind, {
    limit: Math.min(INPUT_SIZE_LIMITS[kind], MAX_TEXT_INPUT_BYTES),
    label,
    ...(kind === 'evaluation result' ? { maxStringBytes: MAX_RESULT_STRING_BYTES } : {}),
  });
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw new ValidationError(`${label}: ${kind} starts with a UTF-8 byte order mark; save it without one`);
  }
  try {
    return decoder.decode(bytes);
  } catch {
    throw new ValidationError(`${label}: ${kind} is not valid UTF-8`);
  }
}

/**
 * An evaluation result's text when it is read whole (it fits in one string:
 * at most MAX_TEXT_INPUT_BYTES, or `streamAbove` bytes, which tests lower to
 * 0), or null when it is to be streamed (result-reader.ts); either way the
 * file was checked to exist and to be within the result's size limit.
 */
export function resultTextOrStream(path: string, streamAbove: number = MAX_TEXT_INPUT_BYTES): string | null {
  const size = inputFileSize(path, 'evaluation result');
  if (size !== undefined && size > Math.min(streamAbove, MAX_TEXT_INPUT_BYTES)) return null;
  return readTextInput(path, 'evaluation result');
}

export function loadScenarioFile(path: string): Scenario {
  return parseScenarioText(readTextInput(path, 'scenario file'), path);
}

/**
 * Loads a suite directory. Every entry other than manifest.json is read and
 * handed to the pure loader, which rejects unlisted ones; an entry that is
 * not a regular file (a subdirectory, a symbolic link, a socket) is rejected
 * here, because a suite is a flat directory of files.
 */
export function loadSuiteDir(dir: string): Suite {
  // Messages join `${dir}/${file}`; a trailing separator would double it.
  const base = dir.length > 1 ? dir.replace(/[\\/]+$/, '') : dir;
  let names: { name: string; isFile: boolean }[];
  try {
    if (!statSync(base).isDirectory()) throw new ValidationError(`${base}: suite is not a directory`);
    names = readdirSync(base, { withFileTypes: true }).map((d) => ({ name: d.name, isFile: d.isFile() }));
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    const code = errnoCode(error);
    throw new ValidationError(code === 'ENOENT' ? `${base}: suite directory does not exist` : `${base}: cannot read suite directory (${code})`);
  }
  names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let manifestText: string | undefined;
  const files = new Map<string, string>();
  for (const { name, isFile } of names) {
    const path = `${base}/${name}`;
    if (!isFile) {
      throw new ValidationError(`${path}: not a regular file (a suite directory holds only ${SUITE_MANIFEST_FILE} and the scenario files it lists)`);
    }
    if (name === SUITE_MANIFEST_FILE) manifestText = readTextInput(path, 'suite manifest');
    else files.set(name, readTextInput(path, 'suite file'));
  }
  if (manifestText === undefined) throw new ValidationError(`${base}/${SUITE_MANIFEST_FILE}: suite manifest does not exist`);
  return loadSuite(manifestText, files, base);
}

/** Reads and parses a manifest file (exit 3 when malformed). */
export function loadManifestFile(path: string): EvaluationManifest {
  return parseManifestText(readTextInput(path, 'evaluation manifest'), path);
}

const suiteDecoder = new TextDecoder('utf-8', { fatal: true });

/** Reads a suite folder, authenticates it and returns it with the exact bytes of its files. */
export function readSuiteFolder(dir: string): { suite: Suite; files: Map<string, Buffer> } {
  const loaded = loadSuiteDir(dir);
  const files = new Map<string, Buffer>();
  for (const name of [SUITE_MANIFEST_FILE, ...loaded.entries.map((e) => e.file)]) files.set(name, readFileSync(join(dir, name)));
  // The bytes stored are the bytes authenticated: load them again, so a file changed between the two reads is caught.
  const suite = suiteFromFiles(files, dir);
  if (suite.hash !== loaded.hash) throw new ValidationError(`${dir}: the suite changed while it was being read; try again`);
  return { suite, files };
}

/** A suite from the bytes of its files (the archive's copy, or bytes handed to a worker), authenticated like a folder. */
export function suiteFromFiles(files: ReadonlyMap<string, Uint8Array>, source: string): Suite {
  const manifest = files.get(SUITE_MANIFEST_FILE);
  if (manifest === undefined) throw new ValidationError(`${source}/${SUITE_MANIFEST_FILE}: suite manifest does not exist`);
  const texts = new Map<string, string>();
  for (const [name, bytes] of files) if (name !== SUITE_MANIFEST_FILE) texts.set(name, suiteDecoder.decode(bytes));
  return loadSuite(suiteDecoder.decode(manifest), texts, source);
}
