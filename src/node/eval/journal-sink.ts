/**
 * The result file of an evaluation, kept as an append-only journal while it
 * runs (issue 12: the former whole-file checkpoint rewrote the result after
 * every episode, quadratic in bytes). A ResultSink (sink.ts).
 *
 * While the run goes, `OUT.journal` holds one line per entry, each appended
 * and fsynced before the runner goes on:
 *
 *   {"ember_journal":"1","manifest_hash":"...","model_id":"..."}   header
 *   {"episode":{...ResultEpisode...}}                               or
 *   {"failure":{"index":3,"kind":"timeout","message":"..."}}
 *
 * (canonical JSON, one LF each), so the bytes written in all are O(result).
 * The journal is created by the first commit, so a run that fails before
 * its first episode (the agent cannot be opened) writes nothing.
 *
 * A crash, kill -9 or Ctrl+C leaves the journal up to its last whole line;
 * resume drops a torn last line, authenticates every entry (replayed, like
 * a result file) and continues. `finish` writes OUT once, with exactly the
 * bytes of the result (resultText), then removes the
 * journal; OUT is written piece by piece (result-stream.ts), so a result
 * of any size fits. A run that stops on an error (an agent failure, exit 4) does the
 * same with what it committed, so OUT is then the partial result.
 *
 * Resume also continues a result file (OUT without a journal, e.g. the
 * partial result of a run that stopped on an error): its entries start the
 * journal, and OUT is replaced only if it is still the file that was read.
 */

