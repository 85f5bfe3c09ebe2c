/**
 * The strict loader of a score report file (used by `score compare`, the
 * leaderboard and the archive). It fails closed, in this order:
 *
 * 1. strict JSON (no duplicate keys, integers only) with exactly the report's
 *    top-level keys;
 * 2. the header: this build's scoring and statistics versions and scoring
 *    constants digest (a report under other constants cannot be re-derived
 *    here), a valid model ID, 64-hex digests, trials numbered 0..K-1;
 * 3. every episode's evidence, structure then values (evidence.ts: sorted
 *    disjoint ID sets matching the counts, consistent references, each
 *    breakdown and score recomputed from its own integers);
 * 4. every aggregate recomputed from the header and the evidence, and the
 *    file must be exactly the canonical JSON of that report plus one LF.
 *
 * So a changed episode score, a changed headline, a changed interval or a
 * reformatted file are all rejected (ValidationError, exit 3). The digest is
 * fileDigest of the text.
 */

import { ValidationError } from '../errors.js';
import { HEX64, fileDigest } from '../hash.js';
import { canonicalJson, type JsonObject, type JsonValue } from '../json/canonical.js';
import { FieldReader } from '../json/fields.js';
import { parseJsonInput } from '../json/strict-parse.js';
import { modelIdProblem } from '../eval/model-id.js';
import { MAX_RESAMPLES } from '../stats/bootstrap.js';
import { Rational } from '../stats/rational.js';
import type { ReportView } from './compare.js';
import { SCORING_CONSTANTS_DIGEST } from './constants.js';
import { readEpisodeEvidence, validateEpisodeEvidence } from './evidence.js';
import { SCORING_VERSION, STATISTICS_VERSION, aggregateScoreReport, scoreReportText, type ScoreReport, type ScoreReportHeader, type TargetEvidence, type TrialEvidence } from './report.js';

export interface LoadedScoreReport {
  readonly report: ScoreReport;
  /** fileDigest of the report text. */
  readonly digest: string;
}

const REPORT_KEYS: readonly (keyof ScoreReport)[] = [
  'components',
  'constants_digest',
  'diagnostics',
  'episode_trials',
  'episodes',
  'families',
  'interval',
  'manifest_hash',
  'means',
  'model_id',
  'official',
  'quality',
  'resamples',
  'robustness',
  'safety',
  'scenarios',
  'score',
  'scoring_version',
  'statistics_version',
  'suite',
  'tail',
  'target',
  'totals',
  'trials',
  'zero_score',
];

function readTarget(r: FieldReader, value: JsonValue | undefined): TargetEvidence {
  const obj = r.object(value, 'target', ['kind'], ['pack_digest', 'pack_id']);
  const kind = r.literal(obj.kind, 'target.kind', ['suite', 'pack'] as const);
  switch (kind) {
    case 'suite':
      r.object(value, 'target', ['kind']);
      return { kind };
    case 'pack':
      r.object(value, 'target', ['kind', 'pack_digest', 'pack_id']);
      return { kind, pack_id: r.string(obj.pack_id, 'target.pack_id'), pack_digest: r.string(obj.pack_digest, 'target.pack_digest', HEX64) };
  }
}

function readTrials(r: FieldReader, value: JsonValue | undefined): TrialEvidence[] {
  const trials = r.array(value, 'trials').map((v, k): TrialEvidence => {
    const p = `trials[${k}]`;
    const t = r.object(v, p, ['committed_episodes', 'declared_failures', 'missing_episodes', 'result_digest', 'trial']);
    if (r.integer(t.trial, `${p}.trial`) !== k) r.fail(`${p}.trial`, `must be ${k}`);
    return {
      trial: k,
      result_digest: r.string(t.result_digest, `${p}.result_digest`, HEX64),
      committed_episodes: r.integer(t.committed_episodes, `${p}.committed_episodes`),
      declared_failures: r.integer(t.declared_failures, `${p}.declared_failures`),
      missing_episodes: r.integer(t.missing_episodes, `${p}.missing_episodes`),
    };
  });
  if (trials.length === 0) r.fail('trials', 'must hold at least one trial');
  return trials;
}

