/**
 * Trial housekeeping in the archive (migration 6, docs/archive.md "Trial
 * housekeeping"): deleting a trial with the artifacts only it used, a
 * trial's label, notes and tags, the wall time of its runs and its run log.
 *
 * None of this touches an artifact that stays: a label, a note or a tag is
 * a column or a row beside the trial, never in a result, a score report or
 * a digest, so every export stays byte-identical.
 */

import { EmberError } from '../../core/errors.js';
import type { TrialLogEntry } from '../../shared/api/contract.js';
import { connectionOf, statement, type Archive } from './archive.js';

/** Every column that names an artifact (the schema's REFERENCES artifacts), as one list of digests. */
const REFERENCED_DIGESTS = `
  SELECT digest FROM suite_files UNION ALL SELECT digest FROM manifests UNION ALL SELECT digest FROM pack_files
  UNION ALL SELECT result_digest FROM trials WHERE result_digest IS NOT NULL
  UNION ALL SELECT report_digest FROM trials WHERE report_digest IS NOT NULL
  UNION ALL SELECT summary_digest FROM trials WHERE summary_digest IS NOT NULL
  UNION ALL SELECT operational_digest FROM trials WHERE operational_digest IS NOT NULL
  UNION ALL SELECT record_digest FROM episodes WHERE record_digest IS NOT NULL
  UNION ALL SELECT metrics_digest FROM episodes WHERE metrics_digest IS NOT NULL
  UNION ALL SELECT digest FROM trial_signatures`;

/** What a delete removed. */
export interface DeletedTrial {
  readonly kind: 'deleted';
  readonly trialId: number;
  readonly modelId: string;
  readonly episodes: number;
  /** Artifacts only this trial used, now gone, and their uncompressed bytes. */
  readonly artifactsDeleted: number;
  readonly bytesDeleted: number;
  /** Artifacts of this trial that something else still uses (another trial with the same bytes), kept. */
  readonly artifactsKept: number;
}

/** A delete: done, or why not (callers word the refusal for their users). */
export type DeleteOutcome = DeletedTrial | { readonly kind: 'missing'; readonly deletedBefore: boolean } | { readonly kind: 'running'; readonly trialId: number };

/**
 * Deletes a trial, its episodes, families, signatures, tags and log, and the
 * artifacts that it alone used; artifacts still named by anything else
 * (another trial with byte-identical records, a suite, a manifest, a pack)
 * stay. A running trial is refused. Run inside the caller's write
 * transaction (Archive.write): all of it, or nothing. Its number is kept in
 * deleted_trials and never given to another trial.
 */
export function deleteTrial(archive: Archive, trialId: number, deletedAt: string): DeleteOutcome {
  const row = statement<{ status: string; model_id: string; result_digest: string | null; report_digest: string | null; summary_digest: string | null; operational_digest: string | null }>(
    archive,
    'SELECT status, model_id, result_digest, report_digest, summary_digest, operational_digest FROM trials WHERE trial_id = ?',
  ).get(trialId);
  if (row === undefined) return { kind: 'missing', deletedBefore: statement(archive, 'SELECT 1 FROM deleted_trials WHERE trial_id = ?').get(trialId) !== undefined };
  if (row.status === 'running') return { kind: 'running', trialId };
  const candidates = new Set<string>();
  for (const d of [row.result_digest, row.report_digest, row.summary_digest, row.operational_digest]) if (d !== null) candidates.add(d);
  const episodes = statement<{ record_digest: string | null; metrics_digest: string | null }>(archive, 'SELECT record_digest, metrics_digest FROM episodes WHERE trial_id = ?').all(trialId);
  for (const e of episodes) {
    if (e.record_digest !== null) candidates.add(e.record_digest);
    if (e.metrics_digest !== null) candidates.add(e.metrics_digest);
  }
  const signature = statement<{ digest: string }>(archive, 'SELECT digest FROM trial_signatures WHERE trial_id = ?').get(trialId);
  if (signature !== undefined) candidates.add(signature.digest);

  statement(archive, 'DELETE FROM trials WHERE trial_id = ?').run(trialId);
  statement(archive, 'INSERT OR REPLACE INTO deleted_trials (trial_id, deleted) VALUES (?, ?)').run(trialId, deletedAt);
  // One scan of every reference column (an SQL NOT IN over the union was re-run per candidate: a minute on a 16 MB
  // archive), then each unused candidate by its primary key. Kinds no table names (generation records) are never
  // deleted here, even were their bytes a trial's.
  const referenced = new Set(statement<{ digest: string }>(archive, REFERENCED_DIGESTS).all().map((r) => r.digest));
  const artifact = statement<{ kind: string; size: number }>(archive, 'SELECT kind, size FROM artifacts WHERE digest = ?');
  const remove = statement(archive, 'DELETE FROM artifacts WHERE digest = ?');
  let deleted = 0;
  let bytes = 0;
  for (const digest of candidates) {
    if (referenced.has(digest)) continue;
    const a = artifact.get(digest);
    if (a === undefined || a.kind === 'generation-record' || a.kind === 'statistics') continue;
    remove.run(digest);
    deleted += 1;
    bytes += a.size;
  }
  const gone = { bytes };
  return { kind: 'deleted', trialId, modelId: row.model_id, episodes: episodes.length, artifactsDeleted: deleted, bytesDeleted: gone.bytes, artifactsKept: candidates.size - deleted };
}

