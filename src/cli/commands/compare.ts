/**
 * `emberbench score compare` (the paired comparison of two score reports)
 * and `emberbench leaderboard` (scoring-v1.0.md section 8; docs/comparison.md).
 *
 * Order of checks: the command line (exit 2), every report loaded with the
 * strict report reader (exit 3: structure, evidence, every aggregate
 * recomputed, canonical text), the output path (exit 6), comparability
 * (exit 3), then the bootstrap and the atomic write. Human mode prints the
 * summary lines (compare) or the table (leaderboard); --json one line.
 */

import { UsageError } from '../../core/errors.js';
import { DEFAULT_RESAMPLES, MAX_RESAMPLES } from '../../core/stats/bootstrap.js';
import { compareReportFiles, leaderboardOfFiles } from '../../node/front-door/compare.js';
import { FORCE_OPTION, OUT_OPTION } from '../arguments.js';
import type { CommandContext, CommandModule, OptionSpec, ParsedArgs, Report } from '../command.js';
import { resamplesArgument } from '../options.js';

const RESAMPLES_OPTION: OptionSpec = {
  name: 'resamples',
  kind: 'value',
  valueName: 'N',
  description: `bootstrap resamples, an integer in [1, ${MAX_RESAMPLES}] (default ${DEFAULT_RESAMPLES})`,
};

async function scoreCompare(args: ParsedArgs, context: CommandContext): Promise<Report> {
  // 1. The command line (exit 2).
  const pathA = args.required('report-a');
  const pathB = args.required('report-b');
  const resamples = resamplesArgument(args.value('resamples')) ?? DEFAULT_RESAMPLES;
  const out = args.required('out');

  // 2. Inputs (exit 3), the output path (exit 6), comparability (exit 3), the bootstrap, the write (exit 6).
  const { comparison, digest, summary } = await compareReportFiles({ pathA, pathB, resamples, out, force: args.flag('force') });
  context.setHumanText?.(summary);
  const { artifact } = comparison;
  return {
    outcome: artifact.outcome,
    delta: artifact.delta,
    delta_rounded: comparison.delta === null ? null : comparison.delta.toFixed(1),
    interval: artifact.interval,
    model_a: artifact.report_a.model_id,
    model_b: artifact.report_b.model_id,
    report_a_digest: artifact.report_a.digest,
    report_b_digest: artifact.report_b.digest,
    manifest_hash: artifact.manifest_hash,
    official: artifact.official,
    scoring_version: artifact.scoring_version,
    applicable_episodes: artifact.applicable_episodes,
    resamples: artifact.resamples,
    comparison_digest: digest,
  };
}

async function leaderboard(args: ParsedArgs, context: CommandContext): Promise<Report> {
  const paths = args.list('report');
  if (paths.length < 2) throw new UsageError('--report: give at least two score reports');
  const resamples = resamplesArgument(args.value('resamples')) ?? DEFAULT_RESAMPLES;
  const { board, digest, table } = await leaderboardOfFiles({ paths, resamples, out: args.value('out'), force: args.flag('force') });
  context.setHumanText?.(table);
  return { leaderboard_digest: digest, ...board };
}

export const scoreCompareModule: CommandModule = {
  group: 'score',
  summary: 'the EMBER Score',
  commands: [
    {
      words: ['score', 'compare'],
      summary: 'paired comparison of two score reports (A - B)',
      description:
        'Loads both score reports strictly; they must share the scoring version, constants, evaluation manifest, target (one environment pack, or both unofficial on one suite) and applicable episodes. Pairs the episode scores, aggregates the differences with the score hierarchy (delta = score A - score B exactly), computes the stratified bootstrap interval of the differences and decides exact_tie, a_better, b_better or inconclusive (practical difference 1 point; fewer than 5 applicable episodes is inconclusive). Writes the comparison as canonical JSON plus one LF and prints a summary.',
      positionals: [],
      options: [
        { name: 'report-a', kind: 'value', required: true, valueName: 'REPORT', description: 'score report A (the first term of A - B)', aliases: ['a'] },
        { name: 'report-b', kind: 'value', required: true, valueName: 'REPORT', description: 'score report B', aliases: ['b'] },
        OUT_OPTION,
        RESAMPLES_OPTION,
        FORCE_OPTION,
      ],
      examples: ['emberbench score compare --report-a model-a.score.json --report-b model-b.score.json --out a-vs-b.json'],
      run: (args, context) => scoreCompare(args, context),
    },
  ],
};

export const leaderboardModule: CommandModule = {
  group: 'leaderboard',
  summary: 'order score reports and compare adjacent entries',
  commands: [
    {
      words: ['leaderboard'],
      summary: 'order score reports (displayed score, then safety tie-breaks), with adjacent paired comparisons',
      description:
        'Loads two or more comparable score reports (one manifest, one pack or suite, one set of constants; distinct models) and orders them by the score rounded half-even to 0.1 point, then Safety, avoidable casualties per trial, avoidable stranded per trial, the worst scenario score and the model ID. Prints the table and the paired comparison of each adjacent pair; --out writes the artifact as canonical JSON plus one LF.',
      positionals: [],
      options: [
        { name: 'report', kind: 'repeatable', required: true, valueName: 'FILE', description: 'a score report (at least two, one per model)' },
        { name: 'out', kind: 'value', valueName: 'FILE', description: 'write the leaderboard artifact here; its directory must exist, an existing file is not replaced without --force' },
        RESAMPLES_OPTION,
        FORCE_OPTION,
      ],
      examples: ['emberbench leaderboard --report a.score.json --report b.score.json --report c.score.json', 'emberbench leaderboard --report a.score.json --report b.score.json --out board.json --json'],
      run: (args, context) => leaderboard(args, context),
    },
  ],
};
