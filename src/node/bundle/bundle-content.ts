/**
 * What an official bundle holds, computed from its inputs: the pack's files,
 * the results, and every artifact the CLI would write for them (score
 * reports and summaries, statistics, the comparison). `bundle create` writes
 * this; `bundle verify` computes it again from the bundle's own pack and
 * results and requires every byte to be the same.
 */

import { BUNDLE_PACK_DIR, BUNDLE_VERSION, modelDir, type BundleIndex, type BundleModel } from '../../core/bundle/bundle-index.js';
import { fieldError } from '../../core/errors.js';
import { sha256Hex } from '../../core/hash.js';
import type { EnvironmentPack } from '../../core/pack/pack.js';
import { compareReportSteps, comparisonText } from '../../core/scoring/compare.js';
import { parseOperationalRecordText } from '../../core/scoring/operational.js';
import { parseScoreReportText, reportView } from '../../core/scoring/report-reader.js';
import { scoreReportDigest, scoreReportText } from '../../core/scoring/report.js';
import { summaryText } from '../../core/scoring/summary.js';
import { aggregateStatisticSteps, statisticsSubject, statisticsText, type StatisticsSubject } from '../../core/stats/aggregate.js';
import type { ScoringTrial } from '../../core/scoring/scored-trials.js';
import { DEFAULT_RESAMPLES } from '../../core/stats/bootstrap.js';
import { comparisonSummary } from '../../core/scoring/compare.js';
import { fileSha256 } from '../files.js';
import { runSteps, type Steps } from '../../core/steps.js';
import { authenticateAgainstSteps, scoreAuthenticatedSteps, streamedTrialSteps } from '../workflows/score.js';

export interface BundleInput {
  readonly pack: EnvironmentPack;
  /** The pack directory's files, by bundle-relative path under pack/ (pack.json, manifest.json, suite/...). */
  readonly packFiles: ReadonlyMap<string, Uint8Array>;
  /** The results with the names messages use; grouped by model in order of first appearance. */
  readonly results: readonly BundleResult[];
  /** Operational records (at most one per model), with their names. */
  readonly operational: readonly { readonly text: string; readonly source: string }[];
  readonly resamples: number;
}

/**
 * A result for the bundle: its text, read whole; or, for a file too large
 * for one string, its path: it is authenticated and scored by streaming and
 * copied into the bundle as it is.
 */
export type BundleResult = { readonly source: string; readonly text: string } | { readonly source: string; readonly path: string };

/** A file on disk that goes into the bundle as it is, with the sha256 of its bytes. */
export interface FileCopy {
  readonly path: string;
  readonly sha256: string;
}

/** A bundle file: its bytes, or a file to copy. */
export type BundleFileSource = Uint8Array | FileCopy;

export interface BundleContent {
  readonly index: BundleIndex;
  /** Every file but bundle.json, by bundle-relative path. */
  readonly files: ReadonlyMap<string, BundleFileSource>;
  /** Each result's fileDigest (its text's, as authenticated) by bundle-relative path: a reader of its episodes checks it. */
  readonly resultDigests: ReadonlyMap<string, string>;
}

const utf8 = (text: string): Uint8Array => Buffer.from(text, 'utf8');

interface ModelTrial {
  readonly trial: ScoringTrial;
  readonly subject: StatisticsSubject;
  readonly file: BundleFileSource;
  readonly source: string;
}

interface ModelGroup {
  readonly modelId: string;
  readonly trials: ModelTrial[];
}

function* groupByModel(pack: EnvironmentPack, results: BundleInput['results']): Steps<ModelGroup[]> {
  if (results.length === 0) throw fieldError('results', 'give at least one evaluation result');
  const groups: ModelGroup[] = [];
  const groupOf = (modelId: string): ModelGroup => {
    let group = groups.find((g) => g.modelId === modelId);
    if (group === undefined) groups.push((group = { modelId, trials: [] }));
    return group;
  };
  for (const result of results) {
    const { source } = result;
    if ('text' in result) {
      const auth = yield* authenticateAgainstSteps(pack.suite, pack, result.text, source);
      groupOf(auth.result.model_id).trials.push({ trial: auth, subject: statisticsSubject(auth), file: utf8(result.text), source });
      continue;
    }
    // Hashed before it is read: should the file change after, its copy no longer matches and the bundle is not published.
    const sha256 = fileSha256(result.path);
    // Its trial number within its model is known from its head, before its episodes are evaluated.
    let group: ModelGroup | undefined;
    const streamed = yield* streamedTrialSteps(pack.suite, pack, result.path, (head) => (group = groupOf(head.modelId)).trials.length);
    group!.trials.push({ trial: streamed.trial, subject: streamed.subject, file: { path: result.path, sha256 }, source });
  }
  if (groups.length > 2) {
    throw fieldError('results', `the results are of ${groups.length} models (${groups.map((g) => JSON.stringify(g.modelId)).join(', ')}); a bundle holds one model, or two to compare`);
  }
  return groups;
}

