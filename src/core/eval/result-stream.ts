/**
 * The result file text in pieces (issue 12): the same bytes as
 * resultText(result), produced one episode at a time, so a result of several
 * GB is written and hashed without ever being one string (a JavaScript
 * string stops at about 512 MB: RangeError: Invalid string length).
 *
 * The canonical JSON of a result lists its keys in code-point order:
 * episodes, evaluation_result_version, failures, manifest, manifest_hash,
 * model_id. Each piece below is the canonical JSON of one value, joined by
 * the same punctuation canonicalJson writes, so concatenating the pieces is
 * exactly canonicalJson(result) + '\n'.
 */

import { bytesToHex } from '@noble/hashes/utils.js';
import { createSha256 } from '../hash.js';
import { canonicalJson, canonicalString } from '../json/canonical.js';
import type { EvaluationResult } from './result.js';

/** Failures are small (a message of at most 2000 characters each); they are grouped into pieces of about this many characters. */
const FAILURE_PIECE_CHARS = 1 << 20;

/**
 * The result file text (canonical JSON plus one LF) as a sequence of
 * strings: a header, one piece per episode, the failures in pieces, the
 * trailer. Their concatenation equals resultText(result).
 */
export function* resultPieces(result: EvaluationResult): Generator<string, void, undefined> {
  const { episodes, failures } = result;
  if (episodes.length === 0) {
    yield '{"episodes":[]';
  } else {
    yield '{"episodes":[';
    for (let i = 0; i < episodes.length; i++) yield (i === 0 ? '' : ',') + canonicalJson(episodes[i]!);
    yield ']';
  }
  let piece = `,"evaluation_result_version":${canonicalString(result.evaluation_result_version)},"failures":[`;
  for (let i = 0; i < failures.length; i++) {
    piece += (i === 0 ? '' : ',') + canonicalJson(failures[i]!);
    if (piece.length >= FAILURE_PIECE_CHARS) {
      yield piece;
      piece = '';
    }
  }
  yield piece + `],"manifest":` + canonicalJson(result.manifest);
  yield `,"manifest_hash":${canonicalString(result.manifest_hash)},"model_id":${canonicalString(result.model_id)}}\n`;
}

/**
 * The digest of a text given in pieces, computed as they pass: SHA-256 of
 * the whole text without its final LF (fileDigest). The last LF is held back
 * until the next piece shows it was not the final one.
 */
export class StreamingFileDigest {
  private readonly hash = createSha256();
  private heldLf = false;

  /** A piece of the text, or of its UTF-8 bytes (the two may not be mixed within one character). */
  update(piece: string | Uint8Array): void {
    if (piece.length === 0) return;
    if (this.heldLf) this.hash.update('\n');
    if (typeof piece === 'string') {
      this.heldLf = piece.endsWith('\n');
      this.hash.update(this.heldLf ? piece.slice(0, -1) : piece);
    } else {
      this.heldLf = piece[piece.length - 1] === 0x0a;
      this.hash.update(this.heldLf ? piece.subarray(0, piece.length - 1) : piece);
    }
  }

  /** The digest of everything given so far (once). */
  hex(): string {
    return bytesToHex(this.hash.digest());
  }
}

/** resultDigest(resultText(result)), without building the text. */
export function streamedResultDigest(result: EvaluationResult): string {
  const digest = new StreamingFileDigest();
  for (const piece of resultPieces(result)) digest.update(piece);
  return digest.hex();
}
