/**
 * `emberbench score` (the EMBER Score of one model's trials, written as a
 * score report) and `emberbench scoring table` (the single-failure profile
 * of scoring-v1.0.md section 5).
 *
 * `score` authenticates every result from scratch (exit 3, or 5 for a replay
 * mismatch), scores it against an environment pack (official) or a bare
 * suite (UNOFFICIAL), writes the report as
 * canonical JSON plus one LF, and prints the section 10 summary (human mode)
 * or one JSON line. Scoring needs no agent and no network.
 *
 * --failures FILE (repeatable; none, or exactly one per --result, paired in
 * order) declares why a trial has no result for scheduled episodes (the
 * format: src/node/workflows/score.ts, which does the work).
 */

import { UsageError } from '../../core/errors.js';
import { Rational } from '../../core/stats/rational.js';
import { MAX_RESAMPLES } from '../../core/stats/bootstrap.js';
import { scoringTable } from '../../core/scoring/scoring-table.js';
import { checkTrialRecords } from '../../core/llm/trials.js';
import { parseOperationalRecordText } from '../../core/scoring/operational.js';
import { isolationLines, overallIsolation, type TrialIsolation } from '../../core/scoring/isolation.js';
import { closeSync, openSync, readSync } from 'node:fs';
import { withProgress } from '../progress.js';
import { inputFileSize, readTextInput, scoreResultFiles, type ScoreTarget } from '../../node/front-door/score.js';
import { FORCE_OPTION, OUT_OPTION } from '../arguments.js';
import type { CommandContext, CommandModule, ParsedArgs, Report } from '../command.js';
import { SUITE_OPTIONS, resamplesArgument, suiteDirArgument } from '../options.js';

/** The longest tail that can hold a canonical result's last key: `"model_id":` and a model ID of at most 256 characters, escaped. */
const MODEL_ID_TAIL_BYTES = 4096;

/**
 * The results' model ID as written, read from the file's end: `model_id`
 * is a canonical result's last key, so a result of any size is not read
 * whole for it. '' when it is not there (authentication, later, checks
 * everything and reports precisely).
 */
function resultModelId(path: string): string {
  try {
    const size = inputFileSize(path, 'evaluation result');
    if (size === undefined) return '';
    const tail = Buffer.alloc(Math.min(size, MODEL_ID_TAIL_BYTES));
    const fd = openSync(path, 'r');
    try {
      readSync(fd, tail, 0, tail.length, size - tail.length);
    } finally {
      closeSync(fd);
    }
    const match = /"model_id":("(?:[^"\\]|\\.)*")\}\n$/.exec(tail.toString('utf8'));
    const value: unknown = match === null ? undefined : JSON.parse(match[1]!);
    return typeof value === 'string' ? value : '';
  } catch {
    return ''; // authentication reports it precisely
  }
}

/** The operational records' checks (exit 3), before the long authentication; returns the warnings and each trial's isolation level. */
function checkTrialsOfScore(
  resultPaths: readonly string[],
  operationalPaths: readonly string[],
  official: boolean,
  stochastic: boolean,
): { warnings: string[]; isolation: TrialIsolation[] } {
  const records = operationalPaths.map((path) => ({ record: parseOperationalRecordText(readTextInput(path, 'operational record'), path), source: path }));
  const modelId = records.length === 0 ? '' : resultModelId(resultPaths[0]!);
  const warnings = checkTrialRecords({ records, trials: resultPaths.length, modelId: modelId === '' ? (records[0]?.record.model_id ?? '') : modelId, official, stochastic });
  return { warnings, isolation: records.map((r) => r.record.isolation ?? null) };
}

/** The target: exactly one of --suite DIR, --generated-suite DIR or --pack DIR (exit 2 otherwise). */
function targetArgument(args: ParsedArgs): ScoreTarget {
  const pack = args.value('pack');
  if (pack === undefined) return { kind: 'suite', dir: suiteDirArgument(args) };
  if (args.value('suite') !== undefined || args.value('generated-suite') !== undefined) {
    throw new UsageError('give exactly one of --suite DIR, --generated-suite DIR or --pack DIR');
  }
  return { kind: 'pack', dir: pack };
}

