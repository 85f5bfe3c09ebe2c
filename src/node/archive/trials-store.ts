/**
 * Trials and their episodes in the archive. A trial is one evaluation
 * result of one model on one manifest: a run started from the app (rows
 * filled one committed episode at a time, each in its own transaction) or
 * an imported CLI result (all rows in one transaction).
 *
 * Every scheduled episode has a row from the start (`missing`), so the
 * episode table shows the whole schedule and a crash leaves rows that are
 * each either fully committed or still missing.
 */

import { ValidationError } from '../../core/errors.js';
import { canonicalJson } from '../../core/json/canonical.js';
import type { EvaluationManifest } from '../../core/eval/manifest.js';
import { readMetricsValue, type FailureDeclaration, type ResultEpisode } from '../../core/eval/result.js';
import { parseJsonInput } from '../../core/json/strict-parse.js';
import type { ScoreReport } from '../../core/scoring/report.js';
import type { IsolationLevel } from '../../core/scoring/operational.js';
import { readRecordValue } from '../../core/sim/record-codec.js';
import { Rational } from '../../core/stats/rational.js';
import type { TrialStatus } from '../../shared/api/contract.js';
import { getArtifact, packArtifact, packArtifactAsync, putPacked, putText, utf8, type PackedArtifact } from './artifacts.js';
import { statement, type Archive } from './archive.js';
import { nextTrialId } from './trial-housekeeping.js';

/** A trial's score report as `emberbench score` makes it: the report, its canonical text and the summary it prints. */
export interface ScoredTrial {
  readonly report: ScoreReport;
  readonly reportText: string;
  readonly summary: string;
}

export interface NewTrial {
  readonly modelId: string;
  readonly manifest: EvaluationManifest;
  readonly manifestHash: string;
  readonly pack: { readonly digest: string; readonly packId: string } | null;
  readonly status: TrialStatus;
  readonly origin: 'run' | 'import';
  readonly agentLabel: string;
  readonly runConfig: unknown;
  /** scenario ID -> primary family */
  readonly families: ReadonlyMap<string, string>;
}

/** A fraction ("num/den") or decimal string as a sortable number (display order only, never a score). */
export function sortKey(value: string | null): number | null {
  if (value === null) return null;
  const [num, den] = value.split('/');
  return den === undefined ? Number(num) : Number(num) / Number(den);
}

/**
 * The sum (of sort keys) and the number of the scored episodes a trial holds:
 * what a resumed run's running mean starts from. Display only, like the mean.
 */
export function storedEpisodeScoreTotal(archive: Archive, trialId: number): { sum: number; count: number } {
  const row = statement<{ n: number; total: number }>(archive, 'SELECT COUNT(*) AS n, TOTAL(score_key) AS total FROM episodes WHERE trial_id = ? AND score IS NOT NULL').get(trialId);
  return { sum: row?.total ?? 0, count: row?.n ?? 0 };
}

export function roundedScore(value: string | null): string | null {
  return value === null ? null : Rational.parse(value).toFixed(1);
}

