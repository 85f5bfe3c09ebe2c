/**
 * Where a journal's episodes are (journal-sink.ts): for each committed
 * episode the byte range of its line, never the episode itself, so a run of
 * any size fits in memory (issue 12). The result file is written by copying
 * each episode's canonical JSON from its line, in index order.
 */

import { closeSync, openSync, readSync } from 'node:fs';
import { OutputError } from '../../core/errors.js';
import { canonicalJson, type CanonicalInput } from '../../core/json/canonical.js';
import { errnoText } from '../errno.js';

/** An episode line is `{"episode":` + the episode's canonical JSON + `}`. */
export const EPISODE_OPEN = '{"episode":';

export class JournalEpisodes {
  /** index -> [start, end) of its line, without the LF. */
  private readonly lines = new Map<number, readonly [number, number]>();
  /** Episodes whose resumed line is not exactly the canonical one (an edited journal): canonicalized when copied. */
  private readonly recanonical = new Set<number>();

  constructor(readonly journal: string) {}

  get size(): number {
    return this.lines.size;
  }

  /** Episode `index` is the line at [start, end). */
  place(index: number, start: number, end: number): void {
    this.lines.set(index, [start, end]);
  }

  /** The episode's canonical JSON read from its line (a resume): notes a line that is not the canonical one. */
  canonicalAt(fd: number, index: number): string {
    const text = this.readLine(fd, index);
    const canonical = canonicalJson((JSON.parse(text) as { episode: CanonicalInput }).episode);
    if (text !== `${EPISODE_OPEN}${canonical}}`) this.recanonical.add(index);
    return canonical;
  }

  /** Each episode's canonical JSON, in index order, read from the journal one at a time. */
  *texts(): Generator<string, void, undefined> {
    const order = [...this.lines.keys()].sort((a, b) => a - b);
    const fd = this.open();
    try {
      for (const index of order) {
        const text = this.readLine(fd, index);
        yield this.recanonical.has(index) ? canonicalJson((JSON.parse(text) as { episode: CanonicalInput }).episode) : text.slice(EPISODE_OPEN.length, -1);
      }
    } finally {
      closeSync(fd);
    }
  }

  /** '{"episodes":[', the episodes in index order joined by ',', ']' (the layout of resultPieces). */
  *pieces(): Generator<string, void, undefined> {
    yield '{"episodes":[';
    let first = true;
    for (const text of this.texts()) {
      yield (first ? '' : ',') + text;
      first = false;
    }
    yield ']';
  }

  open(): number {
    try {
      return openSync(this.journal, 'r');
    } catch (error) {
      throw new OutputError(`cannot read journal ${this.journal}: ${errnoText(error)}`);
    }
  }

  private readLine(fd: number, index: number): string {
    const [start, end] = this.lines.get(index)!;
    const bytes = Buffer.allocUnsafe(end - start);
    if (readSync(fd, bytes, 0, bytes.length, start) !== bytes.length) throw new OutputError(`journal ${this.journal} changed while it was read`);
    return bytes.toString('utf8');
  }
}
