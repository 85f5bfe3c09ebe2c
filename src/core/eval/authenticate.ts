/**
 * Authentication of an evaluation result (evaluation.md section 3, cli-v1.0.md
 * "evaluation verify"): loading re-checks everything and fails closed.
 *
 * - The text is a strict, canonical result (result.ts): else exit 3.
 * - The embedded manifest pins the running versions and targets the suite;
 *   manifest_hash is its hash; the model ID passes the model ID check.
 * - Committed episodes and failure declarations are in strictly increasing
 *   index order, scheduled, and never both for one index.
 * - Every record belongs to its manifest episode (scenario and seed), replays
 *   exactly (MismatchError, exit 5, naming episodes[i]) and its stored
 *   metrics equal the metrics recomputed from the replay.
 * - Then the caller's requirements: a required manifest and completeness
 *   (MismatchError, exit 5).
 *
 * measureRecord is the one code path that turns a record into metrics: the
 * runner uses it before it commits an episode, verify uses it here.
 */

import { MismatchError, ValidationError } from '../errors.js';
import { canonicalJson } from '../json/canonical.js';
import { MetricsObserver, type EpisodeMetrics, type PersonMetrics } from '../metrics/metrics.js';
import type { EpisodeOutcome } from '../sim/events.js';
import type { RunRecord } from '../sim/record.js';
import { replayFromStart } from '../sim/authenticate-record.js';
import { prepareEpisode } from '../world/episode-start.js';
import type { EpisodeStart, Scenario } from '../world/scenario-types.js';
import type { Suite } from '../world/suite.js';
import { checkManifestTargetsSuite, manifestHash, requireSameManifest, type EvaluationManifest, type ManifestEpisode } from './manifest.js';
import { modelIdProblem } from './model-id.js';
import { parseResultText, resultDigest, type EvaluationResult, type FailureDeclaration, type ResultEpisode } from './result.js';
import { runSteps, type Steps } from '../steps.js';

/** An authenticated record: its episode start, replayed outcome and recomputed metrics. */
export interface MeasuredEpisode {
  readonly start: EpisodeStart;
  readonly outcome: EpisodeOutcome;
  readonly metrics: EpisodeMetrics;
  /** Per-person data of the metrics pass (the scorer reuses it). */
  readonly persons: PersonMetrics;
}

export interface AuthenticatedEpisode extends MeasuredEpisode {
  readonly index: number;
  readonly scheduled: ManifestEpisode;
  readonly record: RunRecord;
}

export interface AuthenticatedResult {
  readonly result: EvaluationResult;
  /** fileDigest of the result text. */
  readonly digest: string;
  readonly manifestHash: string;
  /** The committed episodes in index order. */
  readonly episodes: readonly AuthenticatedEpisode[];
  /** The declared failures in index order. */
  readonly failures: readonly FailureDeclaration[];
  readonly scheduledEpisodes: number;
  /** Every scheduled episode has a committed result. */
  readonly complete: boolean;
}

export interface AuthenticateOptions {
  /** The result must embed exactly this manifest (else MismatchError, exit 5). */
  readonly requiredManifest?: EvaluationManifest;
  /** Every scheduled episode must have a committed result (else MismatchError, exit 5). */
  readonly requireComplete?: boolean;
}

/**
 * Replays a record against its scenario and computes its metrics from the
 * replayed step events. `source` prefixes every message
 * (`result.json: episodes[3].record: trajectory[2].moved: ...`).
 */
export function measureRecord(scenario: Scenario, record: RunRecord, source: string): MeasuredEpisode {
  const start = prepareEpisode(scenario, record.seed);
  const observer = new MetricsObserver(start);
  const replay = replayFromStart(start, record, [observer], source);
  return { start, outcome: replay.outcome, metrics: observer.result(), persons: observer.personMetrics() };
}

/** One index of a list whose indices must be strictly increasing (sorted, no duplicates) and scheduled. */
export function checkIndexAt(index: number, previous: number | undefined, i: number, field: string, scheduled: number, source: string): void {
  const path = `${source}: ${field}[${i}].index`;
  if (index >= scheduled) throw new ValidationError(`${path}: ${index} is not a scheduled episode (the manifest schedules ${scheduled})`);
  if (previous !== undefined && index === previous) throw new ValidationError(`${path}: duplicate episode index ${index}`);
  if (previous !== undefined && index < previous) throw new ValidationError(`${path}: ${index} is out of order (indices must increase)`);
}

/** Indices must be strictly increasing (sorted, no duplicates) and scheduled. */
function checkIndices(items: readonly { readonly index: number }[], field: string, scheduled: number, source: string): void {
  items.forEach(({ index }, i) => checkIndexAt(index, items[i - 1]?.index, i, field, scheduled, source));
}

/**
 * The checks of a result that need no episode: the manifest targets the
 * suite, manifest_hash is its hash, the model ID passes. Returns the hash.
 */
export function authenticateResultHead(result: EvaluationResult, source: string, suite: Suite): string {
  checkManifestTargetsSuite(result.manifest, suite, source);
  const hash = manifestHash(result.manifest);
  if (result.manifest_hash !== hash) {
    throw new ValidationError(`${source}: manifest_hash: is ${result.manifest_hash} but the embedded manifest's hash is ${hash}`);
  }
  const problem = modelIdProblem(result.model_id);
  if (problem !== null) throw new ValidationError(`${source}: model_id: ${problem}`);
  return hash;
}

