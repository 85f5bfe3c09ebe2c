/**
 * The operational record and the EMBER-Efficiency view (scoring-v1.0.md
 * section 11, evaluation.md section 7).
 *
 * Tokens, money and latency are never score inputs: the scorer has no
 * parameter for them. The record is stored next to a score report, never
 * inside it. It is canonical JSON plus one LF with its own digest
 * (fileDigest of the file = digestOf the value):
 *
 *   operational_record_version  "1.0" (this format)
 *   model_id, provider_id       non-empty printable IDs (the model ID check)
 *   inference_config_digest     64 hex: SHA-256 of the canonical JSON of every
 *                               inference setting (inferenceConfigDigest)
 *   trials                      integer >= 1
 *   episodes                    integer >= 1: the episode runs the record
 *                               covers, summed over its trials
 *   latency_seconds             evaluator-measured wall time, an exact
 *                               non-negative decimal string ("12.5")
 *   input_tokens, output_tokens non-negative integers, kept separate
 *   cost, cost_unit             an exact non-negative fraction "num/den" in
 *                               lowest terms ("3/20") and its unit, or both null
 *   retries, timeouts           non-negative integers
 *   response_cache_hits         optional, integer >= 1: present only when
 *                               answers were served from a response cache
 *                               (such a record is refused by `score --pack`)
 *   isolation                   optional: how the agent's code was isolated,
 *                               `sandboxed` (bubblewrap), `none` (the user's
 *                               full rights) or `in_process` (the evaluator's
 *                               own code: a builtin or the chat adapter).
 *                               Absent in records written before it existed.
 *   limit_mechanisms            optional, with `sandboxed` or `none`: what held
 *                               each per-episode cap of the agent's process
 *                               tree, {cpu, memory, processes}, each
 *                               `cgroup_v2` (the kernel, in a cgroup per
 *                               episode), `watchdog` (the evaluator sampling
 *                               the tree, per-process rlimits between
 *                               samples) or `rlimit` (RLIMIT_NPROC in the
 *                               sandbox's own user namespace). Absent in
 *                               records written before it existed.
 *   cut                         optional, the chat adapter's: model calls of
 *                               episode runs that were cut (a cancel, Ctrl+C,
 *                               a crash, a stop at a refused key) and ran
 *                               again later, so they are not in the counts
 *                               above: {episodes, calls, input_tokens,
 *                               output_tokens, cost} (cost as `cost`, null
 *                               when the record's is or an answer had no
 *                               usage). Present only when some run was cut,
 *                               so every other record keeps its bytes.
 *
 * Every value is finite by construction: integers are JSON integers within
 * +-(2^53 - 1), decimals and fractions are digit strings.
 */

import { ValidationError } from '../errors.js';
import { HEX64, digestOf } from '../hash.js';
import { canonicalJson, type CanonicalShape, type JsonValue } from '../json/canonical.js';
import { FieldReader } from '../json/fields.js';
import { parseJsonInput, parseStrictJson } from '../json/strict-parse.js';
import { modelIdProblem } from '../eval/model-id.js';
import { Rational } from '../stats/rational.js';

export const OPERATIONAL_RECORD_VERSION = '1.0';

/** What can hold a per-episode cap of an agent's process tree (docs/agents.md "Sandbox"). */
export const LIMIT_MECHANISMS = ['cgroup_v2', 'watchdog', 'rlimit'] as const;
export type LimitMechanism = (typeof LIMIT_MECHANISMS)[number];

export interface LimitMechanisms {
  readonly cpu: LimitMechanism;
  readonly memory: LimitMechanism;
  readonly processes: LimitMechanism;
}

/** The isolation levels an operational record can state (evaluation.md section 8). */
export const ISOLATION_LEVELS = ['sandboxed', 'none', 'in_process'] as const;
export type IsolationLevel = (typeof ISOLATION_LEVELS)[number];

