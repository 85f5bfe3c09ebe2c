/**
 * Authenticates an evaluation result file by streaming (issue 12): the file
 * is never one string, so a result of several GB is verified in memory
 * bounded by its largest episode (a JavaScript string stops at about 512 MB).
 *
 * A canonical result is `{"episodes":[E0,E1,...],"evaluation_result_version":...}`
 * plus one LF: its keys are in code-point order, so the episodes come first
 * and everything else (failures, manifest, hashes, model ID) is a small
 * tail. Two passes over the file:
 *
 * 1. A byte scanner checks the structure (the exact `{"episodes":[` opening,
 *    elements joined by `,`, printable ASCII only, as canonical JSON is),
 *    notes where each episode starts and ends, keeps the tail and hashes
 *    the bytes (the digest of the file without its final LF).
 * 2. The tail is read as a result with no episodes (strict fields plus the
 *    canonical check of those bytes) and authenticated as authenticateResult
 *    does; then each episode is read from its byte range, parsed strictly,
 *    checked field by field, checked canonical, its index checked, replayed
 *    and its metrics recomputed (the functions of authenticate.ts).
 *
 * Each piece canonical plus the exact structure is the whole file canonical.
 * Errors are those of authenticateResult, with the same messages and exit
 * codes. Bytes that break the structure or the JSON syntax have no
 * position-independent message: a file that fits in one string is then
 * diagnosed by the whole-text path (so the message is the same as before);
 * a larger one gets a "not canonical" error with the byte offset (exit 3).
 */

import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { MismatchError, OutputError, ValidationError } from '../../core/errors.js';
import {
  authenticateEpisode,
  authenticateResult,
  authenticateResultHead,
  checkIndexAt,
  declaredCommittedMessage,
  incompleteMessage,
  scenariosById,
  type AuthenticatedEpisode,
  type AuthenticateOptions,
} from '../../core/eval/authenticate.js';
import { requireSameManifest, type EvaluationManifest } from '../../core/eval/manifest.js';
import {
  notCanonicalError,
  parseResultText,
  readResultEpisode,
  resultText,
  type EvaluationResult,
  type FailureDeclaration,
  type ResultEpisode,
} from '../../core/eval/result.js';
import { canonicalJson } from '../../core/json/canonical.js';
import { parseJsonInput } from '../../core/json/strict-parse.js';
import type { Suite } from '../../core/world/suite.js';
import { runSteps, type Steps } from '../../core/steps.js';
import { JsonStringLengthGuard } from '../../core/json/string-limit.js';
import { INPUT_SIZE_LIMITS, MAX_RESULT_STRING_BYTES, MAX_TEXT_INPUT_BYTES, readBytesInput, readTextInput, stringTooLong } from '../inputs.js';

const KIND = 'evaluation result';
const OPENING = Buffer.from('{"episodes":[', 'latin1');
const READ_CHUNK_BYTES = 8 << 20;
/** Bytes scanned between two steps (src/core/steps.ts). */
const SCAN_STEP_BYTES = 1 << 16;
/** A result's opening with no episodes: the tail completes it to a result text. */
export const EMPTY_EPISODES = '{"episodes":[]';

/** What a streamed authentication returns (the episodes go to `onEpisode`, one at a time). */
export interface StreamedResult {
  readonly modelId: string;
  readonly manifest: EvaluationManifest;
  readonly manifestHash: string;
  /** fileDigest of the file text. */
  readonly digest: string;
  /** Committed episodes. */
  readonly committed: number;
  readonly failures: readonly FailureDeclaration[];
  readonly scheduledEpisodes: number;
  readonly complete: boolean;
}

/** What the tail of a result says, once authenticated (the episodes still to come). */
export interface StreamedHead {
  readonly modelId: string;
  readonly manifest: EvaluationManifest;
  readonly manifestHash: string;
}

export interface StreamAuthenticateOptions extends AuthenticateOptions {
  /** The result's head (from its tail), authenticated, before its first episode is read. */
  readonly onHead?: (head: StreamedHead) => void;
  /** Each authenticated episode, in file (index) order; keep it only if needed. */
  readonly onEpisode?: (episode: AuthenticatedEpisode) => void;
  /** Bytes per read (tests use small reads to cross every boundary). */
  readonly chunkBytes?: number;
  /**
   * Up to this size a file that breaks the structure is diagnosed by the
   * whole-text path (MAX_TEXT_INPUT_BYTES; tests set 0 to see the
   * streaming messages).
   */
  readonly wholeTextLimit?: number;
}

