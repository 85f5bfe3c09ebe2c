/**
 * The evaluation result (evaluation_result_version 1.0, evaluation.md
 * section 3): the model ID, the embedded manifest and its hash, the
 * committed episodes (run record plus recomputed metrics) in index order and
 * the declared failures in index order. The file is canonical JSON plus one
 * LF; its digest is fileDigest(text).
 *
 * This module is the format and its strict structural reader. Whether the
 * values are right (replay, metrics, indices against the schedule) is
 * authenticate.ts's job.
 */

import { ValidationError, type FailureKind } from '../errors.js';
import { HEX64, fileDigest } from '../hash.js';
import { canonicalJson, type JsonObject, type JsonValue } from '../json/canonical.js';
import { FieldReader } from '../json/fields.js';
import { parseJsonInput } from '../json/strict-parse.js';
import type { BlockedMoves, CrowdDiagnostics, EpisodeMetrics, EvacuationSteps, ExitEvacuations, PathEfficiency } from '../metrics/metrics.js';
import { readRecordValue } from '../sim/record-codec.js';
import type { RunRecord } from '../sim/record.js';
import { BENCHMARK_VERSIONS } from '../versions.js';
import { readManifest, type EvaluationManifest } from './manifest.js';

export const EVALUATION_RESULT_VERSION: string = BENCHMARK_VERSIONS.evaluation_result_version;

/** The failure kinds a result may declare; `missing` is never declared (scoring-v1.0.md 4.4). */
export const DECLARED_FAILURE_KINDS: readonly FailureKind[] = ['invalid_output', 'model_error', 'timeout'];

/** The longest failure message, in UTF-16 code units: one agent error line plus a stderr tail fits. */
export const MAX_FAILURE_MESSAGE_LENGTH = 2000;

export interface ResultEpisode {
  readonly index: number;
  readonly metrics: EpisodeMetrics;
  readonly record: RunRecord;
}

export interface FailureDeclaration {
  readonly index: number;
  readonly kind: FailureKind;
  readonly message: string;
}

export interface EvaluationResult {
  readonly episodes: readonly ResultEpisode[];
  readonly evaluation_result_version: string;
  readonly failures: readonly FailureDeclaration[];
  readonly manifest: EvaluationManifest;
  readonly manifest_hash: string;
  readonly model_id: string;
}

const RESULT_KEYS = ['episodes', 'evaluation_result_version', 'failures', 'manifest', 'manifest_hash', 'model_id'];
const EPISODE_KEYS = ['index', 'metrics', 'record'];
const FAILURE_KEYS = ['index', 'kind', 'message'];

/**
 * A failure message that fits the format: at most
 * {@link MAX_FAILURE_MESSAGE_LENGTH} code units, never ending inside a
 * surrogate pair, line breaks as spaces (messages are one line).
 */
export function clipFailureMessage(message: string): string {
  const line = message.replace(/\r?\n/g, ' ');
  if (line.length <= MAX_FAILURE_MESSAGE_LENGTH) return line;
  let end = MAX_FAILURE_MESSAGE_LENGTH - 3;
  const code = line.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return line.slice(0, end) + '...';
}

/**
 * A result value with episodes and failures sorted by index, so the bytes
 * depend only on what was committed, never on the order it completed in.
 */
export function buildResult(
  manifest: EvaluationManifest,
  manifestHashHex: string,
  modelId: string,
  episodes: Iterable<ResultEpisode>,
  failures: Iterable<FailureDeclaration>,
): EvaluationResult {
  const byIndex = <T extends { readonly index: number }>(a: T, b: T): number => a.index - b.index;
  return {
    episodes: [...episodes].sort(byIndex),
    evaluation_result_version: EVALUATION_RESULT_VERSION,
    failures: [...failures].sort(byIndex),
    manifest,
    manifest_hash: manifestHashHex,
    model_id: modelId,
  };
}

/** The result file text: canonical JSON plus one LF. */
export function resultText(result: EvaluationResult): string {
  return canonicalJson(result) + '\n';
}

/** The result digest: SHA-256 of the file text without its final LF. */
export function resultDigest(text: string): string {
  return fileDigest(text);
}

// ---------------------------------------------------------------------------
// Strict reader

const FRACTION = /^(0|[1-9][0-9]*)\/[1-9][0-9]*$/;

function fraction(r: FieldReader, value: JsonValue | undefined, path: string): string {
  return r.string(value, path, FRACTION);
}

