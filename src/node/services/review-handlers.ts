/**
 * The services of the review views: one episode for the replay, the paired
 * comparison of two models, the leaderboard, and official exports (bundle,
 * bundle verification, the HTML report). Every number comes from the same
 * core functions the CLI uses on the same stored bytes: `score compare`,
 * `leaderboard`, `bundle create`, `report html`.
 *
 * What authenticates results or replays records (a report of several
 * trials, a bundle, its verification, the HTML report) runs in the archive
 * worker (../jobs/review-jobs.ts), so the app's main process and the server answer
 * other calls meanwhile; a replay reads its one episode, not the trial's
 * whole result.
 */

import { ValidationError } from '../../core/errors.js';
import { compareReports, comparisonSummary, type ReportView } from '../../core/scoring/compare.js';
import { parseScoreReportText, reportView } from '../../core/scoring/report-reader.js';
import type { BundleSummary, LeaderboardGroup, Outputs, ParsedInput, SignerView } from '../../shared/api/contract.js';
import type { Archive } from '../archive/archive.js';
import { trialFiles, EXPORT_FILES } from '../archive/archive-io.js';
import { artifactSize, getArtifact } from '../archive/artifacts.js';
import { getTrialDbRow, scoredTrialRows, type TrialDbRow } from '../archive/queries.js';
import { leaderboardGroup, type BoardEntry } from './leaderboard-group.js';
import { storedPackFiles, storedSuiteFiles } from '../archive/inputs-store.js';
import { runOffThread } from '../jobs/off-thread.js';
import { existingPath, newOutputPath } from './user-paths.js';
import type { ResultText } from '../jobs/review-jobs.js';
import { roundedScore, storedEpisode, storedEpisodeBytes } from '../archive/trials-store.js';
import { scoredSeriesTrials, seriesPlaceOf } from './trial-series.js';
import type { ScoreReport } from '../../core/scoring/report-types.js';
import { describeBytes, MAX_TEXT_INPUT_BYTES } from '../inputs.js';
import type { BundleIndex } from '../../core/bundle/bundle-index.js';
import { ServiceError } from './dispatch.js';
import { getPackSummary, storedManifest, storedSuite } from './catalog.js';
import type { AppSigning } from './signing-store.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { ed25519PublicKey } from '../signing/key-file.js';

type ReviewProcedures = 'episodes.replay' | 'compare.trials' | 'leaderboard' | 'trials.series' | 'export.bundle' | 'export.verifyBundle' | 'export.htmlReport';
export type ReviewHandlers = { readonly [N in ReviewProcedures]: (input: ParsedInput<N>) => Promise<Outputs[N]> };

const text = (bytes: Buffer): string => bytes.toString('utf8');

export function trialRow(archive: Archive, trialId: number, field: string): TrialDbRow {
  const row = getTrialDbRow(archive, trialId);
  if (row === undefined) throw new ServiceError('not_found', `${field}: no trial ${trialId} in the archive`, field);
  return row;
}

/** The score report of a scored trial, read strictly. */
export function reportOf(archive: Archive, row: TrialDbRow, field: string): { text: string; view: ReportView; report: ScoreReport } {
  if (row.report_digest === null) {
    throw new ServiceError('usage', `${field}: trial ${row.trial_id} (${row.model_id}) has no score report yet: it is ${row.status}`, field);
  }
  const reportText = text(getArtifact(archive, row.report_digest));
  const loaded = parseScoreReportText(reportText, `trial ${row.trial_id} score report`);
  return { text: reportText, view: reportView(loaded), report: loaded.report };
}

function bundleSummary(dir: string, index: BundleIndex, signatures: readonly SignerView[] | null): BundleSummary {
  return {
    dir,
    packId: index.pack_id,
    models: index.models.map((m) => ({ modelId: m.model_id, trials: m.trials, score: m.score })),
    comparisonOutcome: index.comparison_outcome,
    files: index.files.length + 1,
    signatures,
  };
}

