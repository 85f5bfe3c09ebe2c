/**
 * The per-episode evidence of a score report and its validator
 * (scoring-v1.0.md sections 4.1 and 4.4).
 *
 * Every scheduled episode has one entry with one evidence record per trial.
 * A record of an authenticated episode-trial holds the person-level ID sets,
 * the references, the realized values they bound, the congestion
 * diagnostics, the score breakdown and the score, so every count and every
 * component can be audited without the run records.
 *
 * The validator (validateEpisodeEvidence) fails closed. It rejects a record
 * whose identity sets overlap, are not sorted, name unknown people or do not
 * match the counts, whose references contradict each other or the realized
 * values, or whose breakdown or score differs from the score recomputed from
 * its own integers. What it cannot check without the records (that the
 * integers are those of the trajectory) is what `score` establishes by
 * authenticating every result from scratch.
 */

import { ValidationError, type FailureKind } from '../errors.js';
import { HEX64 } from '../hash.js';
import { canonicalJson, type JsonValue } from '../json/canonical.js';
import type { FieldReader } from '../json/fields.js';
import { Rational, mean } from '../stats/rational.js';
import { SCORE_PLACES } from './constants.js';
import { dec, toPlain } from './decimal.js';
import type { ActualEvidence, CongestionEvidence, EpisodeFacts, PeopleEvidence, ReferenceEvidence } from './episode-evaluation.js';
import { scoreEpisode, type EpisodeScoreInput } from './episode-score.js';

export type EpisodeTrialStatus = 'scored' | 'catastrophic' | 'failed' | 'not_applicable';
export const EPISODE_TRIAL_STATUSES: readonly EpisodeTrialStatus[] = ['scored', 'catastrophic', 'failed', 'not_applicable'];

/** Why a scheduled episode has no authenticated result: `missing` when nothing was declared. */
export type EpisodeFailureKind = 'missing' | FailureKind;
export const EPISODE_FAILURE_KINDS: readonly EpisodeFailureKind[] = ['missing', 'invalid_output', 'model_error', 'timeout'];

/** The score components, in report order: the Safety factors, then the quality components. */
export const COMPONENTS = ['evacuation', 'casualty', 'stranding', 'time', 'hazard', 'path', 'replanning'] as const;
export type ComponentName = (typeof COMPONENTS)[number];
export const QUALITY_COMPONENTS = ['time', 'hazard', 'path', 'replanning'] as const;
export type QualityComponentName = (typeof QUALITY_COMPONENTS)[number];

/** The episode score's parts (decimal strings as the episode score writes them; null = undefined). */
export interface ScoreBreakdown {
  readonly components: { readonly [K in ComponentName]: string | null };
  readonly safety: string;
  /** Null when no quality component is defined (no evacuee: always catastrophic). */
  readonly quality: string | null;
  readonly severity: string;
  /** The severe quality components, in QUALITY_COMPONENTS order. */
  readonly severe: readonly QualityComponentName[];
  /** 100 * Safety * Severity. */
  readonly ceiling: string;
}

export interface FailureEvidence {
  readonly kind: EpisodeFailureKind;
  readonly message: string;
}

/**
 * One episode-trial. By status:
 * - scored, catastrophic: everything but `failure` is set;
 * - failed: only `failure` and `score` (0);
 * - not_applicable: `score` and `breakdown` are null; the facts are set
 *   when the trial has a result, `failure` when it has none.
 */
export interface EpisodeTrialEvidence {
  readonly trial: number;
  readonly status: EpisodeTrialStatus;
  readonly failure: FailureEvidence | null;
  /** Digest of the authenticated run record. */
  readonly record_digest: string | null;
  readonly people: PeopleEvidence | null;
  readonly references: ReferenceEvidence | null;
  readonly actual: ActualEvidence | null;
  readonly congestion: CongestionEvidence | null;
  readonly breakdown: ScoreBreakdown | null;
  /** The episode-trial score in points (decimal string, 1e-9), null when not applicable. */
  readonly score: string | null;
}

/** One scheduled episode: where it sits in the hierarchy, its references and its trials. */
export interface EpisodeEvidence {
  readonly index: number;
  readonly scenario_id: string;
  readonly primary_family: string;
  readonly population: number;
  /** M*; 0 makes the episode not applicable for every model. */
  readonly max_evacuated: number;
  readonly applicable: boolean;
  /** The episode score: the exact mean over its trials ("num/den"); null when not applicable. */
  readonly score: string | null;
  readonly trials: readonly EpisodeTrialEvidence[];
}

