/**
 * The trials of a score report, episode by scheduled episode: in each trial
 * an episode is committed, failed or missing (scoring-v1.0.md section 4.4).
 *
 * A trial comes in one of two forms, which give the same evidence byte for
 * byte:
 * - authenticated whole (AuthenticatedResult): its records are kept, and
 *   each committed episode is evaluated when the report is built;
 * - evaluated while its result was streamed (EvaluatedTrial): each committed
 *   episode was evaluated (evaluateEpisode) as soon as it was authenticated
 *   and its record dropped, so that a result of any size is scored in
 *   memory bounded by its largest episode.
 */

import type { AuthenticatedEpisode, AuthenticatedResult } from '../eval/authenticate.js';
import type { EvaluationManifest, ManifestEpisode } from '../eval/manifest.js';
import type { FailureDeclaration } from '../eval/result.js';
import { ValidationError } from '../errors.js';
import { recordBytes, recordBytesDigest } from '../sim/record.js';
import { prepareEpisode } from '../world/episode-start.js';
import type { Scenario } from '../world/scenario-types.js';
import { episodeFacts, episodeReferences, routeEventsOf } from './episode-evaluation.js';
import { ZERO_SCORE, episodeScoreOf, scoreFromFacts, type EpisodeEvidence, type EpisodeTrialEvidence, type FailureEvidence } from './evidence.js';
import type { References } from './references.js';

/** A committed episode of a streamed trial, evaluated (its record no longer needed). */
export interface EvaluatedEpisode {
  readonly index: number;
  /** The episode's population and M*: functions of its scenario and seed only. */
  readonly population: number;
  readonly maxEvacuated: number;
  /** Its evidence in the trial it was evaluated for. */
  readonly evidence: EpisodeTrialEvidence;
}

/** What a score report reads of any trial: its result's identity and declarations. */
export interface TrialIdentity {
  readonly modelId: string;
  readonly manifest: EvaluationManifest;
  readonly manifestHash: string;
  /** fileDigest of the result text. */
  readonly digest: string;
  readonly scheduledEpisodes: number;
  /** The result's own failure declarations, in index order. */
  readonly failures: readonly FailureDeclaration[];
}

/** A trial whose committed episodes were evaluated one by one as its result was streamed. */
export interface EvaluatedTrial extends TrialIdentity {
  /** The committed episodes by index. */
  readonly evaluated: ReadonlyMap<number, EvaluatedEpisode>;
}

export type ScoringTrial = AuthenticatedResult | EvaluatedTrial;

/** A trial of either form, as a score report reads it. */
export interface TrialHead extends TrialIdentity {
  readonly committedCount: number;
  hasCommitted(index: number): boolean;
}

export function trialHead(trial: ScoringTrial): TrialHead {
  if ('evaluated' in trial) {
    const { evaluated } = trial;
    return { ...trial, committedCount: evaluated.size, hasCommitted: (index) => evaluated.has(index) };
  }
  const committed = new Set(trial.episodes.map((e) => e.index));
  return {
    modelId: trial.result.model_id,
    manifest: trial.result.manifest,
    manifestHash: trial.manifestHash,
    digest: trial.digest,
    scheduledEpisodes: trial.scheduledEpisodes,
    failures: trial.failures,
    committedCount: trial.episodes.length,
    hasCommitted: (index) => committed.has(index),
  };
}

/** One trial as scoring reads it: committed episodes by index (in one of the two forms), merged failure declarations by index. */
export interface TrialEpisodes {
  readonly committed: ReadonlyMap<number, AuthenticatedEpisode>;
  readonly evaluated: ReadonlyMap<number, EvaluatedEpisode>;
  readonly failures: ReadonlyMap<number, FailureEvidence>;
  /** Names the trial's result in messages. */
  readonly source: string;
}

/** The trial's episodes for scheduledEpisodeEvidence; `failures` merged by mergeFailures. */
export function trialEpisodes(trial: ScoringTrial, failures: ReadonlyMap<number, FailureEvidence>, source: string): TrialEpisodes {
  if ('evaluated' in trial) return { committed: new Map(), evaluated: trial.evaluated, failures, source };
  return { committed: new Map(trial.episodes.map((e) => [e.index, e])), evaluated: new Map(), failures, source };
}

/** The failure message of an episode that has neither a result nor a declaration. */
export const MISSING_MESSAGE = 'no committed result and no declared failure';

/**
 * The failure declarations of a trial: the result's own, merged with the
 * operator's `extra` ones. An extra declaration must name a scheduled
 * episode without a committed result; one that the result also declares
 * must agree with it (same kind and message), else it is a conflict.
 */