function nullableFraction(r: FieldReader, value: JsonValue | undefined, path: string): string | null {
  return r.nullable(value, path, (v, p) => fraction(r, v, p));
}

function nullableInteger(r: FieldReader, value: JsonValue | undefined, path: string): number | null {
  return r.nullable(value, path, (v, p) => r.integer(v, p));
}

/**
 * The metrics object's shape (metrics_version 1.0): exact keys, integers,
 * fraction strings and nulls where metrics.ts puts them. The values are
 * checked by recomputation, not here.
 */
function readMetrics(r: FieldReader, value: JsonValue | undefined, path: string): EpisodeMetrics {
  const m = r.object(value, path, [
    'blocked_moves',
    'casualties',
    'congestion_block_rate',
    'crowd',
    'crowd_diagnostics_version',
    'evacuated',
    'evacuation_rate',
    'evacuation_steps',
    'fire_exposure',
    'metrics_version',
    'min_fire_distance',
    'moves_attempted',
    'path_efficiency',
    'per_exit_evacuations',
    'population',
    'stranded',
  ]);
  // Read in the order the fields are checked, so the first problem reported stays the same.
  const metricsVersion = r.string(m.metrics_version, `${path}.metrics_version`);
  const crowdVersion = r.string(m.crowd_diagnostics_version, `${path}.crowd_diagnostics_version`);
  const count = (obj: JsonObject, key: string, at: string): number => r.integer(obj[key], `${at}.${key}`);
  const population = count(m, 'population', path);
  const evacuated = count(m, 'evacuated', path);
  const casualties = count(m, 'casualties', path);
  const stranded = count(m, 'stranded', path);
  const movesAttempted = count(m, 'moves_attempted', path);
  const fireExposure = count(m, 'fire_exposure', path);
  const evacuationRate = fraction(r, m.evacuation_rate, `${path}.evacuation_rate`);
  const congestionBlockRate = nullableFraction(r, m.congestion_block_rate, `${path}.congestion_block_rate`);
  const minFireDistance = nullableInteger(r, m.min_fire_distance, `${path}.min_fire_distance`);
  const steps = r.object(m.evacuation_steps, `${path}.evacuation_steps`, ['max', 'mean', 'sum']);
  const stepsSum = r.integer(steps.sum, `${path}.evacuation_steps.sum`);
  const stepsMean = nullableFraction(r, steps.mean, `${path}.evacuation_steps.mean`);
  const evacuationSteps: EvacuationSteps = { max: nullableInteger(r, steps.max, `${path}.evacuation_steps.max`), mean: stepsMean, sum: stepsSum };
  const blocked = r.object(m.blocked_moves, `${path}.blocked_moves`, ['conflict', 'cycle', 'occupied', 'total']);
  const blockedAt = `${path}.blocked_moves`;
  const conflict = count(blocked, 'conflict', blockedAt);
  const cycle = count(blocked, 'cycle', blockedAt);
  const occupied = count(blocked, 'occupied', blockedAt);
  const blockedMoves: BlockedMoves = { conflict, cycle, occupied, total: count(blocked, 'total', blockedAt) };
  const pathEff = r.object(m.path_efficiency, `${path}.path_efficiency`, ['moved_sum', 'ratio', 'static_shortest_sum']);
  const movedSum = r.integer(pathEff.moved_sum, `${path}.path_efficiency.moved_sum`);
  const staticShortestSum = r.integer(pathEff.static_shortest_sum, `${path}.path_efficiency.static_shortest_sum`);
  const pathEfficiency: PathEfficiency = { moved_sum: movedSum, ratio: nullableFraction(r, pathEff.ratio, `${path}.path_efficiency.ratio`), static_shortest_sum: staticShortestSum };
  const perExit = r.array(m.per_exit_evacuations, `${path}.per_exit_evacuations`).map((item, k): ExitEvacuations => {
    const p = `${path}.per_exit_evacuations[${k}]`;
    const triple = r.array(item, p);
    if (triple.length !== 3) r.fail(p, 'must be a [row, col, count] triple');
    return [r.integer(triple[0], `${p}[0]`), r.integer(triple[1], `${p}[1]`), r.integer(triple[2], `${p}[2]`)];
  });
  const crowdObj = r.object(m.crowd, `${path}.crowd`, ['contested_cell_steps', 'exit_throughput', 'hotspot_cells', 'peak_contested_cells']);
  const crowdAt = `${path}.crowd`;
  const contested = count(crowdObj, 'contested_cell_steps', crowdAt);
  const hotspots = count(crowdObj, 'hotspot_cells', crowdAt);
  const peak = count(crowdObj, 'peak_contested_cells', crowdAt);
  const crowd: CrowdDiagnostics = {
    contested_cell_steps: contested,
    exit_throughput: nullableFraction(r, crowdObj.exit_throughput, `${path}.crowd.exit_throughput`),
    hotspot_cells: hotspots,
    peak_contested_cells: peak,
  };
  // Keys in canonical (sorted) order, the order the parsed file had.
  return {
    blocked_moves: blockedMoves,
    casualties,
    congestion_block_rate: congestionBlockRate,
    crowd,
    crowd_diagnostics_version: crowdVersion,
    evacuated,
    evacuation_rate: evacuationRate,
    evacuation_steps: evacuationSteps,
    fire_exposure: fireExposure,
    metrics_version: metricsVersion,
    min_fire_distance: minFireDistance,
    moves_attempted: movesAttempted,
    path_efficiency: pathEfficiency,
    per_exit_evacuations: perExit,
    population,
    stranded,
  };
}