// ---------------------------------------------------------------------------
// The episode score of the facts (the validator recomputes it from the evidence)

/** The score of an episode-trial that fails (the text form of 0 points). */
export const ZERO_SCORE = toPlain(dec(0), SCORE_PLACES);

/** The episode-score input of the facts: exact integers and exact ratios (scoring-v1.0.md 4.1, 4.2). */
export function scoreInputOf(facts: EpisodeFacts): EpisodeScoreInput {
  const { people, references: ref, actual } = facts;
  const evacuees = people.evacuated > 0;
  return {
    maxEvacuated: ref.max_evacuated,
    population: people.population,
    evacuated: people.evacuated,
    avoidableCasualties: people.avoidable_casualties,
    avoidableStranded: people.avoidable_stranded,
    time: evacuees ? { bound: ref.evacuee_time_cut_bound, actual: actual.evacuation_steps } : null,
    hazard: evacuees ? { dangerStates: actual.danger_states, fewestDangerStates: ref.fewest_danger_states, evacuationSteps: actual.evacuation_steps } : null,
    path: evacuees ? { bound: ref.fewest_moves, actual: actual.cells_moved } : null,
    replanning: actual.recoverable_route_events > 0 ? { bound: ref.replanning_bound, actual: actual.replanning_steps } : null,
  };
}

export interface ScoredFacts {
  readonly status: 'scored' | 'catastrophic';
  readonly breakdown: ScoreBreakdown;
  readonly score: string;
}

/** The episode score of an applicable episode-trial's facts (M* >= 1). */
export function scoreFromFacts(facts: EpisodeFacts): ScoredFacts {
  const result = scoreEpisode(scoreInputOf(facts));
  switch (result.status) {
    case 'not_applicable':
      throw new ValidationError('scoring input error: an episode with M* = 0 is not applicable and has no score');
    case 'scored':
    case 'catastrophic':
      return {
        status: result.status,
        breakdown: {
          components: result.components,
          safety: result.safety!,
          quality: result.quality,
          severity: result.severity!,
          severe: result.severe,
          ceiling: result.ceiling!,
        },
        score: result.score!,
      };
  }
}

/** The exact episode score: the mean over its trials of the trial scores ("num/den"), null when not applicable. */
export function episodeScoreOf(trials: readonly EpisodeTrialEvidence[], applicable: boolean): string | null {
  if (!applicable) return null;
  return mean(trials.map((t) => Rational.parse(t.score!))).toFraction();
}

// ---------------------------------------------------------------------------
// Validation

const PERSON_ID = /^p[0-9]{4}$/;

function fail(path: string, problem: string): never {
  throw new ValidationError(`${path}: ${problem}`);
}

/** The person indices of an ID list: well-formed, in the population, strictly increasing. */
function checkIdList(ids: readonly string[], population: number, path: string): number[] {
  const out: number[] = [];
  ids.forEach((id, k) => {
    if (!PERSON_ID.test(id)) fail(`${path}[${k}]`, `${JSON.stringify(id)} is not a person ID`);
    const index = Number(id.slice(1));
    if (index >= population) fail(`${path}[${k}]`, `${id} is not a person of the episode (population ${population})`);
    if (k > 0 && index <= out[k - 1]!) fail(`${path}[${k}]`, `${id} is not sorted after ${ids[k - 1]} (IDs are sorted, without repeats)`);
    out.push(index);
  });
  return out;
}

const ID_LISTS = ['avoidable_casualty_ids', 'avoidable_stranded_ids', 'unavoidable_casualty_ids', 'unavoidable_stranded_ids'] as const;

