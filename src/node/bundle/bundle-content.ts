/**
 * What an official bundle holds, computed from its inputs: the pack's files,
 * the results, and every artifact the CLI would write for them (score
 * reports and summaries, statistics, the comparison). `bundle create` writes
 * this; `bundle verify` computes it again from the bundle's own pack and
 * results and requires every byte to be the same.
 */

import { BUNDLE_PACK_DIR, BUNDLE_VERSION, modelDir, type BundleIndex, type BundleModel } from '../../core/bundle/bundle-index.js';
import { fieldError } from '../../core/errors.js';
import type { AuthenticatedResult } from '../../core/eval/authenticate.js';
import { sha256Hex } from '../../core/hash.js';
import type { EnvironmentPack } from '../../core/pack/pack.js';
import { compareReports, comparisonText } from '../../core/scoring/compare.js';
import { parseOperationalRecordText } from '../../core/scoring/operational.js';
import { parseScoreReportText, reportView } from '../../core/scoring/report-reader.js';
import { scoreReportDigest, scoreReportText } from '../../core/scoring/report.js';
import { summaryText } from '../../core/scoring/summary.js';
import { aggregateStatistics, statisticsSubject, statisticsText } from '../../core/stats/aggregate.js';
import { DEFAULT_RESAMPLES } from '../../core/stats/bootstrap.js';
import { comparisonSummary } from '../../core/scoring/compare.js';
import { authenticateAgainst, scoreAuthenticated } from '../workflows/score.js';

export interface BundleInput {
  readonly pack: EnvironmentPack;
  /** The pack directory's files, by bundle-relative path under pack/ (pack.json, manifest.json, suite/...). */
  readonly packFiles: ReadonlyMap<string, Uint8Array>;
  /** Result texts with the names messages use; grouped by model in order of first appearance. */
  readonly results: readonly { readonly text: string; readonly source: string }[];
  /** Operational records (at most one per model), with their names. */
  readonly operational: readonly { readonly text: string; readonly source: string }[];
  readonly resamples: number;
}

export interface BundleContent {
  readonly index: BundleIndex;
  /** Every file but bundle.json, by bundle-relative path. */
  readonly files: ReadonlyMap<string, Uint8Array>;
}

const utf8 = (text: string): Uint8Array => Buffer.from(text, 'utf8');

interface ModelGroup {
  readonly modelId: string;
  readonly trials: { readonly auth: AuthenticatedResult; readonly text: string; readonly source: string }[];
}

function groupByModel(pack: EnvironmentPack, results: BundleInput['results']): ModelGroup[] {
  if (results.length === 0) throw fieldError('results', 'give at least one evaluation result');
  const groups: ModelGroup[] = [];
  for (const { text, source } of results) {
    const auth = authenticateAgainst(pack.suite, pack, text, source);
    const modelId = auth.result.model_id;
    let group = groups.find((g) => g.modelId === modelId);
    if (group === undefined) groups.push((group = { modelId, trials: [] }));
    group.trials.push({ auth, text, source });
  }
  if (groups.length > 2) {
    throw fieldError('results', `the results are of ${groups.length} models (${groups.map((g) => JSON.stringify(g.modelId)).join(', ')}); a bundle holds one model, or two to compare`);
  }
  return groups;
}

/** Builds the whole bundle content; throws (exit 3/5) when any input does not authenticate. */
export function bundleContent(input: BundleInput): BundleContent {
  const { pack } = input;
  const files = new Map<string, Uint8Array>();
  for (const [path, bytes] of input.packFiles) files.set(`${BUNDLE_PACK_DIR}/${path}`, bytes);

  const groups = groupByModel(pack, input.results);
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
  const models = groups.map((group, position): BundleModel => {
    const dir = modelDir(position);
    group.trials.forEach((t, k) => {
      files.set(`${dir}/trial-${k + 1}.result.json`, utf8(t.text));
      files.set(`${dir}/statistics-${k + 1}.json`, utf8(statisticsText(aggregateStatistics(statisticsSubject(t.auth), input.resamples))));
    });
    const report = scoreAuthenticated({
      suite: pack.suite,
      pack,
      trials: group.trials.map((t) => t.auth),
      results: group.trials.map((t) => ({ source: t.source })),
      resamples: input.resamples,
    });
    const text = scoreReportText(report);
    reports.push(text);
    files.set(`${dir}/score.json`, utf8(text));
    files.set(`${dir}/score.txt`, utf8(summaryText(report)));
    const record = operational.get(group.modelId);
    if (record !== undefined) files.set(`${dir}/operational.json`, utf8(record));
    return {
      model_id: group.modelId,
      dir,
      trials: group.trials.length,
      score: report.score,
      official: report.official,
      report_digest: scoreReportDigest(text),
      operational: record !== undefined,
    };
  });

  let outcome: string | null = null;
  if (reports.length === 2) {
    const [a, b] = reports.map((text, k) => reportView(parseScoreReportText(text, `${modelDir(k)}/score.json`)));
    const comparison = compareReports(a!, b!, input.resamples, `${modelDir(0)}/score.json`, `${modelDir(1)}/score.json`);
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
    files: [...files.keys()].sort().map((file) => ({ file, sha256: sha256Hex(files.get(file)!) })),
  };
  return { index, files };
}

export { DEFAULT_RESAMPLES as DEFAULT_BUNDLE_RESAMPLES };