function readEpisode(r: FieldReader, value: JsonValue, path: string): ResultEpisode {
  const e = r.object(value, path, EPISODE_KEYS);
  const index = r.integer(e.index, `${path}.index`);
  const metrics = readMetrics(r, e.metrics, `${path}.metrics`);
  const record = readRecordValue(e.record!, r.source, `${path}.record`);
  return { index, metrics, record };
}

/** Reads an episode's metrics object on its own (the archive's stored copy, path `metrics`): the same checks as in a result. */
export function readMetricsValue(value: JsonValue, source: string, path: string): EpisodeMetrics {
  return readMetrics(new FieldReader(source), value, path);
}

/** Reads one element of `episodes` (path `episodes[i]`) on its own: the streaming reader's per-episode check. */
export function readResultEpisode(value: JsonValue, source: string, path: string): ResultEpisode {
  return readEpisode(new FieldReader(source), value, path);
}

/** The error of a result file that is not canonical JSON plus one LF. */
export function notCanonicalError(source: string): ValidationError {
  return new ValidationError(`${source}: not canonical JSON plus one LF (an evaluation result is never reformatted or repaired)`);
}

function readFailure(r: FieldReader, value: JsonValue, path: string): FailureDeclaration {
  const f = r.object(value, path, FAILURE_KEYS);
  const index = r.integer(f.index, `${path}.index`);
  const kind = r.literal(f.kind, `${path}.kind`, DECLARED_FAILURE_KINDS);
  const message = r.string(f.message, `${path}.message`);
  if (message.length > MAX_FAILURE_MESSAGE_LENGTH) r.fail(`${path}.message`, `is longer than ${MAX_FAILURE_MESSAGE_LENGTH} characters`);
  return { index, kind, message };
}

/** Reads a result value: exact keys and types everywhere; the embedded manifest must pin the running versions. */
export function readResultValue(value: JsonValue, source: string): EvaluationResult {
  const r = new FieldReader(source);
  const obj = r.object(value, '$', RESULT_KEYS);
  r.literal(obj.evaluation_result_version, 'evaluation_result_version', [EVALUATION_RESULT_VERSION]);
  const modelId = r.string(obj.model_id, 'model_id');
  const hash = r.string(obj.manifest_hash, 'manifest_hash', HEX64);
  const manifest = readManifest(obj.manifest, source, 'manifest');
  const episodes = r.array(obj.episodes, 'episodes').map((e, i) => readEpisode(r, e, `episodes[${i}]`));
  const failures = r.array(obj.failures, 'failures').map((f, i) => readFailure(r, f, `failures[${i}]`));
  return {
    episodes,
    evaluation_result_version: EVALUATION_RESULT_VERSION,
    failures,
    manifest,
    manifest_hash: hash,
    model_id: modelId,
  };
}

/**
 * Loads a result from its file text: strict JSON, exact fields, and the text
 * must be exactly the canonical JSON of its value plus one LF. Anything else
 * is a ValidationError (exit 3); nothing is repaired.
 */
export function parseResultText(text: string, source: string): EvaluationResult {
  const value = parseJsonInput(text, source);
  const result = readResultValue(value, source);
  // After the fields, so that a wrong field is named precisely.
  if (canonicalJson(value) + '\n' !== text) throw notCanonicalError(source);
  return result;
}