/** The integers of one authenticated episode-trial must be consistent with each other and with the episode. */
function checkFacts(facts: EpisodeFacts, episode: EpisodeEvidence, path: string): void {
  const { people, references: ref, actual, congestion } = facts;
  if (people.population !== episode.population) fail(`${path}.people.population`, `is ${people.population}, the episode has ${episode.population} people`);
  if (ref.max_evacuated !== episode.max_evacuated) fail(`${path}.references.max_evacuated`, `is ${ref.max_evacuated}, the episode's M* is ${episode.max_evacuated}`);
  const owner = new Map<number, string>();
  for (const list of ID_LISTS) {
    for (const index of checkIdList(people[list], people.population, `${path}.people.${list}`)) {
      const other = owner.get(index);
      if (other !== undefined) fail(`${path}.people.${list}`, `p${String(index).padStart(4, '0')} is also in ${other} (the loss classes are disjoint)`);
      owner.set(index, list);
    }
  }
  if (people.avoidable_casualties !== people.avoidable_casualty_ids.length) {
    fail(`${path}.people.avoidable_casualties`, `is ${people.avoidable_casualties} but ${people.avoidable_casualty_ids.length} IDs are listed`);
  }
  if (people.avoidable_stranded !== people.avoidable_stranded_ids.length) {
    fail(`${path}.people.avoidable_stranded`, `is ${people.avoidable_stranded} but ${people.avoidable_stranded_ids.length} IDs are listed`);
  }
  // Every savable person is evacuated or an avoidable loss; every unsavable one an unavoidable loss.
  const savable = people.evacuated + people.avoidable_casualties + people.avoidable_stranded;
  if (savable !== ref.max_evacuated) fail(`${path}.people`, `evacuated + avoidable losses = ${savable}, but M* = ${ref.max_evacuated}`);
  const unavoidable = people.unavoidable_casualty_ids.length + people.unavoidable_stranded_ids.length;
  if (savable + unavoidable !== people.population) fail(`${path}.people`, `the outcome classes hold ${savable + unavoidable} people, the population is ${people.population}`);

  const none = people.evacuated === 0;
  const order: [string, number, string, number][] = [
    ['evacuated', people.evacuated, 'references.earliest_sum', ref.earliest_sum],
    ['references.earliest_sum', ref.earliest_sum, 'references.evacuee_time_queue_bound', ref.evacuee_time_queue_bound],
    ['references.evacuee_time_queue_bound', ref.evacuee_time_queue_bound, 'references.evacuee_time_cut_bound', ref.evacuee_time_cut_bound],
    ['references.evacuee_time_cut_bound', ref.evacuee_time_cut_bound, 'actual.evacuation_steps', actual.evacuation_steps],
    ['evacuated', people.evacuated, 'references.fewest_moves', ref.fewest_moves],
    ['references.fewest_moves', ref.fewest_moves, 'actual.cells_moved', actual.cells_moved],
    ['references.fewest_danger_states', ref.fewest_danger_states, 'actual.danger_states', actual.danger_states],
    ['actual.danger_states', actual.danger_states, 'actual.evacuation_steps', actual.evacuation_steps],
    ['actual.recoverable_route_events', actual.recoverable_route_events, 'actual.route_events', actual.route_events],
    ['actual.recoverable_route_events', actual.recoverable_route_events, 'references.replanning_bound', ref.replanning_bound],
    ['references.replanning_bound', ref.replanning_bound, 'actual.replanning_steps', actual.replanning_steps],
    ['congestion.blocked_moves', congestion.blocked_moves, 'congestion.moves_attempted', congestion.moves_attempted],
    ['congestion.peak_contested_cells', congestion.peak_contested_cells, 'congestion.contested_cell_steps', congestion.contested_cell_steps],
    ['congestion.hotspot_cells', congestion.hotspot_cells, 'congestion.contested_cell_steps', congestion.contested_cell_steps],
    ['congestion.exit_evacuations', congestion.exit_evacuations, 'congestion.exit_window_steps', congestion.exit_window_steps],
  ];
  for (const [lowName, low, highName, high] of order) {
    if (low > high) fail(path, `${lowName} (${low}) exceeds ${highName} (${high}): an actual value below its bound`);
  }
  if (none && actual.evacuation_steps + actual.cells_moved + actual.danger_states + ref.fewest_danger_states !== 0) {
    fail(`${path}.actual`, 'has evacuee sums but nobody was evacuated');
  }
  if (actual.recoverable_route_events === 0 && actual.replanning_steps !== 0) fail(`${path}.actual.replanning_steps`, 'must be 0 without a recoverable event');
  if (congestion.exit_evacuations !== people.evacuated) fail(`${path}.congestion.exit_evacuations`, `is ${congestion.exit_evacuations}, but ${people.evacuated} people were evacuated`);
  if (congestion.exit_evacuations === 0 && congestion.exit_window_steps !== 0) fail(`${path}.congestion.exit_window_steps`, 'must be 0 without an evacuation');
}

function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a as JsonValue) === canonicalJson(b as JsonValue);
}

function factsOf(t: EpisodeTrialEvidence): EpisodeFacts | null {
  const parts = [t.people, t.references, t.actual, t.congestion, t.record_digest];
  if (parts.every((p) => p === null)) return null;
  if (parts.some((p) => p === null)) return fail(`trials[${t.trial}]`, 'has some but not all of record_digest, people, references, actual and congestion');
  return { people: t.people!, references: t.references!, actual: t.actual!, congestion: t.congestion! };
}