/** Bytes that are not a canonical result's structure, at a byte offset. */
export class StructureError extends Error {
  constructor(
    readonly at: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

export interface Scan {
  /** [start, end) of each element of `episodes`. */
  readonly ranges: number[];
  readonly tail: Buffer;
  readonly digest: string;
}

/** Canonical JSON is printable ASCII (everything else is escaped). */
function printable(b: number): boolean {
  return b >= 0x20 && b < 0x7f;
}

/** Where the scanner reads: `read` fills `buf` from `position` and says how many bytes it read. */
export interface ByteSource {
  readonly size: number;
  read(buf: Buffer, length: number, position: number): number;
}

/** An open file as a byte source. */
function fileSource(fd: number, size: number): ByteSource {
  return { size, read: (buf, length, position) => readSync(fd, buf, 0, length, position) };
}

/** Pass 1: the structure, the episode ranges, the tail and the digest. */
export function* scanSteps(input: ByteSource, chunkBytes: number, maxTail: number, source: string): Steps<Scan> {
  const { size } = input;
  const hash = createHash('sha256');
  // No string of a result is long (MAX_RESULT_STRING_BYTES): a huge one is refused here, before any piece becomes a string.
  const strings = new JsonStringLengthGuard(MAX_RESULT_STRING_BYTES);
  const ranges: number[] = [];
  const tail: Buffer[] = [];
  let tailBytes = 0;
  // 0 opening, 1 first element or ']', 2 inside an element, 3 after an element, 4 next element, 5 tail
  let phase = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = 0;
  const buf = Buffer.allocUnsafe(chunkBytes);
  for (let offset = 0; offset < size; ) {
    yield { what: 'reading result', done: offset, total: size };
    const n = input.read(buf, Math.min(chunkBytes, size - offset), offset);
    if (n === 0) throw new StructureError(offset, 'the file ended while it was read');
    const chunk = buf.subarray(0, n);
    // The digest covers the text without its final LF.
    const last = offset + n === size && chunk[n - 1] === 0x0a;
    hash.update(last ? chunk.subarray(0, n - 1) : chunk);
    const long = strings.push(chunk);
    if (long >= 0) throw stringTooLong(source, KIND, long, MAX_RESULT_STRING_BYTES);
    for (let k = 0; k < n; k++) {
      // A step per SCAN_STEP_BYTES too: a chunk of many tiny episodes takes long to scan.
      if (k % SCAN_STEP_BYTES === SCAN_STEP_BYTES - 1) yield { what: 'reading result', done: offset + k, total: size };
      const b = chunk[k]!;
      const at = offset + k;
      if (phase === 5) {
        // The chunk buffer is reused: keep a copy.
        tail.push(Buffer.from(chunk.subarray(k)));
        tailBytes += n - k;
        if (tailBytes > maxTail) throw new StructureError(at, 'the part after the episodes is too large');
        break;
      }
      if (!printable(b)) throw new StructureError(at, 'a byte canonical JSON never holds');
      switch (phase) {
        case 0:
          if (b !== OPENING[at]) throw new StructureError(at, 'expected {"episodes":[');
          if (at === OPENING.length - 1) phase = 1;
          break;
        case 1:
        case 4:
          if (b === 0x5d && phase === 1) phase = 5;
          else if (b === 0x7b) {
            phase = 2;
            depth = 1;
            start = at;
          } else throw new StructureError(at, 'expected an episode object');
          break;
        case 2:
          if (inString) {
            if (escaped) escaped = false;
            else if (b === 0x5c) escaped = true;
            else if (b === 0x22) inString = false;
          } else if (b === 0x22) inString = true;
          else if (b === 0x7b || b === 0x5b) depth++;
          else if (b === 0x7d || b === 0x5d) {
            depth--;
            if (depth === 0) {
              ranges.push(start, at + 1);
              phase = 3;
            }
          }
          break;
        case 3:
          if (b === 0x2c) phase = 4;
          else if (b === 0x5d) phase = 5;
          else throw new StructureError(at, "expected ',' or ']' after an episode");
          break;
        default:
          throw new StructureError(at, 'unexpected byte');
      }
    }
    offset += n;
  }
  if (phase !== 5) throw new StructureError(size, 'the file ends inside the episodes');
  const tailBuffer = Buffer.concat(tail);
  // Printable ASCII up to the final LF (the tail is decoded as latin1 below).
  for (let k = 0; k < tailBuffer.length - 1; k++) {
    if (!printable(tailBuffer[k]!)) throw new StructureError(size - tailBuffer.length + k, 'a byte canonical JSON never holds');
  }
  return { ranges, tail: tailBuffer, digest: hash.digest('hex') };
}

/** A syntax error in a piece has a position relative to the piece: a structure error of the file. */
function pieceParse<T>(at: number, parse: () => T, source: string): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ValidationError && error.message.startsWith(`${source}: not valid JSON: `)) {
      throw new StructureError(at, error.message.slice(source.length + 2));
    }
    throw error;
  }
}