async function score(args: ParsedArgs, context: CommandContext): Promise<Report> {
  // 1. The command line (exit 2).
  const target = targetArgument(args);
  const resultPaths = args.list('result');
  const failurePaths = args.list('failures');
  if (failurePaths.length > 0 && failurePaths.length !== resultPaths.length) {
    throw new UsageError(`--failures: give none or exactly one per --result (${resultPaths.length} results, ${failurePaths.length} failures files), paired in order`);
  }
  const resamples = resamplesArgument(args.value('resamples'));
  const out = args.required('out');
  const operationalPaths = args.list('operational');
  if (operationalPaths.length > 0 && operationalPaths.length !== resultPaths.length) {
    throw new UsageError(`--operational: give none or exactly one per --result (${resultPaths.length} results, ${operationalPaths.length} records), paired in order`);
  }
  // Repeated trials (scoring-v1.0.md section 12): one inference configuration, no cached answers in an official score.
  const { warnings, isolation } = checkTrialsOfScore(resultPaths, operationalPaths, target.kind === 'pack', args.flag('stochastic'));
  for (const warning of warnings) context.io.stderr(`warning: ${warning}\n`);

  // 2. Inputs (exit 3), the output path (exit 6), authentication and the pack
  //    checks (exit 3 or 5), scoring, the atomic write (exit 6): the workflow's order.
  const { report, digest, summary } = await withProgress(context.io, args.flag('json'), (onProgress) =>
    scoreResultFiles({ target, resultPaths, failurePaths, resamples, out, force: args.flag('force'), onProgress }),
  );
  // The isolation level is shown only with operational records (it is not in the score report, whose bytes it never changes).
  context.setHumanText?.(isolation.length === 0 ? summary : summary + isolationLines(isolation));
  return {
    model_id: report.model_id,
    manifest_hash: report.manifest_hash,
    scoring_version: report.scoring_version,
    official: report.official,
    score: report.score,
    score_rounded: report.score === null ? null : Rational.parse(report.score).toFixed(1),
    report_digest: digest,
    trials: report.trials.length,
    resamples: report.resamples,
    ...(isolation.length === 0 ? {} : { isolation: overallIsolation(isolation), trial_isolation: isolation }),
  };
}

async function table(context: CommandContext): Promise<Report> {
  const rows = scoringTable();
  context.setHumanText?.(rows.map((row) => `${row.case}: ${row.score}`).join('\n') + '\n');
  return { rows: rows.map((row) => ({ case: row.case, score: row.score })) };
}

export const scoreModule: CommandModule = {
  group: 'score',
  summary: 'the EMBER Score',
  commands: [
    {
      words: ['score'],
      summary: 'score the trials of one model and write the score report',
      description:
        'Authenticates every result from scratch (replay and metrics), scores every scheduled episode (person-level attribution, privileged references, capacity bounds), aggregates the trials over the primary families, computes the stratified bootstrap interval and writes the score report as canonical JSON plus one LF. Prints the score summary (the headline with its interval, components, families, tail, zero-score causes, severe failures, people totals and congestion diagnostics). The score is official only against an environment pack (--pack) whose manifest the results ran; against a bare suite it is UNOFFICIAL. --failures FILE (one per --result, in order) declares why episodes have no result: {"failures":[{"index":N,"kind":"invalid_output|model_error|timeout","message":"..."}]}. --operational FILE (one per --result, in order) gives the trials\' operational records: trials of different inference configurations are refused, and so are answers from a response cache in an official score; with --stochastic fewer than 3 trials is warned about; the agent\'s isolation level in each record (sandboxed, none, in_process) is printed after the summary, with a warning for a trial run without a sandbox. Each episode\'s trials are averaged before aggregation.',
      positionals: [],
      options: [
        ...SUITE_OPTIONS,
        { name: 'pack', kind: 'value', valueName: 'DIR', description: 'an environment pack: the results must run its manifest and fire worlds (an official score)' },
        { name: 'result', kind: 'repeatable', required: true, valueName: 'FILE', description: 'an evaluation result of the model: one per trial, all on one manifest' },
        { name: 'failures', kind: 'repeatable', valueName: 'FILE', description: 'declared failures of the trial of the same position (none, or one per --result)' },
        { name: 'resamples', kind: 'value', valueName: 'N', description: `bootstrap resamples, an integer in [1, ${MAX_RESAMPLES}] (default: the library default, 2000)` },
        { name: 'operational', kind: 'repeatable', valueName: 'FILE', description: 'the operational record of the trial of the same position (none, or one per --result): the trials must share one inference configuration' },
        { name: 'stochastic', kind: 'flag', description: 'the model samples its answers: warn when fewer than 3 trials are scored' },
        OUT_OPTION,
        FORCE_OPTION,
      ],
      examples: [
        'emberbench score --suite scenarios/public/v1 --result result.json --out score.json',
        'emberbench score --suite scenarios/public/v1 --result t1.json --result t2.json --result t3.json --out score.json --json',
      ],
      run: (args, context) => score(args, context),
    },
  ],
};

export const scoringModule: CommandModule = {
  group: 'scoring',
  summary: 'scoring reference tables',
  commands: [
    {
      words: ['scoring', 'table'],
      summary: 'the single-failure profile of the official scoring constants',
      description: 'Prints the score of each single-failure case (population 100 unless stated; everything else perfect; replanning undefined), computed live from the episode score under the official constants.',
      positionals: [],
      options: [],
      examples: ['emberbench scoring table', 'emberbench scoring table --json'],
      run: (_args, context) => table(context),
    },
  ],
};
