/**
 * The browsing queries behind `trials.list` and `episodes.list`: one page
 * of rows plus the total, sorted and filtered in SQL over the indexes of
 * migration 3. Sort columns come from a closed list (the contract's enums),
 * never from the caller's text, so no SQL is ever built from input.
 */

import type { EpisodeRow, PageOf, ParsedInput, TrialRow, TrialStatus } from '../../shared/api/contract.js';
import { connectionOf, statement, type Archive } from './archive.js';

type TrialSort = ParsedInput<'trials.list'>['sort'];
type EpisodeSort = ParsedInput<'episodes.list'>['sort'];

function trialSortColumn(sort: TrialSort): string {
  switch (sort) {
    case 'created':
      return 't.created';
    case 'model':
      return 't.model_id';
    case 'score':
      return 't.score_key';
    case 'status':
      return 't.status';
    case 'episodes':
      return 't.episodes_completed';
    case 'dead':
      return 't.dead';
    case 'official':
      return 't.official';
  }
}

function episodeSortColumn(sort: EpisodeSort): string {
  switch (sort) {
    case 'index':
      return 'e.idx';
    case 'score':
      return 'e.score_key';
    case 'scenario':
      return 'e.scenario_id';
    case 'family':
      return 'e.family';
    case 'status':
      return 'e.status';
    case 'evacuated':
      return 'e.evacuated';
    case 'dead':
      return 'e.dead';
    case 'stranded':
      return 'e.stranded';
    case 'steps':
      return 'e.steps';
  }
}

export interface TrialDbRow {
  trial_id: number;
  model_id: string;
  manifest_hash: string;
  suite_id: string;
  pack_digest: string | null;
  pack_id: string | null;
  official: number;
  /** The schema's CHECK constraints hold these columns to the contract's values. */
  status: TrialStatus;
  origin: TrialRow['origin'];
  agent_label: string;
  run_config: string | null;
  score: string | null;
  score_rounded: string | null;
  interval_low: string | null;
  interval_high: string | null;
  episodes_scheduled: number;
  episodes_completed: number;
  episodes_failed: number;
  evacuated: number;
  dead: number;
  stranded: number;
  result_digest: string | null;
  report_digest: string | null;
  summary_digest: string | null;
  operational_digest: string | null;
  created: string;
  /** Migration 4: `sandboxed`, `none`, `in_process`, or null when not recorded. */
  isolation: NonNullable<TrialRow['isolation']> | null;
  /** Migration 6 (trial-housekeeping.ts). */
  label: string;
  notes: string;
  run_ms: number | null;
  /** The trial's tags, one per line, in name order (TRIAL_SELECT); null when it has none. */
  tags_text?: string | null;
}

/** A trial's row with its tags (one per line: a tag has no spaces or newlines). */
const TRIAL_SELECT = "SELECT t.*, (SELECT group_concat(tag, char(10)) FROM (SELECT tag FROM trial_tags g WHERE g.trial_id = t.trial_id ORDER BY tag)) AS tags_text FROM trials t";

export function trialRowOf(r: TrialDbRow): TrialRow {
  return {
    trialId: r.trial_id,
    modelId: r.model_id,
    manifestHash: r.manifest_hash,
    suiteId: r.suite_id,
    packId: r.pack_id,
    official: r.official === 1,
    status: r.status,
    score: r.score,
    scoreRounded: r.score_rounded,
    intervalLow: r.interval_low,
    intervalHigh: r.interval_high,
    episodesScheduled: r.episodes_scheduled,
    episodesCompleted: r.episodes_completed,
    episodesFailed: r.episodes_failed,
    evacuated: r.evacuated,
    dead: r.dead,
    stranded: r.stranded,
    origin: r.origin,
    created: r.created,
    agentLabel: r.agent_label,
    isolation: r.isolation ?? null,
    // Filled by the services, which hold the trust list (AppSigning.rowSigners).
    signers: [],
    label: r.label,
    tags: r.tags_text == null ? [] : r.tags_text.split('\n'),
    durationMs: r.run_ms,
  };
}

export function getTrialDbRow(archive: Archive, trialId: number): TrialDbRow | undefined {
  return statement<TrialDbRow>(archive, `${TRIAL_SELECT} WHERE t.trial_id = ?`).get(trialId);
}

// Plain column order (SQLite puts NULL, an unscored row, first ascending and last descending), so every sort is an index walk.
function orderBy(column: string, direction: 'asc' | 'desc', tieBreak: string): string {
  const dir = direction === 'asc' ? 'ASC' : 'DESC';
  return `${column} ${dir}, ${tieBreak} ${dir}`;
}