export interface OperationalRecord {
  readonly cost: string | null;
  readonly cost_unit: string | null;
  readonly episodes: number;
  readonly inference_config_digest: string;
  readonly input_tokens: number;
  readonly latency_seconds: string;
  readonly model_id: string;
  readonly operational_record_version: string;
  readonly output_tokens: number;
  readonly provider_id: string;
  readonly retries: number;
  readonly timeouts: number;
  readonly trials: number;
  /** Present (>= 1) only when some answers came from a response cache. */
  readonly response_cache_hits?: number;
  /** How the agent ran; absent in records that do not say (optional, so older records keep their bytes). */
  readonly isolation?: IsolationLevel;
  /** Which mechanism held each cap of a local agent (optional, so older records keep their bytes). */
  readonly limit_mechanisms?: LimitMechanisms;
  /** Spend of episode runs that were cut and ran again (optional: only when some were). */
  readonly cut?: CutEpisodes;
}

/** What the cut runs of episodes spent: counted apart, so the trial's own counts stay those of the episodes it holds. */
export interface CutEpisodes {
  readonly calls: number;
  readonly cost: string | null;
  readonly episodes: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
}

const RECORD_KEYS = [
  'cost',
  'cost_unit',
  'episodes',
  'inference_config_digest',
  'input_tokens',
  'latency_seconds',
  'model_id',
  'operational_record_version',
  'output_tokens',
  'provider_id',
  'retries',
  'timeouts',
  'trials',
];

/** A canonical non-negative decimal: no sign, no exponent, no leading zeros, no trailing fractional zeros. */
export const EXACT_DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/;
/** A non-negative fraction "num/den"; lowest terms are checked separately. */
export const EXACT_FRACTION = /^(0|[1-9][0-9]*)\/([1-9][0-9]*)$/;

/** The canonical fraction text of a non-negative rational ("0/1" for zero). */
export function fractionText(value: Rational): string {
  return value.toFraction();
}

function readFraction(r: FieldReader, value: JsonValue | undefined, path: string): string {
  const text = r.string(value, path);
  if (!EXACT_FRACTION.test(text)) r.fail(path, 'must be an exact non-negative fraction "num/den" (e.g. "3/20"; "0/1" for zero)');
  if (Rational.parse(text).toFraction() !== text) r.fail(path, 'must be in lowest terms');
  return text;
}

function readId(r: FieldReader, value: JsonValue | undefined, path: string): string {
  const id = r.string(value, path);
  const problem = modelIdProblem(id);
  if (problem !== null) r.fail(path, problem);
  return id;
}

/** Validates an operational record value (ValidationError naming the field, exit 3) and returns it as a record. */
export function readOperationalRecord(value: JsonValue, source: string): OperationalRecord {
  const r = new FieldReader(source);
  const obj = r.object(value, '$', RECORD_KEYS, ['response_cache_hits', 'isolation', 'limit_mechanisms', 'cut']);
  const count = (key: string, min = 0): number => r.integer(obj[key], key, min);
  // Each field is read in the order the fields are checked, so the first problem reported stays the same.
  const version = r.literal(obj['operational_record_version'], 'operational_record_version', [OPERATIONAL_RECORD_VERSION]);
  const modelId = readId(r, obj['model_id'], 'model_id');
  const providerId = readId(r, obj['provider_id'], 'provider_id');
  const digest = r.string(obj['inference_config_digest'], 'inference_config_digest', HEX64);
  const trials = count('trials', 1);
  const episodes = count('episodes', 1);
  const latency = r.string(obj['latency_seconds'], 'latency_seconds');
  if (!EXACT_DECIMAL.test(latency)) r.fail('latency_seconds', 'must be an exact non-negative decimal string (e.g. "12.5"; no sign, exponent, or leading or trailing zeros)');
  const inputTokens = count('input_tokens');
  const outputTokens = count('output_tokens');
  const retries = count('retries');
  const timeouts = count('timeouts');
  const cacheHits = obj['response_cache_hits'] === undefined ? {} : { response_cache_hits: count('response_cache_hits', 1) };
  const isolation = obj['isolation'] === undefined ? {} : { isolation: r.literal(obj['isolation'], 'isolation', ISOLATION_LEVELS) };
  const limits = obj['limit_mechanisms'] === undefined ? {} : { limit_mechanisms: readLimitMechanisms(r, obj['limit_mechanisms']) };
  const cost = obj['cost'];
  const unit = obj['cost_unit'];
  if ((cost === null) !== (unit === null)) r.fail(cost === null ? 'cost_unit' : 'cost', 'cost and cost_unit are both null (unknown) or both set');
  const cut = obj['cut'] === undefined ? {} : { cut: readCut(r, obj['cut'], cost === null) };
  return {
    cost: cost === null ? null : readFraction(r, cost, 'cost'),
    cost_unit: unit === null ? null : readId(r, unit, 'cost_unit'),
    episodes,
    inference_config_digest: digest,
    input_tokens: inputTokens,
    latency_seconds: latency,
    model_id: modelId,
    operational_record_version: version,
    output_tokens: outputTokens,
    provider_id: providerId,
    retries,
    timeouts,
    trials,
    ...cacheHits,
    ...isolation,
    ...limits,
    ...cut,
  };
}

