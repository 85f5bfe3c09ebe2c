/**
 * parseResultText as steps, for a result text held in memory (`archive
 * import`): the same value, and for a text that is not a canonical result
 * the same error, but no long block of work, so a command that drives the
 * steps sees Ctrl+C within a slice (a 4.5 MB result took about a second to
 * parse and check canonical in one piece).
 *
 * The scanner of result-reader.ts finds the episodes (a step per 64 KB);
 * the part after them is read as a result with no episodes; then each
 * episode is parsed, read field by field and checked canonical in a step of
 * its own. Each piece canonical plus the exact structure is the whole text
 * canonical (result-reader.ts says why).
 */

import { ValidationError } from '../../core/errors.js';
import { notCanonicalError, parseResultText, readResultEpisode, type EvaluationResult, type ResultEpisode } from '../../core/eval/result.js';
import { canonicalJson } from '../../core/json/canonical.js';
import { parseJsonInput } from '../../core/json/strict-parse.js';
import type { Steps } from '../../core/steps.js';
import { MAX_TEXT_INPUT_BYTES } from '../inputs.js';
import { EMPTY_EPISODES, scanSteps, StructureError, type ByteSource } from './result-reader.js';

/** Bytes the scanner copies at a time (it yields every 64 KB within them). */
const SCAN_CHUNK_BYTES = 1 << 20;

function bufferSource(bytes: Buffer): ByteSource {
  return { size: bytes.length, read: (buf, length, position) => bytes.copy(buf, 0, position, position + length) };
}

function* parsePiecesSteps(bytes: Buffer, source: string): Steps<EvaluationResult> {
  const { ranges, tail } = yield* scanSteps(bufferSource(bytes), SCAN_CHUNK_BYTES, MAX_TEXT_INPUT_BYTES, source);
  const head = parseResultText(EMPTY_EPISODES + tail.toString('latin1'), source);
  const count = ranges.length / 2;
  const episodes: ResultEpisode[] = [];
  for (let i = 0; i < count; i++) {
    yield { what: 'reading episodes', done: i, total: count };
    // Printable ASCII (checked by the scanner).
    const text = bytes.toString('latin1', ranges[2 * i], ranges[2 * i + 1]);
    const value = parseJsonInput(text, source);
    episodes.push(readResultEpisode(value, source, `episodes[${i}]`));
    if (canonicalJson(value) !== text) throw notCanonicalError(source);
  }
  return { ...head, episodes };
}

/**
 * The value of parseResultText(text, source), as steps; `bytes` is the
 * text's UTF-8. A text the pieces refuse is read whole once more, so that
 * its error is exactly the whole-text reader's: the first wrong field, in
 * the reader's order, or "not canonical".
 */
export function* parseResultTextSteps(text: string, bytes: Buffer, source: string): Steps<EvaluationResult> {
  try {
    return yield* parsePiecesSteps(bytes, source);
  } catch (error) {
    if (!(error instanceof StructureError || error instanceof ValidationError)) throw error;
    // Throws the whole-text reader's error; should that reader accept the
    // text (the scanner is stricter, e.g. on very long strings), its value is
    // the answer, as it was before this module.
    return parseResultText(text, source);
  }
}
