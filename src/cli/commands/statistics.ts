/**
 * `emberbench statistics aggregate | compare` (cli-v1.0.md): the aggregate
 * statistics of one authenticated result, and the paired statistics of two
 * results on one manifest (A - B). See docs/statistics.md.
 *
 * Order of checks: the command line (exit 2), the suite and every result,
 * fully authenticated (exit 3, or 5 for a replay mismatch), then the output
 * path (exit 6), then the statistics and the write. Inputs are never
 * written: an output that is an input is refused even with --force.
 */

import type { CanonicalInput } from '../../core/json/canonical.js';
import { MAX_RESAMPLES } from '../../core/stats/bootstrap.js';
import { aggregateStatisticSteps, statisticsDigest, statisticsText } from '../../core/stats/aggregate.js';
import { pairedStatisticSteps } from '../../core/stats/paired.js';
import { checkOutputPath, loadSuiteDir, statisticsSubjectOfFile, writeOutputFile } from '../../node/front-door/statistics.js';
import { FORCE_OPTION, OUT_OPTION } from '../arguments.js';
import type { CommandContext, CommandModule, OptionSpec, ParsedArgs, Report } from '../command.js';
import { SUITE_OPTIONS, resamplesArgument, suiteDirArgument } from '../options.js';
import { runLong } from '../progress.js';

const RESAMPLES_OPTION: OptionSpec = {
  name: 'resamples',
  kind: 'value',
  valueName: 'N',
  description: `bootstrap resamples, an integer in [1, ${MAX_RESAMPLES}] (default: the library default, 2000)`,
};

async function writeArtifact(out: string, artifact: CanonicalInput, output: { force: boolean; inputs: string[] }): Promise<string> {
  const text = statisticsText(artifact);
  await writeOutputFile(out, text, output);
  return statisticsDigest(text);
}

async function statisticsAggregate(args: ParsedArgs, context: CommandContext): Promise<Report> {
  const suiteDir = suiteDirArgument(args);
  const resultPath = args.required('result');
  const resamples = resamplesArgument(args.value('resamples'));
  const out = args.required('out');
  const output = { force: args.flag('force'), inputs: [suiteDir, resultPath] };

  const suite = loadSuiteDir(suiteDir);
  const subject = statisticsSubjectOfFile(resultPath, suite);
  await checkOutputPath(out, output);
  const stats = await runLong(aggregateStatisticSteps(subject, resamples), context.io, args.flag('json'));
  const digest = await writeArtifact(out, stats, output);
  return {
    statistics_version: stats.statistics_version,
    digest,
    model_id: stats.model_id,
    manifest_hash: stats.manifest_hash,
    resamples: stats.resamples,
  };
}

async function statisticsCompare(args: ParsedArgs, context: CommandContext): Promise<Report> {
  const suiteDir = suiteDirArgument(args);
  const pathA = args.required('a');
  const pathB = args.required('b');
  const resamples = resamplesArgument(args.value('resamples'));
  const out = args.required('out');
  const output = { force: args.flag('force'), inputs: [suiteDir, pathA, pathB] };

  const suite = loadSuiteDir(suiteDir);
  const a = statisticsSubjectOfFile(pathA, suite);
  const b = statisticsSubjectOfFile(pathB, suite);
  await checkOutputPath(out, output);
  const stats = await runLong(pairedStatisticSteps(a, b, resamples), context.io, args.flag('json'));
  const digest = await writeArtifact(out, stats, output);
  return {
    statistics_version: stats.statistics_version,
    digest,
    model_a: stats.model_a,
    model_b: stats.model_b,
    manifest_hash: stats.manifest_hash,
    resamples: stats.resamples,
  };
}

const EXAMPLE_SUITE = 'scenarios/public/v1';

export const statisticsModule: CommandModule = {
  group: 'statistics',
  summary: 'aggregate and paired statistics of evaluation results',
  commands: [
    {
      words: ['statistics', 'aggregate'],
      summary: 'aggregate statistics of one result',
      description:
        'Loads and authenticates the result, then writes the aggregate statistics JSON text with a final newline: per metric the coverage, the family-balanced, per-family, per-scenario, scenario-balanced and micro means (exact fractions) and the 95% stratified bootstrap interval. Failed and missing episodes are not in the statistics; their counts are.',
      positionals: [],
      options: [
        ...SUITE_OPTIONS,
        { name: 'result', kind: 'value', required: true, valueName: 'FILE', description: 'the evaluation result file' },
        RESAMPLES_OPTION,
        OUT_OPTION,
        FORCE_OPTION,
      ],
      examples: [`emberbench statistics aggregate --suite ${EXAMPLE_SUITE} --result result.json --out stats.json`],
      run: (args, context) => statisticsAggregate(args, context),
    },
    {
      words: ['statistics', 'compare'],
      summary: 'paired statistics of two results (A - B)',
      description:
        'Loads and authenticates both results, then writes the paired comparison JSON text with a final newline. Episodes committed in both results are paired; deltas are A - B with the same hierarchy, the bootstrap interval of the differences and an outcome per metric (exact_tie, a_higher, b_higher, inconclusive). Results of different manifests are rejected (exit 3).',
      positionals: [],
      options: [
        ...SUITE_OPTIONS,
        { name: 'a', kind: 'value', required: true, valueName: 'FILE', description: 'evaluation result A (deltas are A - B)', aliases: ['result-a'] },
        { name: 'b', kind: 'value', required: true, valueName: 'FILE', description: 'evaluation result B', aliases: ['result-b'] },
        RESAMPLES_OPTION,
        OUT_OPTION,
        FORCE_OPTION,
      ],
      examples: [`emberbench statistics compare --suite ${EXAMPLE_SUITE} --a a.json --b b.json --out paired.json`],
      run: (args, context) => statisticsCompare(args, context),
    },
  ],
};