function checkTrial(t: EpisodeTrialEvidence, episode: EpisodeEvidence, path: string): void {
  const facts = factsOf(t);
  if (t.record_digest !== null && !HEX64.test(t.record_digest)) fail(`${path}.record_digest`, 'must be 64 lowercase hex digits');
  if ((facts === null) === (t.failure === null)) fail(path, 'must have either an authenticated result (record and facts) or a failure, not both or neither');
  if (facts !== null) checkFacts(facts, episode, path);
  switch (t.status) {
    case 'failed':
      if (!episode.applicable) fail(`${path}.status`, 'is failed, but the episode is not applicable (M* = 0), so it stays not_applicable');
      if (t.failure === null) fail(`${path}.failure`, 'is missing for a failed episode-trial');
      if (t.breakdown !== null || t.score !== ZERO_SCORE) fail(path, `a failed episode-trial has no breakdown and scores ${ZERO_SCORE}`);
      return;
    case 'not_applicable':
      if (episode.applicable) fail(`${path}.status`, `is not_applicable, but the episode's M* is ${episode.max_evacuated}`);
      if (t.breakdown !== null || t.score !== null) fail(path, 'a not_applicable episode-trial has no breakdown and no score');
      return;
    case 'scored':
    case 'catastrophic': {
      if (facts === null) fail(path, `a ${t.status} episode-trial needs its authenticated facts`);
      if (!episode.applicable) fail(`${path}.status`, `is ${t.status}, but the episode is not applicable (M* = 0)`);
      const expected = scoreFromFacts(facts);
      if (expected.status !== t.status) fail(`${path}.status`, `is ${t.status}, the facts give ${expected.status}`);
      if (!sameJson(expected.breakdown, t.breakdown)) fail(`${path}.breakdown`, 'differs from the breakdown recomputed from the facts');
      if (expected.score !== t.score) fail(`${path}.score`, `is ${t.score}, the facts give ${expected.score}`);
      return;
    }
  }
}

/**
 * Validates one episode's evidence: `trials` records numbered 0..K-1, each
 * consistent in itself, with the episode and with its recomputed score, and
 * the episode score equal to the mean of the trial scores.
 */
export function validateEpisodeEvidence(episode: EpisodeEvidence, trials: number, path: string): void {
  if (episode.applicable !== episode.max_evacuated > 0) fail(`${path}.applicable`, `must be ${episode.max_evacuated > 0} when M* = ${episode.max_evacuated}`);
  if (episode.max_evacuated > episode.population) fail(`${path}.max_evacuated`, `exceeds the population ${episode.population}`);
  if (episode.trials.length !== trials) fail(`${path}.trials`, `has ${episode.trials.length} records, the report has ${trials} trials`);
  episode.trials.forEach((t, k) => {
    if (t.trial !== k) fail(`${path}.trials[${k}].trial`, `must be ${k}`);
    checkTrial(t, episode, `${path}.trials[${k}]`);
  });
  const expected = episodeScoreOf(episode.trials, episode.applicable);
  if (expected !== episode.score) fail(`${path}.score`, `is ${JSON.stringify(episode.score)}, the mean over trials is ${JSON.stringify(expected)}`);
}

// ---------------------------------------------------------------------------
// Strict structural reading (types and exact keys; values by the validator)

function readInts<K extends string>(r: FieldReader, value: JsonValue | undefined, path: string, keys: readonly K[]): { [P in K]: number } {
  const obj = r.object(value, path, keys);
  const out = {} as { [P in K]: number };
  for (const key of keys) out[key] = r.integer(obj[key], `${path}.${key}`);
  return out;
}

function readPeople(r: FieldReader, value: JsonValue | undefined, path: string): PeopleEvidence {
  const obj = r.object(value, path, ['avoidable_casualties', 'avoidable_stranded', 'evacuated', 'population', ...ID_LISTS]);
  const ids = (key: (typeof ID_LISTS)[number]) => r.array(obj[key], `${path}.${key}`).map((v, k) => r.string(v, `${path}.${key}[${k}]`));
  return {
    population: r.integer(obj.population, `${path}.population`),
    evacuated: r.integer(obj.evacuated, `${path}.evacuated`),
    avoidable_casualties: r.integer(obj.avoidable_casualties, `${path}.avoidable_casualties`),
    avoidable_stranded: r.integer(obj.avoidable_stranded, `${path}.avoidable_stranded`),
    avoidable_casualty_ids: ids('avoidable_casualty_ids'),
    avoidable_stranded_ids: ids('avoidable_stranded_ids'),
    unavoidable_casualty_ids: ids('unavoidable_casualty_ids'),
    unavoidable_stranded_ids: ids('unavoidable_stranded_ids'),
  };
}

