/**
 * The result file of an evaluation, kept as an append-only journal while it
 * runs (issue 12: the whole-file checkpoint rewrites the result after every
 * episode, quadratic in bytes). A ResultSink (sink.ts).
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
 * bytes of the whole-file checkpoint (resultText), then removes the
 * journal; OUT is written piece by piece (result-stream.ts), so a result
 * of any size fits. A run that stops on an error (an agent failure, exit 4) does the
 * same with what it committed, so OUT is then the partial result, as with
 * the whole-file checkpoint.
 *
 * Resume also continues a result file (OUT without a journal, e.g. written
 * by FileCheckpointSink): its entries start the journal, and OUT is
 * replaced only if it is still the file that was read.
 */

import { constants } from 'node:fs';
import { lstat, open, rename, rm, truncate, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { OutputError, ValidationError } from '../../core/errors.js';
import { resultPieces } from '../../core/eval/result-stream.js';
import { buildResult, type EvaluationResult, type FailureDeclaration, type ResultEpisode } from '../../core/eval/result.js';
import { canonicalJson, type CanonicalInput } from '../../core/json/canonical.js';
import { checkOutputPath, writeOutputFile, type PieceSource } from '../files.js';
import { processScope, type ResourceScope } from '../lifetime.js';
import type { FileCheckpointOptions } from './file-sink.js';
import { forEachJournalLine } from './journal-lines.js';
import { authenticateEntries, authenticateResultFile, resultEpisodeOf } from './result-reader.js';
import type { ResultSink, ResumeState, SinkEntry, SinkFinal, SinkRun, SinkState } from './sink.js';

export const JOURNAL_VERSION = '1';

/** The journal beside a result file. */
export function journalPath(out: string): string {
  return `${out}.journal`;
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

function line(value: CanonicalInput): string {
  return canonicalJson(value) + '\n';
}

function headerLine(run: SinkRun): string {
  return line({ ember_journal: JOURNAL_VERSION, manifest_hash: run.manifestHash, model_id: run.modelId });
}

/** A journal line's value: the entry as the result file holds it (scoring is not journaled). */
function entryValue(entry: SinkEntry): CanonicalInput {
  // ResultEpisode and FailureDeclaration are JSON data (the result file is their canonical JSON).
  return (entry.kind === 'episode' ? { episode: entry.episode } : { failure: entry.failure }) as unknown as CanonicalInput;
}

function errnoText(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}

export class JournalCheckpointSink implements ResultSink {
  private handle: FileHandle | undefined;
  private releaseHandle: (() => void) | undefined;
  /** OUT as it was read when resuming a result file (replaced at finish only if unchanged). */
  private resumedOut: Identity | undefined;
  /** Whether the journal exists (resumed, or created by a commit). */
  private journaled = false;
  /** Until the journal exists: its header and the entries it starts with. */
  private pendingStart: (() => Iterable<string>) | undefined;
  private readonly scope: ResourceScope;

  constructor(private readonly opts: FileCheckpointOptions) {
    this.scope = opts.scope ?? processScope;
  }

  get journal(): string {
    return journalPath(this.opts.path);
  }

  async resumeState(run: SinkRun): Promise<ResumeState> {
    const { path, inputs, resume } = this.opts;
    const journal = this.journal;
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
    const header = headerLine(run);
    this.pendingStart = () => [header];
    return { episodes: [], failures: [] };
  }

  /** Continues a journal: a torn last line is cut off, every entry is authenticated. */
  private async resumeJournal(run: SinkRun): Promise<ResumeState> {
    const journal = this.journal;
    const episodes: ResultEpisode[] = [];
    const failures: FailureDeclaration[] = [];
    // Line by line (journal-lines.ts): a journal of any size is never one string.
    const { covered: length, size } = forEachJournalLine(journal, (text, k) => {
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
      if (keys.length === 1 && value.episode !== undefined) episodes.push(value.episode);
      else if (keys.length === 1 && value.failure !== undefined) failures.push(value.failure);
      else throw new ValidationError(`${journal}: line ${k + 1}: expected {"episode": ...} or {"failure": ...}`);
    });
    if (length === 0) this.parseLine(undefined, 0);
    const seen = new Set<number>();
    for (const { index } of [...episodes, ...failures]) {
      if (seen.has(index)) throw new ValidationError(`${journal}: episode ${index} appears twice`);
      seen.add(index);
    }
    // Every entry authenticated as a result is (strict fields, replay, metrics), one episode at a time.
    const auth = authenticateEntries(buildResult(run.manifest, run.manifestHash, run.modelId, episodes, failures), journal, run.suite);
    if (length < size) await truncate(journal, length);
    // A crash after OUT was written but before the journal was removed: the journal is the whole story.
    this.resumedOut = await identityOf(this.opts.path);
    this.journaled = true;
    return auth;
  }

  /** Continues a result file (no journal): it must authenticate and be this run's. */
  private async resumeResultFile(run: SinkRun): Promise<ResumeState> {
    const { path } = this.opts;
    this.resumedOut = await identityOf(path);
    const episodes: ResultEpisode[] = [];
    // Streamed (result-reader.ts): a result of any size is read one episode at a time.
    const existing = authenticateResultFile(path, path, run.suite, { onEpisode: (e) => episodes.push(resultEpisodeOf(e)) });
    this.checkIdentity(existing.manifestHash, existing.modelId, run);
    const { failures } = existing;
    this.pendingStart = function* () {
      yield headerLine(run);
      for (const episode of episodes) yield line(entryValue({ kind: 'episode', episode }));
      for (const failure of failures) yield line(entryValue({ kind: 'failure', failure }));
    };
    return { episodes, failures };
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
    const text = line(entryValue(entry));
    if (!this.journaled) {
      if (this.pendingStart === undefined) throw new Error('JournalCheckpointSink: commit before resumeState');
      // A new journal, under the output rules: never over an existing file, fsynced.
      const start = this.pendingStart;
      await writeOutputFile(this.journal, { pieces: () => [...start(), text] }, { force: false, inputs: this.opts.inputs });
      this.pendingStart = undefined;
      this.journaled = true;
      return;
    }
    if (this.handle === undefined) await this.openForAppend();
    try {
      await this.handle!.appendFile(text, 'utf8');
      await this.handle!.sync();
    } catch (error) {
      throw new OutputError(`cannot append to journal ${this.journal}: ${errnoText(error)}`);
    }
  }

  /** Writes OUT once (the same bytes as the whole-file checkpoint), then removes the journal. */
  async finish(final: SinkFinal): Promise<void> {
    await this.close();
    if (this.journaled) await this.publish(final.result());
  }

  /** After an error: OUT becomes the partial result (what a resume continues), as with the whole-file checkpoint. */
  async stopped(_error: unknown, state: SinkState): Promise<void> {
    await this.close();
    if (this.journaled) await this.publish(state.result());
  }

  /** Writes OUT piece by piece (resultPieces: the bytes of resultText, never one string, so any size fits). */
  private async publish(result: EvaluationResult): Promise<void> {
    const { path, inputs } = this.opts;
    const text: PieceSource = { pieces: () => resultPieces(result) };
    if (this.resumedOut === undefined && (await identityOf(path)) === undefined) {
      await writeOutputFile(path, text, { force: false, inputs });
    } else {
      await this.replaceResumed(text);
    }
    await rm(this.journal, { force: true });
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