function readHeader(r: FieldReader, obj: JsonObject): ScoreReportHeader {
  const scoringVersion = r.literal(obj.scoring_version, 'scoring_version', [SCORING_VERSION]);
  const statisticsVersion = r.literal(obj.statistics_version, 'statistics_version', [STATISTICS_VERSION]);
  const constants = r.string(obj.constants_digest, 'constants_digest', HEX64);
  if (constants !== SCORING_CONSTANTS_DIGEST) {
    r.fail('constants_digest', `is ${constants}, not the official scoring constants ${SCORING_CONSTANTS_DIGEST} of this build`);
  }
  const modelId = r.string(obj.model_id, 'model_id');
  const problem = modelIdProblem(modelId);
  if (problem !== null) r.fail('model_id', problem);
  const suite = r.object(obj.suite, 'suite', ['suite_hash', 'suite_id', 'suite_version']);
  return {
    constants_digest: constants,
    manifest_hash: r.string(obj.manifest_hash, 'manifest_hash', HEX64),
    model_id: modelId,
    resamples: r.integer(obj.resamples, 'resamples', 1, MAX_RESAMPLES),
    scoring_version: scoringVersion,
    statistics_version: statisticsVersion,
    suite: {
      suite_hash: r.string(suite.suite_hash, 'suite.suite_hash', HEX64),
      suite_id: r.string(suite.suite_id, 'suite.suite_id'),
      suite_version: r.string(suite.suite_version, 'suite.suite_version'),
    },
    target: readTarget(r, obj.target),
    trials: readTrials(r, obj.trials),
  };
}

/** Loads and verifies a score report from its file text. */
export function parseScoreReportText(text: string, source: string): LoadedScoreReport {
  const value = parseJsonInput(text, source);
  const r = new FieldReader(source);
  const obj = r.object(value, '$', REPORT_KEYS);
  const header = readHeader(r, obj);
  const episodes = r.array(obj.episodes, 'episodes').map((v, k) => {
    const e = readEpisodeEvidence(r, v, `episodes[${k}]`);
    if (e.index !== k) r.fail(`episodes[${k}].index`, `must be ${k}`);
    try {
      validateEpisodeEvidence(e, header.trials.length, `episodes[${k}]`);
    } catch (error) {
      if (error instanceof ValidationError) throw new ValidationError(`${source}: ${error.message}`);
      throw error;
    }
    return e;
  });
  if (episodes.length === 0) r.fail('episodes', 'must hold every scheduled episode');
  header.trials.forEach((t, k) => {
    const records = episodes.map((e) => e.trials[k]!);
    const counts = {
      committed_episodes: records.filter((x) => x.record_digest !== null).length,
      declared_failures: records.filter((x) => x.failure !== null && x.failure.kind !== 'missing').length,
      missing_episodes: records.filter((x) => x.failure?.kind === 'missing').length,
    };
    for (const [key, value] of Object.entries(counts)) {
      if (t[key as keyof typeof counts] !== value) r.fail(`trials[${k}].${key}`, `is ${t[key as keyof typeof counts]}, the evidence has ${value}`);
    }
  });
  const report = aggregateScoreReport(header, episodes);
  for (const key of REPORT_KEYS) {
    if (canonicalJson(report[key]) !== canonicalJson(obj[key]!)) r.fail(key, 'differs from the value recomputed from the evidence');
  }
  if (scoreReportText(report) !== text) throw new ValidationError(`${source}: not canonical JSON plus one LF (a score report is never reformatted or repaired)`);
  return { report, digest: fileDigest(text) };
}

function parseOrNull(text: string | null): Rational | null {
  return text === null ? null : Rational.parse(text);
}

/** What the comparison and the leaderboard read from a loaded report. */
export function reportView(loaded: LoadedScoreReport): ReportView {
  const { report } = loaded;
  const pack = report.target.kind === 'pack' ? report.target : null;
  const trials = Rational.of(report.trials.length);
  return {
    digest: loaded.digest,
    modelId: report.model_id,
    scoringVersion: report.scoring_version,
    constantsDigest: report.constants_digest,
    manifestHash: report.manifest_hash,
    suiteHash: report.suite.suite_hash,
    official: report.official,
    packDigest: pack?.pack_digest ?? null,
    packId: pack?.pack_id ?? null,
    trials: report.trials.length,
    score: parseOrNull(report.score),
    safety: parseOrNull(report.safety.mean),
    avoidableCasualtiesPerTrial: Rational.of(report.totals.all.avoidable_casualties).div(trials),
    avoidableStrandedPerTrial: Rational.of(report.totals.all.avoidable_stranded).div(trials),
    worstScenario: report.tail.worst_scenario === null ? null : { scenarioId: report.tail.worst_scenario.scenario_id, score: Rational.parse(report.tail.worst_scenario.score) },
    episodes: report.episodes.map((e) => ({ index: e.index, scenarioId: e.scenario_id, primaryFamily: e.primary_family, score: parseOrNull(e.score) })),
  };
}