/** The number the next trial gets: past every trial there is and every one deleted, so a number never means two trials. */
export function nextTrialId(archive: Archive): number {
  return statement<{ n: number }>(archive, 'SELECT MAX((SELECT COALESCE(MAX(trial_id), 0) FROM trials), (SELECT COALESCE(MAX(trial_id), 0) FROM deleted_trials)) + 1 AS n').get()!.n;
}

/** The file's size and its free pages, in bytes (what a vacuum can give back). */
export function archiveSpace(archive: Archive): { readonly fileBytes: number; readonly freeBytes: number } {
  const db = connectionOf(archive);
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  return { fileBytes: pages * pageSize, freeBytes: free * pageSize };
}

/**
 * Gives the free pages back to the file system: VACUUM rewrites the file
 * without them (docs/archive.md says why a full VACUUM and not
 * auto_vacuum), then a checkpoint truncates the log. Outside any
 * transaction; a writer only. Returns the file's size before and after.
 */
export function reclaimSpace(archive: Archive): { readonly before: number; readonly after: number } {
  const db = connectionOf(archive);
  const before = archiveSpace(archive).fileBytes;
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
  return { before, after: archiveSpace(archive).fileBytes };
}

// ---------------------------------------------------------------------------
// Label, notes, tags

export const LABEL_MAX = 200;
export const NOTES_MAX = 20_000;
export const TAGS_MAX = 20;
/** A tag: letters, digits and . _ : - (no spaces, so a list of tags reads unambiguously), 1 to 40 characters. */
export const TAG_PATTERN = /^[A-Za-z0-9._:-]{1,40}$/;

export interface TrialAnnotations {
  readonly label: string;
  readonly notes: string;
  readonly tags: readonly string[];
}

/** Checks annotations (ValidationError naming the field and what to do); returns them with tags sorted and unique. */
export function checkedAnnotations(a: TrialAnnotations): TrialAnnotations {
  if ([...a.label].length > LABEL_MAX) throw new EmberError('validation', `label: at most ${LABEL_MAX} characters (this one has ${[...a.label].length}); shorten it`, { field: 'label' });
  if (/[\n\r]/.test(a.label)) throw new EmberError('validation', 'label: one line; put longer text in the notes', { field: 'label' });
  if ([...a.notes].length > NOTES_MAX) throw new EmberError('validation', `notes: at most ${NOTES_MAX} characters (these have ${[...a.notes].length}); shorten them`, { field: 'notes' });
  const tags = [...new Set(a.tags)].sort();
  for (const tag of tags) {
    if (!TAG_PATTERN.test(tag)) throw new EmberError('validation', `tags: ${JSON.stringify(tag)} is not a tag: use 1 to 40 letters, digits or . _ : - (no spaces)`, { field: 'tags' });
  }
  if (tags.length > TAGS_MAX) throw new EmberError('validation', `tags: at most ${TAGS_MAX} tags per trial (${tags.length} given); remove some`, { field: 'tags' });
  return { label: a.label, notes: a.notes, tags };
}

