/**
 * The evaluation journal's lines (journal-sink.ts): their format, and a
 * reader that goes line by line, so a journal of several GB is never one
 * string or one buffer: each whole line (ended by LF) is decoded as UTF-8
 * and handed on; a torn last line (no LF) is left out.
 */

import { closeSync, openSync, readSync } from 'node:fs';
import { OutputError, ValidationError } from '../../core/errors.js';
import { canonicalJson, type CanonicalShape } from '../../core/json/canonical.js';
import { MAX_TEXT_INPUT_BYTES } from '../inputs.js';
import type { SinkEntry, SinkRun } from './sink.js';
import { errnoText } from '../errno.js';

export const JOURNAL_VERSION = '1';

/** The journal beside a result file. */
export function journalPath(out: string): string {
  return `${out}.journal`;
}

/** A line of the journal to write; `index` for an episode line (where it lands is noted). */
export interface JournalLine {
  readonly text: string;
  readonly index?: number;
}

function line<T>(value: T & CanonicalShape<T>): string {
  return canonicalJson(value) + '\n';
}

/** The first line: which evaluation the journal belongs to. */
export function journalHeaderLine(run: SinkRun): string {
  return line({ ember_journal: JOURNAL_VERSION, manifest_hash: run.manifestHash, model_id: run.modelId });
}

/** An entry's line: the entry as the result file holds it (scoring is not journaled). */
export function journalEntryLine(entry: SinkEntry): string {
  return entry.kind === 'episode' ? line({ episode: entry.episode }) : line({ failure: entry.failure });
}

const READ_CHUNK_BYTES = 8 << 20;

/**
 * Calls `onLine(text, k, start, end)` for each whole line k (0-based) of
 * the journal; [start, end) are its bytes in the file, without the LF.
 * Returns the byte length the whole lines cover and the bytes read. A read failure is an
 * OutputError; what `onLine` throws passes through.
 */
export function forEachJournalLine(
  journal: string,
  onLine: (text: string, k: number, start: number, end: number) => void,
  chunkBytes = READ_CHUNK_BYTES,
): { readonly covered: number; readonly size: number } {
  let fd: number;
  try {
    fd = openSync(journal, 'r');
  } catch (error) {
    throw new OutputError(`cannot read journal ${journal}: ${errnoText(error)}`);
  }
  try {
    const buf = Buffer.allocUnsafe(chunkBytes);
    // The bytes of the current line read so far (a line may span chunks).
    let partial: Buffer[] = [];
    let partialBytes = 0;
    let covered = 0;
    let k = 0;
    let offset = 0;
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buf, 0, chunkBytes, offset);
      } catch (error) {
        throw new OutputError(`cannot read journal ${journal}: ${errnoText(error)}`);
      }
      if (n === 0) break;
      let from = 0;
      for (let lf = buf.indexOf(0x0a, 0); lf !== -1 && lf < n; lf = buf.indexOf(0x0a, from)) {
        const piece = buf.subarray(from, lf);
        const bytes = partialBytes === 0 ? piece : Buffer.concat([...partial, piece]);
        partial = [];
        partialBytes = 0;
        // `covered` is still the end of the previous line: this line's start.
        onLine(bytes.toString('utf8'), k++, covered, offset + lf);
        from = lf + 1;
        covered = offset + from;
      }
      if (from < n) {
        // The buffer is reused: keep a copy of the unfinished line.
        partial.push(Buffer.from(buf.subarray(from, n)));
        partialBytes += n - from;
        if (partialBytes > MAX_TEXT_INPUT_BYTES) throw new ValidationError(`${journal}: line ${k + 1}: longer than ${MAX_TEXT_INPUT_BYTES} bytes`);
      }
      offset += n;
    }
    return { covered, size: offset };
  } finally {
    closeSync(fd);
  }
}