/**
 * Authenticates one committed episode (episodes[i]) whose index was
 * checked: its record belongs to the scheduled episode, replays exactly, and
 * its stored metrics equal the recomputed ones.
 */
export function authenticateEpisode(
  manifest: EvaluationManifest,
  scenarios: ReadonlyMap<string, Scenario>,
  episode: ResultEpisode,
  i: number,
  source: string,
): AuthenticatedEpisode {
  const path = `${source}: episodes[${i}]`;
  const scheduled = manifest.episodes[episode.index]!;
  checkRecordBelongs(scheduled, episode.record, `${path}.record`);
  // checkManifestTargetsSuite guarantees the scenario is in the suite.
  const scenario = scenarios.get(scheduled.scenario_id)!;
  const measured = measureRecord(scenario, episode.record, `${path}.record (episode ${episode.index})`);
  if (canonicalJson(measured.metrics) !== canonicalJson(episode.metrics)) {
    throw new ValidationError(`${path}.metrics: differ from the recomputed metrics (episode ${episode.index})`);
  }
  return { ...measured, index: episode.index, scheduled, record: episode.record };
}

/** The scenarios of a suite by ID (authenticateEpisode's lookup). */
export function scenariosById(suite: Suite): ReadonlyMap<string, Scenario> {
  return new Map(suite.entries.map((e) => [e.scenarioId, e.scenario]));
}

/** The message of a declaration for a committed episode. */
export function declaredCommittedMessage(source: string, i: number, index: number): string {
  return `${source}: failures[${i}]: declares a failure for episode ${index}, which has a committed result`;
}

/** The message of an incomplete result when completeness is required (exit 5). */
export function incompleteMessage(source: string, committed: number, scheduled: number, failed: number): string {
  return `${source}: incomplete: ${scheduled - committed} of ${scheduled} scheduled episodes have no committed result (${failed} declared failed)`;
}

function checkRecordBelongs(scheduled: ManifestEpisode, record: RunRecord, path: string): void {
  if (record.scenario_id !== scheduled.scenario_id) {
    throw new ValidationError(`${path}.scenario_id: is "${record.scenario_id}" but the manifest schedules "${scheduled.scenario_id}"`);
  }
  if (record.scenario_hash !== scheduled.scenario_hash) {
    throw new ValidationError(`${path}.scenario_hash: is ${record.scenario_hash} but the manifest schedules ${scheduled.scenario_hash}`);
  }
  // Seeds are never printed.
  if (record.seed !== scheduled.seed) throw new ValidationError(`${path}.seed: differs from the seed the manifest schedules`);
}

/**
 * Authenticates a result file's text against a suite. Returns the result
 * with, per committed episode, its start, replayed outcome and metrics.
 */
export function authenticateResult(text: string, source: string, suite: Suite, opts: AuthenticateOptions = {}): AuthenticatedResult {
  return runSteps(authenticateResultSteps(text, source, suite, opts));
}

/** authenticateResult as steps (src/core/steps.ts): one step per replayed episode, the same result. */
export function* authenticateResultSteps(text: string, source: string, suite: Suite, opts: AuthenticateOptions = {}): Steps<AuthenticatedResult> {
  return yield* authenticateParsedResultSteps(parseResultText(text, source), text, source, suite, opts);
}

/**
 * authenticateResultSteps of a result its caller parsed already from `text`
 * (parseResultText(text, source)): the same checks after the parse, so a
 * caller that had to read the result first (to know its suite) parses it once.
 */
export function* authenticateParsedResultSteps(result: EvaluationResult, text: string, source: string, suite: Suite, opts: AuthenticateOptions = {}): Steps<AuthenticatedResult> {
  const { manifest } = result;
  const hash = authenticateResultHead(result, source, suite);

  const scheduledCount = manifest.episodes.length;
  checkIndices(result.episodes, 'episodes', scheduledCount, source);
  checkIndices(result.failures, 'failures', scheduledCount, source);
  const committed = new Set(result.episodes.map((e) => e.index));
  result.failures.forEach((f, i) => {
    if (committed.has(f.index)) throw new ValidationError(declaredCommittedMessage(source, i, f.index));
  });

  const scenarios = scenariosById(suite);
  const episodes: AuthenticatedEpisode[] = [];
  for (const [i, episode] of result.episodes.entries()) {
    yield { what: 'replaying episodes', done: i, total: result.episodes.length };
    episodes.push(authenticateEpisode(manifest, scenarios, episode, i, source));
  }

  if (opts.requiredManifest !== undefined) requireSameManifest(manifest, opts.requiredManifest, source);
  const complete = episodes.length === scheduledCount;
  if (opts.requireComplete === true && !complete) {
    throw new MismatchError(incompleteMessage(source, episodes.length, scheduledCount, result.failures.length));
  }
  return {
    result,
    digest: resultDigest(text),
    manifestHash: hash,
    episodes,
    failures: result.failures,
    scheduledEpisodes: scheduledCount,
    complete,
  };
}