export function mergeFailures(trial: ScoringTrial | TrialHead, extra: readonly FailureDeclaration[], source: string): Map<number, FailureEvidence> {
  const head = 'hasCommitted' in trial ? trial : trialHead(trial);
  const merged = new Map<number, FailureEvidence>(head.failures.map((f) => [f.index, { kind: f.kind, message: f.message }]));
  extra.forEach((f, k) => {
    const path = `${source}: failures[${k}]`;
    if (!Number.isSafeInteger(f.index) || f.index < 0 || f.index >= head.scheduledEpisodes) {
      throw new ValidationError(`${path}.index: ${f.index} is not a scheduled episode (the manifest schedules ${head.scheduledEpisodes})`);
    }
    if (head.hasCommitted(f.index)) throw new ValidationError(`${path}: declares a failure for episode ${f.index}, which has a committed result`);
    const own = merged.get(f.index);
    if (own !== undefined && (own.kind !== f.kind || own.message !== f.message)) {
      throw new ValidationError(`${path}: conflicts with the result's own declaration for episode ${f.index} (${own.kind})`);
    }
    merged.set(f.index, { kind: f.kind, message: f.message });
  });
  return merged;
}

function withSource<T>(source: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof ValidationError) throw new ValidationError(`${source}: ${error.message}`);
    throw error;
  }
}

function unscoredTrial(trial: number, applicable: boolean, failure: FailureEvidence): EpisodeTrialEvidence {
  return {
    trial,
    status: applicable ? 'failed' : 'not_applicable',
    failure,
    record_digest: null,
    people: null,
    references: null,
    actual: null,
    congestion: null,
    breakdown: null,
    score: applicable ? ZERO_SCORE : null,
  };
}

function committedTrial(trial: number, episode: AuthenticatedEpisode, refs: References, source: string): EpisodeTrialEvidence {
  const facts = withSource(source, () => episodeFacts(episode, refs, routeEventsOf(episode.start, refs, episode.record, source)));
  const common = { trial, failure: null, record_digest: recordBytesDigest(recordBytes(episode.record)), ...facts };
  // M* = 0 depends only on the scenario and the seed: such an episode is never scored, whatever happened.
  if (refs.maxEvacuated === 0) return { ...common, status: 'not_applicable', breakdown: null, score: null };
  const scored = withSource(source, () => scoreFromFacts(facts));
  return { ...common, status: scored.status, breakdown: scored.breakdown, score: scored.score };
}

/** The evidence of an authenticated episode in trial number `trial` (named `source`), computed now so that its record can go. */
export function evaluateEpisode(trial: number, episode: AuthenticatedEpisode, source: string): EvaluatedEpisode {
  const refs = episodeReferences(episode.start);
  return {
    index: episode.index,
    population: episode.start.startCells.length,
    maxEvacuated: refs.maxEvacuated,
    evidence: committedTrial(trial, episode, refs, `${source}: episode ${episode.index}`),
  };
}

/**
 * The evidence of one scheduled episode over all trials. A trial without a
 * committed result is `failed` with its declared kind, or `missing`; when
 * the episode is not applicable (M* = 0) it stays `not_applicable` even
 * then, since applicability depends only on the scenario and the seed.
 */
export function scheduledEpisodeEvidence(scheduled: ManifestEpisode, scenario: Scenario, trials: readonly TrialEpisodes[]): EpisodeEvidence {
  const index = scheduled.index;
  const authenticated = trials.map((t) => t.committed.get(index)).find((e) => e !== undefined);
  const evaluated = trials.map((t) => t.evaluated.get(index)).find((e) => e !== undefined);
  // The references are needed to evaluate an authenticated episode, or for M* when no trial evaluated this one already.
  let refs: References | undefined;
  let population: number;
  let maxEvacuated: number;
  if (authenticated !== undefined || evaluated === undefined) {
    const start = authenticated?.start ?? prepareEpisode(scenario, scheduled.seed);
    refs = episodeReferences(start);
    population = start.startCells.length;
    maxEvacuated = refs.maxEvacuated;
  } else {
    population = evaluated.population;
    maxEvacuated = evaluated.maxEvacuated;
  }
  const applicable = maxEvacuated > 0;
  const evidence = trials.map((t, k) => {
    const done = t.evaluated.get(index);
    if (done !== undefined) {
      if (done.evidence.trial !== k) throw new RangeError(`episode ${index} was evaluated for trial ${done.evidence.trial}, not ${k}`);
      return done.evidence;
    }
    const episode = t.committed.get(index);
    if (episode === undefined) return unscoredTrial(k, applicable, t.failures.get(index) ?? { kind: 'missing', message: MISSING_MESSAGE });
    return committedTrial(k, episode, refs!, `${t.source}: episode ${index}`);
  });
  return {
    index,
    scenario_id: scheduled.scenario_id,
    primary_family: scheduled.primary_family,
    population,
    max_evacuated: maxEvacuated,
    applicable,
    score: episodeScoreOf(evidence, applicable),
    trials: evidence,
  };
}
