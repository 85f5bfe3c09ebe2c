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
 * order) declares why a trial has no result for scheduled episodes:
 *   {"failures": [{"index": 3, "kind": "timeout", "message": "..."}]}
 * kinds invalid_output, model_error, timeout (`missing` is what an
 * undeclared gap becomes and cannot be declared); indices increasing, each
 * once; merged with the result's own declarations, and a declaration that
 * conflicts with the result's (another kind or message) is rejected.
 */

import { authenticateResult } from '../../core/eval/authenticate.js';
import { DECLARED_FAILURE_KINDS, MAX_FAILURE_MESSAGE_LENGTH, type FailureDeclaration } from '../../core/eval/result.js';
import { UsageError } from '../../core/errors.js';
import { FieldReader } from '../../core/json/fields.js';
import { parseJsonInput } from '../../core/json/strict-parse.js';
import { checkMaxEvacuatedAgainstPack, checkResultAgainstPack } from '../../core/pack/pack.js';
import { buildScoreReport, scoreReportDigest, scoreReportText } from '../../core/scoring/report.js';
import { scoringTable } from '../../core/scoring/scoring-table.js';
import { summaryText } from '../../core/scoring/summary.js';
import { MAX_RESAMPLES } from '../../core/stats/bootstrap.js';
import { Rational } from '../../core/stats/rational.js';
import { checkOutputPath, writeOutputFile } from '../../node/files.js';
import { loadSuiteDir, readTextInput } from '../../node/inputs.js';
import { loadPack } from '../../node/pack.js';
import { FORCE_OPTION, OUT_OPTION } from '../arguments.js';
import type { CommandContext, CommandModule, ParsedArgs, Report } from '../command.js';
import { SUITE_OPTIONS, suiteDirArgument } from './evaluation.js';
import { resamplesArgument } from './statistics.js';

type TargetArgument = { readonly kind: 'suite'; readonly dir: string } | { readonly kind: 'pack'; readonly dir: string };

/** The target: exactly one of --suite DIR, --generated-suite DIR or --pack DIR (exit 2 otherwise). */
function targetArgument(args: ParsedArgs): TargetArgument {
  const pack = args.value('pack');
  if (pack === undefined) return { kind: 'suite', dir: suiteDirArgument(args) };
  if (args.value('suite') !== undefined || args.value('generated-suite') !== undefined) {
    throw new UsageError('give exactly one of --suite DIR, --generated-suite DIR or --pack DIR');
  }
  return { kind: 'pack', dir: pack };
}

/** Reads a --failures file: strict JSON {"failures": [{index, kind, message}]}, indices increasing. */
export function parseFailuresText(text: string, source: string): FailureDeclaration[] {
  const value = parseJsonInput(text, source);
  const r = new FieldReader(source);
  const list = r.array(r.object(value, '$', ['failures']).failures, 'failures');
  let previous = -1;
  return list.map((item, k): FailureDeclaration => {
    const path = `failures[${k}]`;
    const f = r.object(item, path, ['index', 'kind', 'message']);
    const index = r.integer(f.index, `${path}.index`);
    if (index <= previous) r.fail(`${path}.index`, `${index} does not come after ${previous} (indices increase, each once)`);
    previous = index;
    const message = r.string(f.message, `${path}.message`);
    if (message.length > MAX_FAILURE_MESSAGE_LENGTH) r.fail(`${path}.message`, `is longer than ${MAX_FAILURE_MESSAGE_LENGTH} characters`);
    return { index, kind: r.literal(f.kind, `${path}.kind`, DECLARED_FAILURE_KINDS), message };
  });
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
  const output = { force: args.flag('force'), inputs: [target.dir, ...resultPaths, ...failurePaths] };

  // 2. Inputs (exit 3) and the output path (exit 6), before the long authentication.
  const pack = target.kind === 'pack' ? loadPack(target.dir) : null;
  const suite = pack?.suite ?? loadSuiteDir(target.dir);
  const texts = resultPaths.map((path) => readTextInput(path, 'evaluation result'));
  const failures = failurePaths.map((path) => parseFailuresText(readTextInput(path, 'failures file'), path));
  await checkOutputPath(out, output);

  // 3. Every result authenticated from scratch (exit 3, or 5 for a replay mismatch), and
  //    against the pack (its manifest: exit 5; its fire worlds: exit 3), then scored.
  const trials = texts.map((text, k) => {
    const result = authenticateResult(text, resultPaths[k]!, suite);
    if (pack !== null) checkResultAgainstPack(pack, result, resultPaths[k]!);
    return result;
  });
  const report = buildScoreReport({
    suite,
    trials,
    failures: failurePaths.length > 0 ? failures : undefined,
    sources: resultPaths,
    failureSources: failurePaths.length > 0 ? failurePaths : undefined,
    target: pack === null ? { kind: 'suite' } : { kind: 'pack', pack_id: pack.packId, pack_digest: pack.digest, manifest_hash: pack.manifestHash },
    ...(resamples === undefined ? {} : { resamples }),
  });
  // Applicability is pinned by the pack: every scheduled episode's M* must be the pack's.
  if (pack !== null) for (const e of report.episodes) checkMaxEvacuatedAgainstPack(pack, e.index, e.max_evacuated, target.dir);

  // 4. The atomic write (exit 6), then the summary.
  const text = scoreReportText(report);
  await writeOutputFile(out, text, output);
  context.setHumanText?.(summaryText(report));
  return {
    model_id: report.model_id,
    manifest_hash: report.manifest_hash,
    scoring_version: report.scoring_version,
    official: report.official,
    score: report.score,
    score_rounded: report.score === null ? null : Rational.parse(report.score).toFixed(1),
    report_digest: scoreReportDigest(text),
    trials: report.trials.length,
    resamples: report.resamples,
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
        'Authenticates every result from scratch (replay and metrics), scores every scheduled episode (person-level attribution, privileged references, capacity bounds), aggregates the trials over the primary families, computes the stratified bootstrap interval and writes the score report as canonical JSON plus one LF. Prints the score summary (the headline with its interval, components, families, tail, zero-score causes, severe failures, people totals and congestion diagnostics). The score is official only against an environment pack (--pack) whose manifest the results ran; against a bare suite it is UNOFFICIAL. --failures FILE (one per --result, in order) declares why episodes have no result: {"failures":[{"index":N,"kind":"invalid_output|model_error|timeout","message":"..."}]}.',
      positionals: [],
      options: [
        ...SUITE_OPTIONS,
        { name: 'pack', kind: 'value', valueName: 'DIR', description: 'an environment pack: the results must run its manifest and fire worlds (an official score)' },
        { name: 'result', kind: 'repeatable', required: true, valueName: 'FILE', description: 'an evaluation result of the model: one per trial, all on one manifest' },
        { name: 'failures', kind: 'repeatable', valueName: 'FILE', description: 'declared failures of the trial of the same position (none, or one per --result)' },
        { name: 'resamples', kind: 'value', valueName: 'N', description: `bootstrap resamples, an integer in [1, ${MAX_RESAMPLES}] (default: the library default, 2000)` },
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