function readCut(r: FieldReader, value: JsonValue, costUnknown: boolean): CutEpisodes {
  const cut = r.object(value, 'cut', ['calls', 'cost', 'episodes', 'input_tokens', 'output_tokens']);
  const count = (key: keyof CutEpisodes, min = 0): number => r.integer(cut[key], `cut.${key}`, min);
  const episodes = count('episodes', 1);
  const calls = count('calls');
  const inputTokens = count('input_tokens');
  const outputTokens = count('output_tokens');
  if (costUnknown && cut['cost'] !== null) r.fail('cut.cost', 'must be null when the record\'s cost is');
  return { calls, cost: cut['cost'] === null ? null : readFraction(r, cut['cost'], 'cut.cost'), episodes, input_tokens: inputTokens, output_tokens: outputTokens };
}

function readLimitMechanisms(r: FieldReader, value: JsonValue): LimitMechanisms {
  const limits = r.object(value, 'limit_mechanisms', ['cpu', 'memory', 'processes']);
  const read = (key: keyof LimitMechanisms): LimitMechanism => r.literal(limits[key], `limit_mechanisms.${key}`, LIMIT_MECHANISMS);
  return { cpu: read('cpu'), memory: read('memory'), processes: read('processes') };
}

/** Parses an operational record file: strict JSON, valid, canonical text plus one LF. */
export function parseOperationalRecordText(text: string, source: string): OperationalRecord {
  const value = parseJsonInput(text, source);
  const record = readOperationalRecord(value, source);
  if (text !== operationalRecordText(record)) throw new ValidationError(`${source}: not canonical (canonical JSON with one final LF)`);
  return record;
}

export interface OperationalRecordInput {
  readonly modelId: string;
  readonly providerId: string;
  readonly inferenceConfigDigest: string;
  readonly trials: number;
  readonly episodes: number;
  /** Exact decimal string of seconds. */
  readonly latencySeconds: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Evaluator-computed cost and its unit, or null when unknown. */
  readonly cost: { readonly amount: Rational; readonly unit: string } | null;
  readonly retries: number;
  readonly timeouts: number;
  /** Answers served from a response cache; 0 or absent leaves the field out. */
  readonly responseCacheHits?: number;
  /** How the agent ran; absent leaves the field out. */
  readonly isolation?: IsolationLevel;
  /** What held each cap of a local agent; absent leaves the field out. */
  readonly limitMechanisms?: LimitMechanisms;
  /** Spend of cut episode runs; absent leaves the field out. */
  readonly cut?: { readonly episodes: number; readonly calls: number; readonly inputTokens: number; readonly outputTokens: number; readonly cost: Rational | null };
}