/** Builds the whole bundle content; throws (exit 3/5) when any input does not authenticate. */
export function bundleContent(input: BundleInput): BundleContent {
  return runSteps(bundleContentSteps(input));
}

/** bundleContent as steps (src/core/steps.ts): the same content, byte for byte; replays and bootstraps yield their progress. */
export function* bundleContentSteps(input: BundleInput): Steps<BundleContent> {
  const { pack } = input;
  const files = new Map<string, BundleFileSource>();
  for (const [path, bytes] of input.packFiles) files.set(`${BUNDLE_PACK_DIR}/${path}`, bytes);

  const groups = yield* groupByModel(pack, input.results);
  const operational = new Map<string, string>();
  for (const { text, source } of input.operational) {
    const record = parseOperationalRecordText(text, source);
    if (!groups.some((g) => g.modelId === record.model_id)) {
      throw fieldError('operational', `${source}: is a record of model ${JSON.stringify(record.model_id)}, which has no result in the bundle`);
    }
    if (operational.has(record.model_id)) throw fieldError('operational', `${source}: a second operational record of model ${JSON.stringify(record.model_id)}`);
    operational.set(record.model_id, text);
  }

  const reports: string[] = [];
  const resultDigests = new Map<string, string>();
  const models: BundleModel[] = [];
  for (const [position, group] of groups.entries()) {
    const dir = modelDir(position);
    for (const [k, t] of group.trials.entries()) {
      files.set(`${dir}/trial-${k + 1}.result.json`, t.file);
      resultDigests.set(`${dir}/trial-${k + 1}.result.json`, t.trial.digest);
      files.set(`${dir}/statistics-${k + 1}.json`, utf8(statisticsText(yield* aggregateStatisticSteps(t.subject, input.resamples))));
    }
    const report = yield* scoreAuthenticatedSteps({
      suite: pack.suite,
      pack,
      trials: group.trials.map((t) => t.trial),
      results: group.trials.map((t) => ({ source: t.source })),
      resamples: input.resamples,
    });
    const text = scoreReportText(report);
    reports.push(text);
    files.set(`${dir}/score.json`, utf8(text));
    files.set(`${dir}/score.txt`, utf8(summaryText(report)));
    const record = operational.get(group.modelId);
    if (record !== undefined) files.set(`${dir}/operational.json`, utf8(record));
    models.push({
      model_id: group.modelId,
      dir,
      trials: group.trials.length,
      score: report.score,
      official: report.official,
      report_digest: scoreReportDigest(text),
      operational: record !== undefined,
    });
  }

  let outcome: string | null = null;
  if (reports.length === 2) {
    const [a, b] = reports.map((text, k) => reportView(parseScoreReportText(text, `${modelDir(k)}/score.json`)));
    const comparison = yield* compareReportSteps(a!, b!, input.resamples, `${modelDir(0)}/score.json`, `${modelDir(1)}/score.json`);
    files.set('comparison.json', utf8(comparisonText(comparison.artifact)));
    files.set('comparison.txt', utf8(comparisonSummary(comparison).join('\n') + '\n'));
    outcome = comparison.artifact.outcome;
  }

  const index: BundleIndex = {
    bundle_version: BUNDLE_VERSION,
    pack_id: pack.packId,
    pack_digest: pack.digest,
    manifest_hash: pack.manifestHash,
    models,
    comparison_outcome: outcome,
    files: [...files.keys()].sort().map((file) => ({ file, sha256: digestOf(files.get(file)!) })),
  };
  return { index, files, resultDigests };
}

function digestOf(file: BundleFileSource): string {
  return file instanceof Uint8Array ? sha256Hex(file) : file.sha256;
}

export { DEFAULT_RESAMPLES as DEFAULT_BUNDLE_RESAMPLES };