export function listTrials(archive: Archive, q: ParsedInput<'trials.list'>): PageOf<TrialRow> {
  const where: string[] = [];
  const params: unknown[] = [];
  const f = q.filter;
  if (f.model !== undefined && f.model !== '') {
    where.push(`instr(t.model_id, ?) > 0`);
    params.push(f.model);
  }
  if (f.official !== undefined) {
    where.push('t.official = ?');
    params.push(f.official ? 1 : 0);
  }
  if (f.status !== undefined) {
    where.push('t.status = ?');
    params.push(f.status);
  }
  if (f.manifestHash !== undefined) {
    where.push('t.manifest_hash = ?');
    params.push(f.manifestHash);
  }
  if (f.family !== undefined) {
    where.push('t.trial_id IN (SELECT trial_id FROM trial_families WHERE family = ?)');
    params.push(f.family);
  }
  if (f.tag !== undefined) {
    where.push('t.trial_id IN (SELECT trial_id FROM trial_tags WHERE tag = ?)');
    params.push(f.tag);
  }
  const clause = where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`;
  const db = connectionOf(archive);
  const total = db.prepare<unknown[], { n: number }>(`SELECT count(*) AS n FROM trials t ${clause}`).get(...params)!.n;
  const rows = db
    .prepare<unknown[], TrialDbRow>(`${TRIAL_SELECT} ${clause} ORDER BY ${orderBy(trialSortColumn(q.sort), q.direction, 't.trial_id')} LIMIT ? OFFSET ?`)
    .all(...params, q.limit, q.offset);
  return { rows: rows.map(trialRowOf), total };
}

interface EpisodeDbRow {
  trial_id: number;
  model_id: string;
  idx: number;
  scenario_id: string;
  family: string;
  status: EpisodeRow['status'];
  failure_kind: string | null;
  termination: string | null;
  steps: number | null;
  evacuated: number | null;
  dead: number | null;
  stranded: number | null;
  score: string | null;
}

export function listEpisodes(archive: Archive, q: ParsedInput<'episodes.list'>): PageOf<EpisodeRow> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.trialId !== undefined) {
    where.push('e.trial_id = ?');
    params.push(q.trialId);
  }
  const f = q.filter;
  if (f.family !== undefined) {
    where.push('e.family = ?');
    params.push(f.family);
  }
  if (f.scenarioId !== undefined) {
    where.push('e.scenario_id = ?');
    params.push(f.scenarioId);
  }
  if (f.status !== undefined) {
    where.push('e.status = ?');
    params.push(f.status);
  }
  if (f.failureKind !== undefined) {
    where.push('e.failure_kind = ?');
    params.push(f.failureKind);
  }
  const clause = where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`;
  const db = connectionOf(archive);
  const total = db.prepare<unknown[], { n: number }>(`SELECT count(*) AS n FROM episodes e ${clause}`).get(...params)!.n;
  const dir = q.direction === 'asc' ? 'ASC' : 'DESC';
  const order = q.sort === 'index' ? orderBy('e.idx', q.direction, 'e.trial_id') : `${orderBy(episodeSortColumn(q.sort), q.direction, 'e.trial_id')}, e.idx ${dir}`;
  const rows = db
    .prepare<unknown[], EpisodeDbRow>(
      `SELECT e.trial_id, t.model_id, e.idx, e.scenario_id, e.family, e.status, e.failure_kind, e.termination, e.steps, e.evacuated, e.dead, e.stranded, e.score
       FROM episodes e JOIN trials t ON t.trial_id = e.trial_id ${clause} ORDER BY ${order} LIMIT ? OFFSET ?`,
    )
    .all(...params, q.limit, q.offset);
  return {
    rows: rows.map((r) => ({
      trialId: r.trial_id,
      modelId: r.model_id,
      index: r.idx,
      scenarioId: r.scenario_id,
      family: r.family,
      status: r.status,
      failureKind: r.failure_kind,
      termination: r.termination,
      steps: r.steps,
      evacuated: r.evacuated,
      dead: r.dead,
      stranded: r.stranded,
      score: r.score,
    })),
    total,
  };
}

/** Every model with a trial, in name order (the overview's model list). */
export function listModelIds(archive: Archive): string[] {
  return statement<{ model_id: string }>(archive, 'SELECT DISTINCT model_id FROM trials ORDER BY model_id').all().map((r) => r.model_id);
}

/** Every scored trial, the most recent first (the leaderboard keeps each model's latest per target). */
export function scoredTrialRows(archive: Archive): TrialDbRow[] {
  return statement<TrialDbRow>(archive, `SELECT * FROM trials WHERE report_digest IS NOT NULL ORDER BY created DESC, trial_id DESC`).all();
}

/** The trial whose result has these bytes (the result artifact's digest), if any. */
export function trialOfResultDigest(archive: Archive, digest: string): number | undefined {
  return statement<{ trial_id: number }>(archive, 'SELECT trial_id FROM trials WHERE result_digest = ? ORDER BY trial_id LIMIT 1').get(digest)?.trial_id;
}

/** What `archive check` reads of a trial. */
export interface CheckedTrialRow {
  trial_id: number;
  status: TrialStatus;
  manifest_hash: string;
  model_id: string;
  result_digest: string | null;
  report_digest: string | null;
  summary_digest: string | null;
  operational_digest: string | null;
}

const CHECKED_TRIAL_SELECT = 'SELECT trial_id, status, manifest_hash, model_id, result_digest, report_digest, summary_digest, operational_digest FROM trials';

/** The given trials (those that exist, in the given order), or every trial in ID order. */
export function checkedTrialRows(archive: Archive, trialIds: readonly number[] | undefined): CheckedTrialRow[] {
  if (trialIds === undefined) return statement<CheckedTrialRow>(archive, `${CHECKED_TRIAL_SELECT} ORDER BY trial_id`).all();
  const one = statement<CheckedTrialRow>(archive, `${CHECKED_TRIAL_SELECT} WHERE trial_id = ?`);
  return trialIds.map((id) => one.get(id)).filter((r): r is CheckedTrialRow => r !== undefined);
}