/** Replaces a trial's label, notes and tags (inside the caller's write); false when there is no such trial. */
export function setTrialAnnotations(archive: Archive, trialId: number, annotations: TrialAnnotations): boolean {
  const a = checkedAnnotations(annotations);
  if (statement(archive, 'UPDATE trials SET label = ?, notes = ? WHERE trial_id = ?').run(a.label, a.notes, trialId).changes !== 1) return false;
  statement(archive, 'DELETE FROM trial_tags WHERE trial_id = ?').run(trialId);
  const insert = statement(archive, 'INSERT INTO trial_tags (tag, trial_id) VALUES (?, ?)');
  for (const tag of a.tags) insert.run(tag, trialId);
  return true;
}

export function trialAnnotations(archive: Archive, trialId: number): TrialAnnotations | undefined {
  const row = statement<{ label: string; notes: string }>(archive, 'SELECT label, notes FROM trials WHERE trial_id = ?').get(trialId);
  if (row === undefined) return undefined;
  return { label: row.label, notes: row.notes, tags: trialTags(archive, trialId) };
}

export function trialTags(archive: Archive, trialId: number): string[] {
  return statement<{ tag: string }>(archive, 'SELECT tag FROM trial_tags WHERE trial_id = ? ORDER BY tag').all(trialId).map((r) => r.tag);
}

/** Every tag in use with how many trials carry it, in name order (the Trials table's tag filter). */
export function allTags(archive: Archive): { readonly tag: string; readonly trials: number }[] {
  return statement<{ tag: string; trials: number }>(archive, 'SELECT tag, count(*) AS trials FROM trial_tags GROUP BY tag ORDER BY tag').all();
}

// ---------------------------------------------------------------------------
// Run time and run log

/** Adds one run's wall time to the trial's (a resume adds its own). */
export function addRunTime(archive: Archive, trialId: number, ms: number): void {
  statement(archive, 'UPDATE trials SET run_ms = COALESCE(run_ms, 0) + ? WHERE trial_id = ?').run(Math.max(0, Math.round(ms)), trialId);
}

/** The log keeps a trial's last LOG_ENTRIES_MAX entries, each at most LOG_MESSAGE_MAX characters: at most about 800 KiB a trial. */
export const LOG_ENTRIES_MAX = 200;
export const LOG_MESSAGE_MAX = 4096;

/** A message cut to LOG_MESSAGE_MAX, keeping its start and its end (an agent's stderr tail is at the end). */
export function boundedMessage(message: string): string {
  if (message.length <= LOG_MESSAGE_MAX) return message;
  const marker = ` … [${message.length - LOG_MESSAGE_MAX + 40} characters cut] … `;
  const head = 1024;
  return message.slice(0, head) + marker + message.slice(message.length - (LOG_MESSAGE_MAX - head - marker.length));
}

/** Appends to a trial's run log (inside the caller's write), dropping its oldest entries past LOG_ENTRIES_MAX. */
export function appendTrialLog(archive: Archive, trialId: number, entry: Omit<TrialLogEntry, 'seq'>): void {
  const seq = statement<{ n: number }>(archive, 'SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM trial_log WHERE trial_id = ?').get(trialId)!.n;
  statement(archive, 'INSERT INTO trial_log (trial_id, seq, at, level, message) VALUES (?, ?, ?, ?, ?)').run(trialId, seq, entry.at, entry.level, boundedMessage(entry.message));
  statement(archive, 'DELETE FROM trial_log WHERE trial_id = ? AND seq <= ?').run(trialId, seq - LOG_ENTRIES_MAX);
}

/** A trial's run log, oldest first. */
export function trialLog(archive: Archive, trialId: number): TrialLogEntry[] {
  return statement<TrialLogEntry>(archive, 'SELECT seq, at, level, message FROM trial_log WHERE trial_id = ? ORDER BY seq').all(trialId);
}