/** Builds and validates a record (ValidationError on a bad value). */
export function buildOperationalRecord(input: OperationalRecordInput, source = 'operational record'): OperationalRecord {
  if (input.cost !== null && input.cost.amount.num < 0n) throw new ValidationError(`${source}: cost: must not be negative`);
  const value: OperationalRecord = {
    cost: input.cost === null ? null : fractionText(input.cost.amount),
    cost_unit: input.cost === null ? null : input.cost.unit,
    episodes: input.episodes,
    inference_config_digest: input.inferenceConfigDigest,
    input_tokens: input.inputTokens,
    latency_seconds: input.latencySeconds,
    model_id: input.modelId,
    operational_record_version: OPERATIONAL_RECORD_VERSION,
    output_tokens: input.outputTokens,
    provider_id: input.providerId,
    retries: input.retries,
    timeouts: input.timeouts,
    trials: input.trials,
    ...(input.responseCacheHits === undefined || input.responseCacheHits === 0 ? {} : { response_cache_hits: input.responseCacheHits }),
    ...(input.isolation === undefined ? {} : { isolation: input.isolation }),
    ...(input.limitMechanisms === undefined ? {} : { limit_mechanisms: { ...input.limitMechanisms } }),
    ...(input.cut === undefined
      ? {}
      : {
          cut: {
            calls: input.cut.calls,
            cost: input.cut.cost === null ? null : fractionText(input.cut.cost),
            episodes: input.cut.episodes,
            input_tokens: input.cut.inputTokens,
            output_tokens: input.cut.outputTokens,
          },
        }),
  };
  // Non-integer numbers would be rejected by canonical JSON; catch them as a field error first.
  for (const key of ['episodes', 'input_tokens', 'output_tokens', 'retries', 'timeouts', 'trials'] as const) {
    if (!Number.isSafeInteger(value[key])) throw new ValidationError(`${source}: ${key}: must be an integer`);
  }
  // Validated as a reader would see its file (no reader of the record can accept what this builds and refuses).
  return readOperationalRecord(parseStrictJson(canonicalJson(value)), source);
}

export function operationalRecordText(record: OperationalRecord): string {
  return canonicalJson(record) + '\n';
}

/** The record's own digest: SHA-256 of its canonical JSON (= fileDigest of its file). */
export function operationalRecordDigest(record: OperationalRecord): string {
  return digestOf(record);
}

/** The inference configuration digest: SHA-256 of the canonical JSON of every inference setting. */
export function inferenceConfigDigest<T>(settings: T & CanonicalShape<T>): string {
  return digestOf(settings);
}

/** Evaluator-measured cost per episode run: cost / episodes, or null when the cost is unknown. */
export function costPerEpisode(record: OperationalRecord): Rational | null {
  return record.cost === null ? null : Rational.parse(record.cost).div(Rational.of(record.episodes));
}

/** The EMBER-Efficiency view: points per unit of evaluator-measured cost. Never part of a score or an order. */
export type EfficiencyView = {
  readonly model_id: string;
  /** The report's EMBER Score (exact fraction), unchanged. */
  readonly ember_score: string;
  readonly cost_per_episode: string;
  readonly cost_unit: string;
  /** ember_score / cost_per_episode, exact; null when the cost is zero (no finite ratio). */
  readonly points_per_unit: string | null;
};

/** The part of a score report the view reads. */
export interface EfficiencySubject {
  readonly model_id: string;
  /** The EMBER Score as an exact fraction; null when no episode is applicable. */
  readonly score: string | null;
}

/**
 * efficiency_view(report, cost_per_episode, unit) of scoring-v1.0.md
 * section 11. The cost must be evaluator-measured (costPerEpisode of an
 * operational record), never provider-reported. The report is read, never
 * changed.
 */
export function efficiencyView(report: EfficiencySubject, costPerEpisodeValue: Rational, unit: string): EfficiencyView {
  if (report.score === null) throw new ValidationError('efficiency view: the report has no EMBER Score (no applicable episode)');
  if (costPerEpisodeValue.num < 0n) throw new ValidationError('efficiency view: cost per episode must not be negative');
  const problem = modelIdProblem(unit);
  if (problem !== null) throw new ValidationError(`efficiency view: cost unit ${problem}`);
  const score = Rational.parse(report.score);
  return {
    model_id: report.model_id,
    ember_score: score.toFraction(),
    cost_per_episode: costPerEpisodeValue.toFraction(),
    cost_unit: unit,
    points_per_unit: costPerEpisodeValue.isZero() ? null : score.div(costPerEpisodeValue).toFraction(),
  };
}

/** The view from a report and the operational record of the same model (ValidationError otherwise, or without a cost). */
export function efficiencyViewOfRecord(report: EfficiencySubject, record: OperationalRecord): EfficiencyView {
  if (record.model_id !== report.model_id) {
    throw new ValidationError(`efficiency view: the operational record is for model ${JSON.stringify(record.model_id)}, the score report for ${JSON.stringify(report.model_id)}`);
  }
  const perEpisode = costPerEpisode(record);
  if (perEpisode === null || record.cost_unit === null) throw new ValidationError('efficiency view: the operational record has no cost (cost and cost_unit are null)');
  return efficiencyView(report, perEpisode, record.cost_unit);
}