import { closeSync, constants, readFileSync } from 'node:fs';
import { lstat, open, rename, rm, truncate, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { OutputError, ValidationError, isEmberError } from '../../core/errors.js';
import { resultPieces, streamedResultDigest, StreamingFileDigest } from '../../core/eval/result-stream.js';
import { buildResult, parseResultText, type EvaluationResult, type FailureDeclaration, type ResultEpisode } from '../../core/eval/result.js';
import { checkOutputPath, writeOutputFile, type PieceSource } from '../files.js';
import { processScope, type ResourceScope } from '../lifetime.js';
import { syncDirectory } from '../output-directory.js';
import { EPISODE_OPEN, JournalEpisodes } from './journal-episodes.js';
import { JOURNAL_VERSION, forEachJournalLine, journalEntryLine, journalHeaderLine, journalPath, type JournalLine } from './journal-lines.js';
import { authenticateEntryTexts, authenticateResultFile, resultFileEpisodeTexts } from './result-reader.js';
import type { ResultSink, ResumeState, SinkEntry, SinkFinal, SinkRun, SinkState } from './sink.js';
import { errnoText } from '../errno.js';

export interface JournalSinkOptions {
  /** The result file; its directory must exist. The journal is beside it (journalPath). */
  readonly path: string;
  /** Paths the output must never be (the suite directory, the manifest file, the agent module). */
  readonly inputs: readonly string[];
  /** Continue an existing journal or result file (same manifest and model); without it either is a conflict. */
  readonly resume: boolean;
  /**
   * What to do about an existing file when not resuming, in the caller's
   * words (the CLI: "use --resume to continue it, or choose another --out").
   */
  readonly existsHint?: string;
  /** Owns the journal's open handle and temp files; default processScope. */
  readonly scope?: ResourceScope;
}

interface Identity {
  readonly dev: number;
  readonly ino: number;
}

async function identityOf(path: string): Promise<Identity | undefined> {
  try {
    const s = await lstat(path);
    return { dev: s.dev, ino: s.ino };
  } catch {
    return undefined;
  }
}

export class JournalCheckpointSink implements ResultSink {
  private handle: FileHandle | undefined;
  private releaseHandle: (() => void) | undefined;
  /** OUT as it was read when resuming a result file (replaced at finish only if unchanged). */
  private resumedOut: Identity | undefined;
  /** Whether the journal exists (resumed, or created by a commit). */
  private journaled = false;
  /** Until the journal exists: its header and the entries it starts with. */
  private pendingStart: (() => Iterable<JournalLine>) | undefined;
  private readonly scope: ResourceScope;
  private run: SinkRun | undefined;
  /** Where each committed episode's line is (never the episode: a run of any size fits in memory). */
  private readonly episodes: JournalEpisodes;
  /** Declared failures (small: a clipped message each). */
  private readonly failures: FailureDeclaration[] = [];
  /** The journal's length: where the next line goes. */
  private journalBytes = 0;
  /** resultDigest of the OUT this sink wrote, or of the result file it resumed. */
  private outDigest: string | undefined;
  private published = false;

  constructor(private readonly opts: JournalSinkOptions) {
    this.scope = opts.scope ?? processScope;
    this.episodes = new JournalEpisodes(journalPath(opts.path));
  }

  get journal(): string {
    return journalPath(this.opts.path);
  }

  async resumeState(run: SinkRun): Promise<ResumeState> {
    const { path, inputs, resume } = this.opts;
    const journal = this.journal;
    this.run = run;
    const outExists = (await identityOf(path)) !== undefined;
    const journalExists = (await identityOf(journal)) !== undefined;
    await checkOutputPath(path, { force: true, inputs });
    await checkOutputPath(journal, { force: true, inputs });
    if ((outExists || journalExists) && !resume) {
      const existing = journalExists ? journal : path;
      throw new OutputError(`output file exists (${this.opts.existsHint ?? 'resume it to continue, or choose another output'}): ${existing}`);
    }
    if (journalExists) return this.resumeJournal(run);
    if (outExists) return this.resumeResultFile(run);
    const header = journalHeaderLine(run);
    this.pendingStart = () => [{ text: header }];
    return { episodes: [], failures: [] };
  }

  /**
   * Continues a journal: a torn last line is cut off, every entry is
   * authenticated. Read twice, line by line: which episodes it holds and
   * where, then each one in index order (authenticated and let go).
   */
  private async resumeJournal(run: SinkRun): Promise<ResumeState> {
    const journal = this.journal;
    const found: { readonly index: number; readonly start: number; readonly end: number }[] = [];
    const failures: FailureDeclaration[] = [];
    // Line by line (journal-lines.ts): a journal of any size is never one string.
    const { covered: length, size } = forEachJournalLine(journal, (text, k, start, end) => {
      if (k === 0) {
        const header = this.parseLine(text, 0) as { ember_journal?: unknown; manifest_hash?: unknown; model_id?: unknown };
        if (header.ember_journal !== JOURNAL_VERSION || typeof header.manifest_hash !== 'string' || typeof header.model_id !== 'string') {
          throw new ValidationError(`${journal}: line 1: not an evaluation journal header (version ${JOURNAL_VERSION})`);
        }
        this.checkIdentity(header.manifest_hash, header.model_id, run);
        return;
      }
      const value = this.parseLine(text, k) as { episode?: ResultEpisode; failure?: FailureDeclaration };
      const keys = Object.keys(value);
      if (keys.length === 1 && value.episode !== undefined) found.push({ index: value.episode.index, start, end });
      else if (keys.length === 1 && value.failure !== undefined) failures.push(value.failure);
      else throw new ValidationError(`${journal}: line ${k + 1}: expected {"episode": ...} or {"failure": ...}`);
    });
    if (length === 0) this.parseLine(undefined, 0);
    const seen = new Set<number>();
    for (const { index } of [...found, ...failures]) {
      if (seen.has(index)) throw new ValidationError(`${journal}: episode ${index} appears twice`);
      seen.add(index);
    }
    // The order buildResult gives (a stable sort by index), so the checks and messages are those of a result.
    found.sort((a, b) => a.index - b.index);
    for (const { index, start, end } of found) this.episodes.place(index, start, end);
    // Every entry authenticated as a result is (strict fields, replay, metrics), one episode at a time.
    const head = buildResult(run.manifest, run.manifestHash, run.modelId, [], failures);
    const fd = this.episodes.open();
    try {
      const episode = (i: number): string => this.episodes.canonicalAt(fd, found[i]!.index);
      this.failures.push(...authenticateEntryTexts(head, found.length, episode, journal, run.suite));
    } finally {
      closeSync(fd);
    }
    if (length < size) await truncate(journal, length);
    this.journalBytes = length;
    // A crash after OUT was written but before the journal was removed: the journal is the whole story.
    this.resumedOut = await identityOf(this.opts.path);
    this.journaled = true;
    return { episodes: [], failures: this.failures, storedEpisodes: found.map((e) => e.index) };
  }

  /**
   * Continues a result file (no journal): it must authenticate and be this
   * run's. Its episodes start the journal at the first commit, read from the
   * file again then (never all in memory).
   */
  private async resumeResultFile(run: SinkRun): Promise<ResumeState> {
    const { path } = this.opts;
    this.resumedOut = await identityOf(path);
    const indices: number[] = [];
    // Streamed (result-reader.ts): a result of any size is read one episode at a time.
    const existing = authenticateResultFile(path, path, run.suite, { onEpisode: (e) => indices.push(e.index) });
    this.checkIdentity(existing.manifestHash, existing.modelId, run);
    const { failures, digest } = existing;
    this.failures.push(...failures);
    this.outDigest = digest;
    this.pendingStart = function* () {
      yield { text: journalHeaderLine(run) };
      let i = 0;
      // The file's episode texts are canonical (authenticated): the journal line is the one a commit writes.
      for (const episode of resultFileEpisodeTexts(path, digest)) yield { text: `${EPISODE_OPEN}${episode}}\n`, index: indices[i++]! };
      for (const failure of failures) yield { text: journalEntryLine({ kind: 'failure', failure }) };
    };
    return { episodes: [], failures, storedEpisodes: indices };
  }

  private checkIdentity(hash: string, modelId: string, run: SinkRun): void {
    const { path } = this.opts;
    if (hash !== run.manifestHash) {
      throw new OutputError(`${path}: cannot resume: it is a result of manifest ${hash}, not of the given manifest ${run.manifestHash}`);
    }
    if (modelId !== run.modelId) {
      throw new OutputError(`${path}: cannot resume: it is a result of model ${JSON.stringify(modelId)}, not ${JSON.stringify(run.modelId)}`);
    }
  }

  private parseLine(text: string | undefined, k: number): unknown {
    if (text === undefined) throw new ValidationError(`${this.journal}: empty journal (no header line)`);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ValidationError(`${this.journal}: line ${k + 1}: not valid JSON`);
    }
  }

  /**
   * Creates the journal in place (O_CREAT | O_EXCL: never over an existing
   * file) and writes its first lines, fsynced. No temporary file and link as
   * for other outputs: a journal cut short by a crash is exactly what resume
   * reads (a torn last line is dropped), and a temporary name could be left
   * behind by kill -9 between link and unlink.
   */
  private async createJournal(pieces: PieceSource['pieces']): Promise<void> {
    await checkOutputPath(this.journal, { force: false, inputs: this.opts.inputs });
    let handle: FileHandle;
    try {
      handle = await open(this.journal, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o666);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'EEXIST') throw new OutputError(`output file exists (use --resume to continue it, or choose another --out): ${this.journal}`);
      throw new OutputError(`cannot create journal ${this.journal}: ${errnoText(error)}`);
    }
    try {
      // Gathered into writes of a few MB: a journal started from a partial result can hold many lines.
      let batch: string[] = [];
      let size = 0;
      for (const piece of pieces()) {
        batch.push(piece);
        size += piece.length;
        if (size >= 4 << 20) {
          await handle.writeFile(batch.join(''), 'utf8');
          batch = [];
          size = 0;
        }
      }
      if (size > 0) await handle.writeFile(batch.join(''), 'utf8');
      await handle.sync();
    } catch (error) {
      await handle.close().catch(() => undefined);
      await rm(this.journal, { force: true }).catch(() => undefined);
      throw new OutputError(`cannot write journal ${this.journal}: ${errnoText(error)}`);
    }
    await handle.close();
    await syncDirectory(dirname(resolve(this.journal)));
  }

  private async openForAppend(): Promise<void> {
    try {
      this.handle = await open(this.journal, constants.O_WRONLY | constants.O_APPEND);
    } catch (error) {
      throw new OutputError(`cannot open journal ${this.journal}: ${errnoText(error)}`);
    }
    const handle = this.handle;
    // The descriptor is closed with the run's scope; the journal itself stays (it is what resume reads).
    this.releaseHandle = this.scope.add({ dispose: () => handle.close().catch(() => undefined), onExit: () => undefined });
  }

  async commit(entry: SinkEntry): Promise<void> {
    const entryLine: JournalLine = entry.kind === 'episode' ? { text: journalEntryLine(entry), index: entry.episode.index } : { text: journalEntryLine(entry) };
    if (!this.journaled) {
      if (this.pendingStart === undefined) throw new Error('JournalCheckpointSink: commit before resumeState');
      // A new journal, under the output rules: never over an existing file, fsynced.
      const start = this.pendingStart;
      const placed = new Map<number, readonly [number, number]>();
      let bytes = 0;
      const place = (l: JournalLine): string => {
        const n = Buffer.byteLength(l.text, 'utf8');
        if (l.index !== undefined) placed.set(l.index, [bytes, bytes + n - 1]);
        bytes += n;
        return l.text;
      };
      const pieces = function* (): Generator<string, void, undefined> {
        placed.clear();
        bytes = 0;
        for (const l of start()) yield place(l);
        yield place(entryLine);
      };
      await this.createJournal(pieces);
      for (const [index, [start, end]] of placed) this.episodes.place(index, start, end);
      this.journalBytes = bytes;
      this.pendingStart = undefined;
      this.journaled = true;
    } else {
      if (this.handle === undefined) await this.openForAppend();
      try {
        await this.handle!.appendFile(entryLine.text, 'utf8');
        await this.handle!.sync();
      } catch (error) {
        throw new OutputError(`cannot append to journal ${this.journal}: ${errnoText(error)}`);
      }
      const n = Buffer.byteLength(entryLine.text, 'utf8');
      if (entryLine.index !== undefined) this.episodes.place(entryLine.index, this.journalBytes, this.journalBytes + n - 1);
      this.journalBytes += n;
    }
    if (entry.kind === 'failure') this.failures.push(entry.failure);
  }

  /** Writes OUT once (the bytes of resultText), then removes the journal. */
  async finish(_final: SinkFinal): Promise<void> {
    await this.close();
    if (this.journaled) await this.publish();
  }

  /**
   * After an error: OUT becomes the partial result (what a resume
   * continues). After an interruption (SIGINT,
   * SIGTERM) the fsynced journal is left as it is: it is what a resume
   * reads, and writing a result of any size could outlast a container's
   * grace period.
   */
  async stopped(error: unknown, _state: SinkState): Promise<void> {
    await this.close();
    if (this.journaled && !(isEmberError(error) && error.kind === 'interrupted')) await this.publish();
  }

  /** The whole result (O(result): only when asked): from the journal while it runs, then from OUT. */
  storedResult(): EvaluationResult {
    const run = this.requireRun();
    if (this.journaled && !this.published) {
      const episodes = Array.from(this.episodes.texts(), (text) => JSON.parse(text) as ResultEpisode);
      return buildResult(run.manifest, run.manifestHash, run.modelId, episodes, this.failures);
    }
    if (this.outDigest !== undefined) return parseResultText(readFileSync(this.opts.path, 'utf8'), this.opts.path);
    return buildResult(run.manifest, run.manifestHash, run.modelId, [], this.failures);
  }

  /** resultDigest of the result: of the OUT written (or resumed and left as it was), computed as it was written. */
  storedDigest(): string {
    if (this.outDigest !== undefined && (this.published || !this.journaled)) return this.outDigest;
    return streamedResultDigest(this.storedResult());
  }

  /**
   * Writes OUT piece by piece, the layout of resultPieces (the bytes of
   * resultText, never one string, so any size fits): each episode's
   * canonical JSON is copied from its journal line, in index order.
   */
  private async publish(): Promise<void> {
    const { path, inputs } = this.opts;
    const run = this.requireRun();
    const head = buildResult(run.manifest, run.manifestHash, run.modelId, [], this.failures);
    const { episodes } = this;
    let digest = new StreamingFileDigest();
    const text: PieceSource = {
      pieces: function* () {
        digest = new StreamingFileDigest();
        const rest = resultPieces(head);
        const opening = rest.next(); // '{"episodes":[]': the opening of a result without episodes
        for (const piece of episodes.size === 0 ? [opening.value ?? ''] : episodes.pieces()) {
          digest.update(piece);
          yield piece;
        }
        for (const piece of rest) {
          digest.update(piece);
          yield piece;
        }
      },
    };
    if (this.resumedOut === undefined && (await identityOf(path)) === undefined) {
      await writeOutputFile(path, text, { force: false, inputs });
    } else {
      await this.replaceResumed(text);
    }
    this.outDigest = digest.hex();
    this.published = true;
    await rm(this.journal, { force: true });
  }

  private requireRun(): SinkRun {
    if (this.run === undefined) throw new Error('JournalCheckpointSink: used before resumeState');
    return this.run;
  }

  private async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    this.releaseHandle?.();
    this.releaseHandle = undefined;
    await handle?.close().catch(() => undefined);
  }

  /** Replaces a resumed OUT atomically, only if it is still the file that was read. */
  private async replaceResumed(text: PieceSource): Promise<void> {
    const { path } = this.opts;
    const now = await identityOf(path);
    const was = this.resumedOut;
    if (now === undefined || was === undefined || now.dev !== was.dev || now.ino !== was.ino) {
      throw new OutputError(`output ${path} was created, removed or replaced by another process; not overwriting it`);
    }
    const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeOutputFile(temp, text, { force: false, inputs: this.opts.inputs });
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      throw error instanceof OutputError ? error : new OutputError(`cannot write ${path}: ${errnoText(error)}`);
    }
  }
}