/**
 * A result in pieces: the text after the `episodes` array (from
 * `,"evaluation_result_version":` to the final LF) and each element of it.
 */
export interface ResultPieces {
  readonly tail: string;
  readonly count: number;
  /** The canonical-JSON text of episodes[i]. */
  episode(i: number): string;
  /** Where a piece starts in the file, for messages (0 when not from a file). */
  readonly at: (i: number | 'tail') => number;
  readonly digest: string;
}

/**
 * Pass 2: authenticates a result from its pieces, with the checks and
 * messages of authenticateResult (see the top of this file).
 */
export function authenticateResultPieces(pieces: ResultPieces, source: string, suite: Suite, opts: StreamAuthenticateOptions = {}): StreamedResult {
  return runSteps(authenticateResultPiecesSteps(pieces, source, suite, opts));
}

/** authenticateResultPieces as steps (src/core/steps.ts): one step per replayed episode. */
export function* authenticateResultPiecesSteps(pieces: ResultPieces, source: string, suite: Suite, opts: StreamAuthenticateOptions = {}): Steps<StreamedResult> {
  // The tail read as a result without episodes: strict fields and the canonical check of those bytes.
  const head = pieceParse(pieces.at('tail'), () => parseResultText(EMPTY_EPISODES + pieces.tail, source), source);
  const { manifest } = head;
  const hash = authenticateResultHead(head, source, suite);
  const scheduledCount = manifest.episodes.length;
  const declaredAt = new Map<number, number>();
  head.failures.forEach((f, j) => {
    checkIndexAt(f.index, head.failures[j - 1]?.index, j, 'failures', scheduledCount, source);
    declaredAt.set(f.index, j);
  });
  opts.onHead?.({ modelId: head.model_id, manifest, manifestHash: hash });

  const scenarios = scenariosById(suite);
  let previous: number | undefined;
  for (let i = 0; i < pieces.count; i++) {
    yield { what: 'replaying episodes', done: i, total: pieces.count };
    const text = pieces.episode(i);
    const value = pieceParse(pieces.at(i), () => parseJsonInput(text, source), source);
    const episode = readResultEpisode(value, source, `episodes[${i}]`);
    if (canonicalJson(value) !== text) throw notCanonicalError(source);
    checkIndexAt(episode.index, previous, i, 'episodes', scheduledCount, source);
    previous = episode.index;
    const j = declaredAt.get(episode.index);
    if (j !== undefined) throw new ValidationError(declaredCommittedMessage(source, j, episode.index));
    const authenticated = authenticateEpisode(manifest, scenarios, episode, i, source);
    opts.onEpisode?.(authenticated);
  }

  if (opts.requiredManifest !== undefined) requireSameManifest(manifest, opts.requiredManifest, source);
  const complete = pieces.count === scheduledCount;
  if (opts.requireComplete === true && !complete) {
    throw new MismatchError(incompleteMessage(source, pieces.count, scheduledCount, head.failures.length));
  }
  return {
    modelId: head.model_id,
    manifest,
    manifestHash: hash,
    digest: pieces.digest,
    committed: pieces.count,
    failures: head.failures,
    scheduledEpisodes: scheduledCount,
    complete,
  };
}

function* streamAuthenticateSteps(fd: number, size: number, source: string, suite: Suite, opts: StreamAuthenticateOptions): Steps<StreamedResult> {
  const maxText = MAX_TEXT_INPUT_BYTES;
  const { ranges, tail, digest } = yield* scanSteps(fileSource(fd, size), opts.chunkBytes ?? READ_CHUNK_BYTES, maxText, source);
  const tailAt = ranges.length === 0 ? OPENING.length + 1 : ranges[ranges.length - 1]! + 1;
  const episode = (i: number): string => {
    const start = ranges[2 * i]!;
    const end = ranges[2 * i + 1]!;
    if (end - start > maxText) throw new StructureError(start, `episodes[${i}] is larger than ${maxText} bytes`);
    const bytes = Buffer.allocUnsafe(end - start);
    if (readSync(fd, bytes, 0, bytes.length, start) !== bytes.length) throw new StructureError(start, 'the file changed while it was read');
    // Printable ASCII (checked by the scanner).
    return bytes.toString('latin1');
  };
  const at = (i: number | 'tail'): number => (i === 'tail' ? tailAt : ranges[2 * i]!);
  return yield* authenticateResultPiecesSteps({ tail: tail.toString('latin1'), count: ranges.length / 2, episode, at, digest }, source, suite, opts);
}

/**
 * Authenticates the result file at `path` (named `source` in messages)
 * against a suite, streaming: the errors of authenticateResult, in memory
 * bounded by the largest episode.
 */