/**
 * A set of trials of one model, scored as one report (its trials averaged,
 * scoring-v1.0.md section 12) from their stored results, against the trials'
 * pack or suite: in the archive worker, since it authenticates every result.
 */
async function modelReport(archive: Archive, worker: string | undefined, limit: number, trialIds: readonly number[], field: string): Promise<{ view: ReportView; rows: TrialDbRow[]; report: ScoreReport }> {
  const rows = trialIds.map((id) => trialRow(archive, id, field));
  if (rows.length === 1) return { ...reportOf(archive, rows[0]!, field), rows };
  const first = rows[0]!;
  for (const row of rows) {
    if (row.model_id !== first.model_id || row.manifest_hash !== first.manifest_hash || row.pack_digest !== first.pack_digest) {
      throw new ServiceError('usage', `${field}: trials ${first.trial_id} and ${row.trial_id} are not trials of one model on one manifest and pack`, field);
    }
  }
  // Several trials: the report of all of them, computed as `score --result ...` would.
  const suiteHash = storedManifest(archive, first.manifest_hash).suite.suite_hash;
  const packDigest = first.pack_digest;
  const reportText = await runOffThread(worker, {
    kind: 'trials-report',
    input: {
      results: await Promise.all(rows.map((row) => storedResultText(archive, row, field, limit))),
      suiteHash,
      suiteFiles: [...storedSuiteFiles(archive, suiteHash)],
      pack: packDigest === null ? null : { digest: packDigest, files: [...storedPackFiles(archive, packDigest)] },
    },
  });
  const loaded = parseScoreReportText(reportText, `${field}: trials ${trialIds.join(', ')}`);
  return { view: reportView(loaded), rows, report: loaded.report };
}

/** What the Leaderboard and the Trial page show of a model's trials: one trial's report, or its series' combined report. */
type ScoredEntry = BoardEntry;

/**
 * The combined report of a series' scored trials (trial-series.ts), computed
 * once per set of reports (the key names every report digest) and kept.
 */
function seriesReports(archive: Archive, worker: string | undefined, limit: number): (rows: readonly TrialDbRow[]) => Promise<ScoredEntry> {
  const kept = new Map<string, Promise<ScoredEntry>>();
  return (rows) => {
    const key = rows.map((r) => `${r.trial_id}:${r.report_digest}`).join(',');
    let entry = kept.get(key);
    if (entry === undefined) {
      entry = modelReport(archive, worker, limit, rows.map((r) => r.trial_id), 'trialId');
      kept.set(key, entry);
      entry.catch(() => kept.delete(key));
    }
    return entry;
  };
}

/**
 * A trial's stored result (digest-checked), named as messages name it. A
 * result too large for one string (a long run from the app) is refused with
 * the way through: export it and use the command line, which streams it.
 */
async function storedResultText(archive: Archive, row: TrialDbRow, field: string, limit: number): Promise<ResultText> {
  const size = row.result_digest === null ? storedEpisodeBytes(archive, row.trial_id).bytes : artifactSize(archive, row.result_digest);
  if (size > limit) {
    throw new ServiceError(
      'usage',
      `${field}: trial ${row.trial_id}'s result is ${describeBytes(size)}, more than the app reads as one text (${describeBytes(limit)}); ` +
        'export the trial and use `emberbench score` or `emberbench bundle create`, which stream a result this large',
      field,
    );
  }
  return { text: text((await trialFiles(archive, row.trial_id)).get(EXPORT_FILES.result)!), source: `trial ${row.trial_id}` };
}

/**
 * The review procedures; `worker` is the archive worker's entry
 * (../jobs/off-thread.ts), undefined to run the long jobs in this thread. A stored
 * result larger than `oneTextLimit` bytes is refused where a whole text is
 * needed (tests lower it).
 */