/** Creates the trial row and one `missing` row per scheduled episode (inside the caller's transaction). */
export function insertTrial(archive: Archive, t: NewTrial): number {
  const info = statement(
      archive,
      `INSERT INTO trials (trial_id, model_id, manifest_hash, suite_id, pack_digest, pack_id, official, status, origin, agent_label, run_config, episodes_scheduled, created)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      // Past every deleted trial's number too: a number (a copied link) never comes to mean another trial.
      nextTrialId(archive),
      t.modelId,
      t.manifestHash,
      t.manifest.suite.suite_id,
      t.pack?.digest ?? null,
      t.pack?.packId ?? null,
      t.pack === null ? 0 : 1,
      t.status,
      t.origin,
      t.agentLabel,
      t.runConfig === undefined ? null : JSON.stringify(t.runConfig),
      t.manifest.episodes.length,
      new Date().toISOString(),
    );
  const trialId = Number(info.lastInsertRowid);
  const episode = statement(archive, `INSERT INTO episodes (trial_id, idx, scenario_id, family, status) VALUES (?, ?, ?, ?, 'missing')`);
  for (const e of t.manifest.episodes) episode.run(trialId, e.index, e.scenario_id, t.families.get(e.scenario_id) ?? '');
  const family = statement(archive, 'INSERT OR IGNORE INTO trial_families (family, trial_id) VALUES (?, ?)');
  for (const f of new Set(t.families.values())) family.run(f, trialId);
  return trialId;
}

/** An episode's record and metrics, packed as artifacts (their canonical JSON). */
export interface PackedEpisode {
  readonly record: PackedArtifact;
  readonly metrics: PackedArtifact;
}

function episodeBytes(episode: ResultEpisode): { record: Buffer; metrics: Buffer } {
  return { record: utf8(canonicalJson(episode.record)), metrics: utf8(canonicalJson(episode.metrics)) };
}

export function packEpisode(episode: ResultEpisode): PackedEpisode {
  const bytes = episodeBytes(episode);
  return { record: packArtifact('record', bytes.record), metrics: packArtifact('metrics', bytes.metrics) };
}

/** packEpisode with the compression off the event loop (packArtifactAsync). */
export async function packEpisodeAsync(episode: ResultEpisode): Promise<PackedEpisode> {
  const bytes = episodeBytes(episode);
  const [record, metrics] = await Promise.all([packArtifactAsync('record', bytes.record), packArtifactAsync('metrics', bytes.metrics)]);
  return { record, metrics };
}

/** What an episode's row holds besides its artifacts. */
export interface EpisodeRowData {
  readonly index: number;
  readonly termination: string;
  readonly steps: number;
  readonly evacuated: number;
  readonly dead: number;
  readonly stranded: number;
}

export function episodeRowOf(episode: ResultEpisode): EpisodeRowData {
  const m = episode.metrics;
  return { index: episode.index, termination: episode.record.termination_reason, steps: episode.record.steps, evacuated: m.evacuated, dead: m.casualties, stranded: m.stranded };
}

/**
 * Stores one committed episode (record and metrics as artifacts, packed
 * here unless `packed` is given) and updates the trial's counts; returns the
 * byte length of the two canonical texts (what the episode adds to the
 * trial's result text, but for a few bytes of keys).
 */
export function storeEpisode(archive: Archive, trialId: number, episode: ResultEpisode, score: string | null, packed: PackedEpisode = packEpisode(episode)): number {
  return storeEpisodeRow(archive, trialId, episodeRowOf(episode), score, packed);
}

/** storeEpisode from the row's data and the packed artifacts (an import prepared elsewhere). */
export function storeEpisodeRow(archive: Archive, trialId: number, e: EpisodeRowData, score: string | null, packed: PackedEpisode): number {
  const recordDigest = putPacked(archive, packed.record);
  const metricsDigest = putPacked(archive, packed.metrics);
  const changed = statement(
      archive,
      `UPDATE episodes SET status = 'done', failure_kind = NULL, failure_message = NULL, termination = ?, steps = ?, evacuated = ?, dead = ?, stranded = ?,
         score = ?, score_key = ?, record_digest = ?, metrics_digest = ?
       WHERE trial_id = ? AND idx = ? AND status = 'missing'`,
    )
    .run(e.termination, e.steps, e.evacuated, e.dead, e.stranded, score, sortKey(score), recordDigest, metricsDigest, trialId, e.index).changes;
  if (changed !== 1) throw new ValidationError(`archive: trial ${trialId} has no open episode ${e.index}`);
  statement(
    archive,
    'UPDATE trials SET episodes_completed = episodes_completed + 1, evacuated = evacuated + ?, dead = dead + ?, stranded = stranded + ? WHERE trial_id = ?',
  ).run(e.evacuated, e.dead, e.stranded, trialId);
  return packed.record.size + packed.metrics.size;
}

/** The bytes of the stored records and metrics of a trial's committed episodes (their canonical texts are ASCII-sized at least). */
export function storedEpisodeBytes(archive: Archive, trialId: number): { readonly episodes: number; readonly bytes: number } {
  return statement<{ episodes: number; bytes: number }>(
    archive,
    `SELECT COUNT(*) AS episodes, COALESCE(SUM(r.size + m.size), 0) AS bytes FROM episodes e
       JOIN artifacts r ON r.digest = e.record_digest JOIN artifacts m ON m.digest = e.metrics_digest
     WHERE e.trial_id = ? AND e.status = 'done'`,
  ).get(trialId)!;
}

export function storeFailure(archive: Archive, trialId: number, failure: FailureDeclaration): void {
  const changed = statement(archive, `UPDATE episodes SET status = 'failed', failure_kind = ?, failure_message = ? WHERE trial_id = ? AND idx = ? AND status = 'missing'`)
    .run(failure.kind, failure.message, trialId, failure.index).changes;
  if (changed !== 1) throw new ValidationError(`archive: trial ${trialId} has no open episode ${failure.index}`);
  statement(archive, 'UPDATE trials SET episodes_failed = episodes_failed + 1 WHERE trial_id = ?').run(trialId);
}

export interface EntryRow {
  idx: number;
  status: string;
  failure_kind: string | null;
  failure_message: string | null;
  record_digest: string | null;
  metrics_digest: string | null;
}

export function entryRows(archive: Archive, trialId: number): EntryRow[] {
  return statement<EntryRow>(archive, `SELECT idx, status, failure_kind, failure_message, record_digest, metrics_digest FROM episodes WHERE trial_id = ? AND status != 'missing' ORDER BY idx`).all(trialId);
}

/** Calls `episode` for each committed episode's row, in index order; returns the declared failures. */
function visitEntries(archive: Archive, trialId: number, episode: (row: EntryRow) => void): FailureDeclaration[] {
  const failures: FailureDeclaration[] = [];
  for (const r of entryRows(archive, trialId)) {
    if (r.status === 'failed') failures.push({ index: r.idx, kind: r.failure_kind as FailureDeclaration['kind'], message: r.failure_message ?? '' });
    else episode(r);
  }
  return failures;
}

/** The committed episodes and declared failures of a trial, rebuilt from the digest-checked artifacts. */
export function storedEntries(archive: Archive, trialId: number): { episodes: ResultEpisode[]; failures: FailureDeclaration[] } {
  const episodes: ResultEpisode[] = [];
  const failures = visitEntries(archive, trialId, (r) => {
    const source = `archive:trial/${trialId}/episode/${r.idx}`;
    // Read with the result file's own field checks: a stored artifact is typed by reading it, never by a cast.
    const record = readRecordValue(parseJsonInput(getArtifact(archive, r.record_digest!).toString('utf8'), source), source, 'record');
    const metrics = readMetricsValue(parseJsonInput(getArtifact(archive, r.metrics_digest!).toString('utf8'), source), source, 'metrics');
    episodes.push({ index: r.idx, metrics, record });
  });
  return { episodes, failures };
}

/** The declared failures of a trial, in index order. */
export function storedFailures(archive: Archive, trialId: number): FailureDeclaration[] {
  return visitEntries(archive, trialId, () => undefined);
}

/**
 * One scheduled episode of a trial as stored: its record as a record file
 * holds it (canonical JSON + LF, recordText; the artifact digest-checked),
 * its declared failure, or neither (missing).
 */
export type StoredEpisode =
  | { readonly status: 'done'; readonly recordText: string }
  | { readonly status: 'failed'; readonly failure: FailureDeclaration }
  | { readonly status: 'missing' };

/**
 * One episode of a trial, read alone (a replay must not inflate and parse
 * the whole result for one record); undefined when the trial has no such
 * episode.
 */
export function storedEpisode(archive: Archive, trialId: number, index: number): StoredEpisode | undefined {
  const r = statement<EntryRow>(archive, 'SELECT idx, status, failure_kind, failure_message, record_digest, metrics_digest FROM episodes WHERE trial_id = ? AND idx = ?').get(trialId, index);
  if (r === undefined) return undefined;
  switch (r.status) {
    case 'done':
      // The artifact is the record's canonical JSON (storeEpisode), which is recordText without its LF.
      return { status: 'done', recordText: getArtifact(archive, r.record_digest!).toString('utf8') + '\n' };
    case 'failed':
      return { status: 'failed', failure: { index: r.idx, kind: r.failure_kind as FailureDeclaration['kind'], message: r.failure_message ?? '' } };
    case 'missing':
      return { status: 'missing' };
    default:
      throw new ValidationError(`archive: trial ${trialId} episode ${index} has status ${JSON.stringify(r.status)} (the archive is damaged)`);
  }
}

/**
 * What a resumed run needs of a trial: the indices of its committed episodes
 * (their artifacts digest-checked one at a time, then dropped, so memory
 * stays bounded by one episode) and its declared failures.
 */
export function storedIndices(archive: Archive, trialId: number): { indices: number[]; failures: FailureDeclaration[] } {
  const indices: number[] = [];
  const failures = visitEntries(archive, trialId, (r) => {
    getArtifact(archive, r.record_digest!);
    getArtifact(archive, r.metrics_digest!);
    indices.push(r.idx);
  });
  return { indices, failures };
}

/** Stores the final result (packed: packArtifact('result', ...)), the score report and its summary, and the trial's final status and score. */
export function storeOutcome(archive: Archive, trialId: number, o: { result: PackedArtifact; complete: boolean; report: ScoreReport | null; reportText: string | null; summary: string | null }): void {
  const resultDigest = putPacked(archive, o.result);
  const reportDigest = o.reportText === null ? null : putText(archive, 'score-report', o.reportText);
  const summaryDigest = o.summary === null ? null : putText(archive, 'summary', o.summary);
  const r = o.report;
  statement(
    archive,
    `UPDATE trials SET status = ?, result_digest = ?, report_digest = ?, summary_digest = ?, score = ?, score_key = ?, score_rounded = ?, interval_low = ?, interval_high = ?
     WHERE trial_id = ?`,
  ).run(
    o.complete ? 'complete' : 'incomplete',
    resultDigest,
    reportDigest,
    summaryDigest,
    r?.score ?? null,
    sortKey(r?.score ?? null),
    roundedScore(r?.score ?? null),
    r?.interval?.lower ?? null,
    r?.interval?.upper ?? null,
    trialId,
  );
  if (r === null) return;
  // Episode scores from the report: the scorer's exact figures, also for episodes a run could not score as it went.
  const update = statement(archive, 'UPDATE episodes SET score = ?, score_key = ? WHERE trial_id = ? AND idx = ?');
  for (const e of r.episodes) {
    const score = e.trials[0]?.score ?? null;
    update.run(score, sortKey(score), trialId, e.index);
  }
}

export function setTrialStatus(archive: Archive, trialId: number, status: TrialStatus): void {
  statement(archive, 'UPDATE trials SET status = ? WHERE trial_id = ?').run(status, trialId);
}

/** Records how the trial's agent is isolated (`sandboxed`, `none`, `in_process`): set when a run starts or resumes, or from an imported operational record. */
export function setTrialIsolation(archive: Archive, trialId: number, isolation: IsolationLevel): void {
  statement(archive, 'UPDATE trials SET isolation = ? WHERE trial_id = ?').run(isolation, trialId);
}

/** Names the trial's operational record (an `operational` artifact stored in the same transaction). */
export function setOperationalDigest(archive: Archive, trialId: number, digest: string): void {
  statement(archive, 'UPDATE trials SET operational_digest = ? WHERE trial_id = ?').run(digest, trialId);
}

/** How many of a trial's episodes are committed. */
export function countDoneEpisodes(archive: Archive, trialId: number): number {
  return statement<{ n: number }>(archive, "SELECT COUNT(*) AS n FROM episodes WHERE trial_id = ? AND status = 'done'").get(trialId)!.n;
}

/** The artifacts of a trial's committed episodes, in index order (archive check). */
export function doneEpisodeDigests(archive: Archive, trialId: number): { idx: number; record_digest: string; metrics_digest: string }[] {
  return statement<{ idx: number; record_digest: string; metrics_digest: string }>(
    archive,
    "SELECT idx, record_digest, metrics_digest FROM episodes WHERE trial_id = ? AND status = 'done' ORDER BY idx",
  ).all(trialId);
}

/** Trials a crash or quit left `running` become `interrupted` (at the writer's start, when no run of this process can be live). */
export function interruptStaleRuns(archive: Archive): number {
  return statement(archive, `UPDATE trials SET status = 'interrupted' WHERE status = 'running'`).run().changes;
}