export function authenticateResultFile(path: string, source: string, suite: Suite, opts: StreamAuthenticateOptions = {}): StreamedResult {
  return runSteps(authenticateResultFileSteps(path, source, suite, opts));
}

/** authenticateResultFile as steps (src/core/steps.ts): a step per chunk read and per replayed episode; the file is closed however the steps end. */
export function* authenticateResultFileSteps(path: string, source: string, suite: Suite, opts: StreamAuthenticateOptions = {}): Steps<StreamedResult> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    // The precise message (missing, a directory, unreadable) is the reader's.
    readTextInput(path, KIND);
    throw new ValidationError(`${path}: cannot read ${KIND}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > INPUT_SIZE_LIMITS[KIND]) {
      readBytesInput(path, KIND);
      throw new ValidationError(`${path}: ${KIND} is not a regular file`);
    }
    try {
      return yield* streamAuthenticateSteps(fd, stat.size, source, suite, opts);
    } catch (error) {
      if (!(error instanceof StructureError)) throw error;
      if (stat.size <= Math.min(opts.wholeTextLimit ?? MAX_TEXT_INPUT_BYTES, MAX_TEXT_INPUT_BYTES)) {
        // The whole-text path names what is wrong as it always has.
        // It accepts only canonical text, which the scanner accepts too: it throws (unless the file changed meanwhile).
        authenticateResult(readTextInput(path, KIND), source, suite, opts);
      }
      throw new ValidationError(`${source}: not canonical JSON plus one LF (an evaluation result is never reformatted or repaired): at byte ${error.at}: ${error.reason}`);
    }
  } finally {
    closeSync(fd);
  }
}

/** The committed form of an authenticated episode (what the runner keeps). */
export function resultEpisodeOf(e: AuthenticatedEpisode): ResultEpisode {
  return { index: e.index, metrics: e.metrics, record: e.record };
}

/**
 * Authenticates a result value (a journal's entries) as its file text would
 * be, without building that text: each episode's canonical JSON is a piece.
 * Returns the entries as authenticated, in index order.
 */
export function authenticateEntries(result: EvaluationResult, source: string, suite: Suite): { episodes: ResultEpisode[]; failures: readonly FailureDeclaration[] } {
  const episodes: ResultEpisode[] = [];
  const text = (i: number): string => canonicalJson(result.episodes[i]);
  const failures = authenticateEntryTexts(result, result.episodes.length, text, source, suite, (e) => episodes.push(resultEpisodeOf(e)));
  return { episodes, failures };
}

/**
 * authenticateEntries with the episodes given one at a time (a journal read back, never all in memory):
 * `episode(i)` is the canonical JSON of the i-th in index order. Returns the failures as authenticated.
 */
export function authenticateEntryTexts(
  head: EvaluationResult,
  count: number,
  episode: (i: number) => string,
  source: string,
  suite: Suite,
  onEpisode?: (e: AuthenticatedEpisode) => void,
): readonly FailureDeclaration[] {
  const pieces: ResultPieces = {
    tail: resultText({ ...head, episodes: [] }).slice(EMPTY_EPISODES.length),
    count,
    episode,
    at: () => 0,
    // Not a file: no digest is asked for.
    digest: '',
  };
  try {
    return authenticateResultPieces(pieces, source, suite, onEpisode === undefined ? {} : { onEpisode }).failures;
  } catch (error) {
    // Pieces written by canonicalJson parse; should one not, it is still bad input (exit 3), not a crash.
    if (error instanceof StructureError) throw new ValidationError(`${source}: ${error.reason}`);
    throw error;
  }
}

/**
 * Each episode's canonical JSON in a result file, in file order, one at a time (a resumed result starts a journal).
 * `digest` is the file's when it was authenticated: a file changed since is an OutputError, before anything is yielded.
 */
export function* resultFileEpisodeTexts(path: string, digest: string): Generator<string, void, undefined> {
  const changed = (): OutputError => new OutputError(`${path} changed after it was read; not continuing it`);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    throw changed();
  }
  try {
    let found: Scan;
    try {
      found = runSteps(scanSteps(fileSource(fd, fstatSync(fd).size), READ_CHUNK_BYTES, MAX_TEXT_INPUT_BYTES, path));
    } catch (error) {
      throw error instanceof StructureError || error instanceof ValidationError ? changed() : error;
    }
    if (found.digest !== digest) throw changed();
    for (let i = 0; i < found.ranges.length; i += 2) {
      const bytes = Buffer.allocUnsafe(found.ranges[i + 1]! - found.ranges[i]!);
      if (readSync(fd, bytes, 0, bytes.length, found.ranges[i]!) !== bytes.length) throw changed();
      yield bytes.toString('latin1');
    }
  } finally {
    closeSync(fd);
  }
}