export function reviewHandlers(archive: Archive, worker: string | undefined, oneTextLimit = MAX_TEXT_INPUT_BYTES, signing: AppSigning | null = null): ReviewHandlers {
  const signersOf = (trialId: number): SignerView[] => signing?.trialSigners(archive, trialId) ?? [];
  const combined = seriesReports(archive, worker, oneTextLimit);
  return {
    'trials.series': async ({ trialId }) => {
      const row = trialRow(archive, trialId, 'trialId');
      const place = seriesPlaceOf(row);
      if (place === null) return null;
      const scored = scoredSeriesTrials(archive, row);
      const entry = scored.length >= 2 ? await combined(scored) : null;
      const score = entry?.report.score ?? null;
      return {
        index: place.index,
        count: place.count,
        first: place.first,
        scoredTrialIds: scored.map((r) => r.trial_id),
        score,
        scoreRounded: roundedScore(score),
        intervalLow: entry?.report.interval?.lower ?? null,
        intervalHigh: entry?.report.interval?.upper ?? null,
      };
    },
    'episodes.replay': async ({ trialId, index }) => {
      const row = trialRow(archive, trialId, 'trialId');
      const manifest = storedManifest(archive, row.manifest_hash);
      const job = manifest.episodes[index];
      if (job === undefined) throw new ServiceError('not_found', `index: trial ${trialId} has episodes 0 to ${manifest.episodes.length - 1}`, 'index');
      const suite = storedSuite(archive, manifest.suite.suite_hash);
      const entry = suite.entries.find((e) => e.scenarioId === job.scenario_id)!;
      const stored = storedEpisode(archive, trialId, index);
      if (stored === undefined) throw new ValidationError(`archive: trial ${trialId} has no row for its episode ${index} (the archive is damaged)`);
      const report = row.report_digest === null ? null : (JSON.parse(text(getArtifact(archive, row.report_digest))) as { episodes: readonly NonNullable<Outputs['episodes.replay']['evidence']>[] });
      return {
        trialId,
        modelId: row.model_id,
        index,
        scenarioId: job.scenario_id,
        scenarioText: text(storedSuiteFiles(archive, suite.hash).get(entry.file)!),
        recordText: stored.status === 'done' ? stored.recordText : null,
        evidence: report?.episodes.find((e) => e.index === index) ?? null,
        failure:
          stored.status === 'failed'
            ? { kind: stored.failure.kind, message: stored.failure.message }
            : stored.status === 'missing'
              ? { kind: 'missing', message: 'no result for this episode yet' }
              : null,
      };
    },

    'compare.trials': async ({ a, b, resamples }) => {
      const A = await modelReport(archive, worker, oneTextLimit, a, 'a');
      const B = await modelReport(archive, worker, oneTextLimit, b, 'b');
      if (A.rows[0]!.model_id === B.rows[0]!.model_id) throw new ServiceError('usage', `b: both sides are model ${JSON.stringify(A.rows[0]!.model_id)}; compare two models`, 'b');
      const comparison = compareReports(A.view, B.view, resamples, A.rows[0]!.model_id, B.rows[0]!.model_id);
      return { artifact: comparison.artifact, summary: comparisonSummary(comparison) };
    },

    leaderboard: async ({ resamples }) => {
      const rows = scoredTrialRows(archive);
      // One entry per model and target: its most recent scored trial.
      const groups = new Map<string, { official: boolean; target: string; manifestHash: string; latest: Map<string, TrialDbRow> }>();
      for (const row of rows) {
        const key = `${row.official === 1 ? row.pack_digest : `suite:${row.suite_id}`}|${row.manifest_hash}`;
        let group = groups.get(key);
        if (group === undefined) groups.set(key, (group = { official: row.official === 1, target: row.official === 1 ? row.pack_id! : row.suite_id, manifestHash: row.manifest_hash, latest: new Map() }));
        if (!group.latest.has(row.model_id)) group.latest.set(row.model_id, row);
      }
      const boards: LeaderboardGroup[] = [];
      for (const g of groups.values()) {
        // A model whose latest trial is one of a series of K is entered with the combined report of the series' scored trials.
        const entries: ScoredEntry[] = [];
        for (const row of g.latest.values()) {
          const series = scoredSeriesTrials(archive, row);
          entries.push(series.length >= 2 ? await combined(series) : { rows: [row], ...reportOf(archive, row, 'leaderboard') });
        }
        boards.push(leaderboardGroup({ target: g.target, official: g.official, manifestHash: g.manifestHash }, entries, resamples, signersOf));
      }
      boards.sort((x, y) => Number(y.official) - Number(x.official) || x.target.localeCompare(y.target));
      return { boards };
    },

    'export.bundle': async ({ a, b, outDir, sign }) => {
      if (sign !== undefined && signing === null) throw new ServiceError('usage', 'sign: this app has no signing key store', 'sign');
      // Unlocked before any work: a wrong passphrase or time costs nothing.
      const signer = sign === undefined ? null : signing!.signer(sign.signedAt, sign.passphrase ?? null);
      const target = newOutputPath(outDir, 'outDir', 'folder');
      const rows = [...a.map((id) => trialRow(archive, id, 'a')), ...b.map((id) => trialRow(archive, id, 'b'))];
      const first = rows[0]!;
      for (const row of rows) {
        if (row.pack_digest === null) throw new ServiceError('usage', `trial ${row.trial_id} was not scored against an environment pack: only official trials go into a bundle`, 'a');
        if (row.pack_digest !== first.pack_digest) throw new ServiceError('usage', `trials ${first.trial_id} and ${row.trial_id} ran different packs`, 'b');
      }
      const packDigest = first.pack_digest!;
      getPackSummary(archive, packDigest);
      const index = await runOffThread(worker, {
        kind: 'bundle-create',
        input: {
          packDigest,
          packFiles: [...storedPackFiles(archive, packDigest)],
          results: await Promise.all(rows.map((row) => storedResultText(archive, row, 'a', oneTextLimit))),
          operational: dedupeByModel(rows.filter((r) => r.operational_digest !== null).map((r) => ({ text: text(getArtifact(archive, r.operational_digest!)), source: `trial ${r.trial_id} operational record` }))),
          resamples: 2000,
          outDir: target,
          ...(signer === null ? {} : { signers: [signer] }),
        },
      });
      const signatures = signer === null ? null : signing!.views([{ publicKey: bytesToHex(ed25519PublicKey(signer.secretKey)), signedAt: signer.signedAt }]);
      return bundleSummary(target, index, signatures);
    },

    'export.verifyBundle': async ({ dir }) => {
      const folder = existingPath(dir, 'dir', 'folder');
      const { index, signatures } = await runOffThread(worker, { kind: 'bundle-verify', input: folder });
      return bundleSummary(folder, index, signatures === null ? null : (signing?.views(signatures) ?? signatures.map((c) => ({ ...c, trusted: false, label: null }))));
    },

    'export.htmlReport': async ({ bundleDir, outFile, episodes }) => {
      const bundle = existingPath(bundleDir, 'bundleDir', 'folder');
      const file = newOutputPath(outFile, 'outFile', 'file');
      return runOffThread(worker, { kind: 'html-report', input: { bundleDir: bundle, outFile: file, ...(episodes === undefined ? {} : { episodes }) } });
    },
  };
}

/** One operational record per model: the first trial's (a bundle holds at most one per model). */
function dedupeByModel(records: { text: string; source: string }[]): { text: string; source: string }[] {
  const seen = new Set<string>();
  return records.filter((r) => {
    const model = (JSON.parse(r.text) as { model_id?: string }).model_id ?? '';
    if (seen.has(model)) return false;
    seen.add(model);
    return true;
  });
}
