/**
 * `score compare` and `leaderboard` as services over score report files.
 *
 * Order of checks: every report loaded with the strict report reader (exit
 * 3: structure, evidence, every aggregate recomputed, canonical text), the
 * output path (exit 6), comparability (exit 3), then the bootstrap and the
 * atomic write.
 */

import { fieldError } from '../../core/errors.js';
import { fileDigest } from '../../core/hash.js';
import { compareReportSteps, compareReports, comparisonSummary, comparisonText, type ReportView } from '../../core/scoring/compare.js';
import { buildLeaderboard, leaderboardTable, leaderboardText } from '../../core/scoring/leaderboard.js';
import { parseScoreReportText, reportView } from '../../core/scoring/report-reader.js';
import { checkOutputPath, writeOutputFile } from '../files.js';
import { readTextInput } from '../inputs.js';
import { driveSteps } from '../cooperative.js';

/** Reads a score report file strictly (exit 3). */
export function loadScoreReportFile(path: string): ReportView {
  return reportView(parseScoreReportText(readTextInput(path, 'score report'), path));
}

export interface CompareFilesOptions {
  readonly pathA: string;
  readonly pathB: string;
  readonly resamples: number;
  readonly out: string;
  readonly force: boolean;
}

export type Comparison = ReturnType<typeof compareReports>;

/** The paired comparison of two score reports (A - B), written. */
export async function compareReportFiles(opts: CompareFilesOptions): Promise<{ readonly comparison: Comparison; readonly text: string; readonly digest: string; readonly summary: string }> {
  const output = { force: opts.force, inputs: [opts.pathA, opts.pathB] };
  const a = loadScoreReportFile(opts.pathA);
  const b = loadScoreReportFile(opts.pathB);
  await checkOutputPath(opts.out, output);
  // In slices, so Ctrl+C stops a long bootstrap at once (cooperative.ts).
  const comparison = await driveSteps(compareReportSteps(a, b, opts.resamples, opts.pathA, opts.pathB));
  const text = comparisonText(comparison.artifact);
  await writeOutputFile(opts.out, text, output);
  return { comparison, text, digest: fileDigest(text), summary: comparisonSummary(comparison).join('\n') + '\n' };
}

export interface LeaderboardFilesOptions {
  /** At least two score reports. */
  readonly paths: readonly string[];
  readonly resamples: number;
  /** Write the artifact here (optional). */
  readonly out?: string;
  readonly force: boolean;
}

export type Leaderboard = ReturnType<typeof buildLeaderboard>;

/** Orders score reports with adjacent paired comparisons; writes the artifact when `out` is given. */
export async function leaderboardOfFiles(opts: LeaderboardFilesOptions): Promise<{ readonly board: Leaderboard; readonly text: string; readonly digest: string; readonly table: string }> {
  if (opts.paths.length < 2) throw fieldError('reports', 'give at least two score reports');
  const output = { force: opts.force, inputs: opts.paths };
  const views = opts.paths.map(loadScoreReportFile);
  if (opts.out !== undefined) await checkOutputPath(opts.out, output);
  const board = buildLeaderboard(views, opts.resamples, opts.paths);
  const text = leaderboardText(board);
  if (opts.out !== undefined) await writeOutputFile(opts.out, text, output);
  return { board, text, digest: fileDigest(text), table: leaderboardTable(board).join('\n') + '\n' };
}