const REFERENCE_KEYS = ['earliest_sum', 'evacuee_time_cut_bound', 'evacuee_time_queue_bound', 'fewest_danger_states', 'fewest_moves', 'max_evacuated', 'replanning_bound'] as const;
const ACTUAL_KEYS = ['cells_moved', 'danger_states', 'evacuation_steps', 'recoverable_route_events', 'replanning_steps', 'route_events'] as const;
const CONGESTION_KEYS = ['blocked_moves', 'contested_cell_steps', 'exit_evacuations', 'exit_window_steps', 'hotspot_cells', 'moves_attempted', 'peak_contested_cells'] as const;

function readBreakdown(r: FieldReader, value: JsonValue | undefined, path: string): ScoreBreakdown {
  const obj = r.object(value, path, ['ceiling', 'components', 'quality', 'safety', 'severe', 'severity']);
  const comps = r.object(obj.components, `${path}.components`, COMPONENTS);
  const components = Object.fromEntries(
    COMPONENTS.map((k) => [k, r.nullable(comps[k], `${path}.components.${k}`, (v, p) => r.string(v, p))]),
  ) as { [K in ComponentName]: string | null };
  const severe = r.array(obj.severe, `${path}.severe`).map((v, k) => r.literal(v, `${path}.severe[${k}]`, QUALITY_COMPONENTS));
  return {
    components,
    safety: r.string(obj.safety, `${path}.safety`),
    quality: r.nullable(obj.quality, `${path}.quality`, (v, p) => r.string(v, p)),
    severity: r.string(obj.severity, `${path}.severity`),
    severe,
    ceiling: r.string(obj.ceiling, `${path}.ceiling`),
  };
}

const TRIAL_KEYS = ['actual', 'breakdown', 'congestion', 'failure', 'people', 'record_digest', 'references', 'score', 'status', 'trial'];

function readTrial(r: FieldReader, value: JsonValue, path: string): EpisodeTrialEvidence {
  const obj = r.object(value, path, TRIAL_KEYS);
  return {
    trial: r.integer(obj.trial, `${path}.trial`),
    status: r.literal(obj.status, `${path}.status`, EPISODE_TRIAL_STATUSES),
    failure: r.nullable(obj.failure, `${path}.failure`, (v, p) => {
      const f = r.object(v, p, ['kind', 'message']);
      return { kind: r.literal(f.kind, `${p}.kind`, EPISODE_FAILURE_KINDS), message: r.string(f.message, `${p}.message`) };
    }),
    record_digest: r.nullable(obj.record_digest, `${path}.record_digest`, (v, p) => r.string(v, p, HEX64)),
    people: r.nullable(obj.people, `${path}.people`, (v, p) => readPeople(r, v, p)),
    references: r.nullable(obj.references, `${path}.references`, (v, p) => readInts(r, v, p, REFERENCE_KEYS)),
    actual: r.nullable(obj.actual, `${path}.actual`, (v, p) => readInts(r, v, p, ACTUAL_KEYS)),
    congestion: r.nullable(obj.congestion, `${path}.congestion`, (v, p) => readInts(r, v, p, CONGESTION_KEYS)),
    breakdown: r.nullable(obj.breakdown, `${path}.breakdown`, (v, p) => readBreakdown(r, v, p)),
    score: r.nullable(obj.score, `${path}.score`, (v, p) => r.string(v, p)),
  };
}

const EPISODE_KEYS = ['applicable', 'index', 'max_evacuated', 'population', 'primary_family', 'scenario_id', 'score', 'trials'];

/** Reads one episode entry's structure (exact keys and types); validateEpisodeEvidence checks its values. */
export function readEpisodeEvidence(r: FieldReader, value: JsonValue, path: string): EpisodeEvidence {
  const obj = r.object(value, path, EPISODE_KEYS);
  return {
    index: r.integer(obj.index, `${path}.index`),
    scenario_id: r.string(obj.scenario_id, `${path}.scenario_id`),
    primary_family: r.string(obj.primary_family, `${path}.primary_family`),
    population: r.integer(obj.population, `${path}.population`),
    max_evacuated: r.integer(obj.max_evacuated, `${path}.max_evacuated`),
    applicable: r.boolean(obj.applicable, `${path}.applicable`),
    score: r.nullable(obj.score, `${path}.score`, (v, p) => r.string(v, p)),
    trials: r.array(obj.trials, `${path}.trials`).map((t, k) => readTrial(r, t, `${path}.trials[${k}]`)),
  };
}
