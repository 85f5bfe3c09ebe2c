/**
 * `score` as a service: every result authenticated from scratch, checked
 * against the environment pack when there is one, scored into a score
 * report and written. The CLI and the app call this, so an official score
 * means the same checks everywhere.
 *
 * Failure declarations (a failures file, one per result, paired in order):
 *   {"failures": [{"index": 3, "kind": "timeout", "message": "..."}]}
 * kinds invalid_output, model_error, timeout (`missing` is what an
 * undeclared gap becomes and cannot be declared); indices increasing, each
 * once; merged with the result's own declarations, and a declaration that
 * conflicts with the result's (another kind or message) is rejected.
 */

import { authenticateParsedResultSteps, authenticateResultSteps, type AuthenticatedResult } from '../../core/eval/authenticate.js';
import { DECLARED_FAILURE_KINDS, MAX_FAILURE_MESSAGE_LENGTH, type EvaluationResult, type FailureDeclaration } from '../../core/eval/result.js';
import { fieldError } from '../../core/errors.js';
import { FieldReader } from '../../core/json/fields.js';
import { parseJsonInput } from '../../core/json/strict-parse.js';
import { checkEpisodeAgainstPack, checkManifestAgainstPack, checkMaxEvacuatedAgainstPack, checkResultAgainstPack, type EnvironmentPack } from '../../core/pack/pack.js';
import { buildScoreReportSteps, scoreReportDigest, scoreReportText, type ScoreReport } from '../../core/scoring/report.js';
import { evaluateEpisode, type EvaluatedEpisode, type EvaluatedTrial, type ScoringTrial } from '../../core/scoring/scored-trials.js';
import { summaryText } from '../../core/scoring/summary.js';
import type { CommittedEpisode, StatisticsSubject } from '../../core/stats/aggregate.js';
import { runSteps, type StepProgress, type Steps } from '../../core/steps.js';
import type { Suite } from '../../core/world/suite.js';
import { driveSteps } from '../cooperative.js';
import { checkOutputPath, writeOutputFile } from '../files.js';
import {
  authenticateResultFileSteps,
  authenticateResultPiecesSteps,
  type ResultPieces,
  type StreamAuthenticateOptions,
  type StreamedHead,
  type StreamedResult,
} from '../eval/result-reader.js';
import { streamedSubject } from '../eval/result-subject.js';
import { loadSuiteDir, readTextInput, resultTextOrStream } from '../inputs.js';
import { loadPack } from '../pack.js';

/** Reads a failures file's text: strict JSON {"failures": [{index, kind, message}]}, indices increasing. */
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

/** One trial's result text with the name its messages use. */
export interface ResultInput {
  readonly text: string;
  readonly source: string;
}

export interface ScoreInput {
  readonly suite: Suite;
  /** The environment pack (an official score), or null (against the bare suite: UNOFFICIAL). */
  readonly pack: EnvironmentPack | null;
  /** Names the pack in messages (its directory). */
  readonly packSource?: string;
  readonly results: readonly ResultInput[];
  /** None, or one per result (paired in order). */
  readonly failures?: readonly { readonly declarations: readonly FailureDeclaration[]; readonly source: string }[];
  readonly resamples?: number;
}

/**
 * Authenticates every result (exit 3, or 5 for a replay mismatch), checks
 * it against the pack (its manifest: exit 5; its fire worlds and M*: exit
 * 3) and builds the score report. No files.
 */
export function scoreResults(input: ScoreInput): ScoreReport {
  const failures = input.failures ?? [];
  if (failures.length > 0 && failures.length !== input.results.length) {
    throw fieldError('failures', `give none or exactly one per result (${input.results.length} results, ${failures.length} failures files), paired in order`);
  }
  const trials = input.results.map(({ text, source }) => authenticateAgainst(input.suite, input.pack, text, source));
  return scoreAuthenticated({ ...input, trials });
}

/** Authenticates one result (exit 3, or 5 for a replay mismatch) and checks it against the pack when there is one. */
export function authenticateAgainst(suite: Suite, pack: EnvironmentPack | null, text: string, source: string): AuthenticatedResult {
  return runSteps(authenticateAgainstSteps(suite, pack, text, source));
}

/** authenticateAgainst as steps (src/core/steps.ts): one step per replayed episode. */
export function* authenticateAgainstSteps(suite: Suite, pack: EnvironmentPack | null, text: string, source: string, parsed?: EvaluationResult): Steps<AuthenticatedResult> {
  // `parsed`: the caller's parseResultText(text, source), not parsed again.
  const result = yield* (parsed === undefined ? authenticateResultSteps(text, source, suite) : authenticateParsedResultSteps(parsed, text, source, suite));
  if (pack !== null) checkResultAgainstPack(pack, result, source);
  return result;
}

/** The score report of trials already authenticated with authenticateAgainst (same suite and pack). */
export function scoreAuthenticated(input: AuthenticatedScoreInput): ScoreReport {
  return runSteps(scoreAuthenticatedSteps(input));
}

export type AuthenticatedScoreInput = Omit<ScoreInput, 'results'> & { readonly trials: readonly ScoringTrial[]; readonly results: readonly { readonly source: string }[] };

/** scoreAuthenticated as steps (src/core/steps.ts): the same report; the bootstrap yields its progress. */
export function* scoreAuthenticatedSteps(input: AuthenticatedScoreInput): Steps<ScoreReport> {
  const { suite, pack, trials } = input;
  const failures = input.failures ?? [];
  const report = yield* buildScoreReportSteps({
    suite,
    trials,
    failures: failures.length > 0 ? failures.map((f) => f.declarations) : undefined,
    sources: input.results.map((r) => r.source),
    failureSources: failures.length > 0 ? failures.map((f) => f.source) : undefined,
    target: pack === null ? { kind: 'suite' } : { kind: 'pack', pack_id: pack.packId, pack_digest: pack.digest, manifest_hash: pack.manifestHash },
    ...(input.resamples === undefined ? {} : { resamples: input.resamples }),
  });
  // Applicability is pinned by the pack: every scheduled episode's M* must be the pack's.
  if (pack !== null) for (const e of report.episodes) checkMaxEvacuatedAgainstPack(pack, e.index, e.max_evacuated, input.packSource ?? pack.packId);
  return report;
}

export type ScoreTarget = { readonly kind: 'suite'; readonly dir: string } | { readonly kind: 'pack'; readonly dir: string };

export interface ScoreFilesOptions {
  readonly target: ScoreTarget;
  readonly resultPaths: readonly string[];
  /** None, or one per result path. */
  readonly failurePaths: readonly string[];
  readonly resamples?: number;
  readonly out: string;
  readonly force: boolean;
  /**
   * A result file larger than this many bytes is authenticated and scored
   * by streaming (streamedTrialSteps); default MAX_TEXT_INPUT_BYTES, the most
   * read as one text. Tests set 0 to stream every result.
   */
  readonly streamAbove?: number;
  /** Progress of the replay and the bootstrap, reported between slices of work (src/node/cooperative.ts). */
  readonly onProgress?: (progress: StepProgress) => void;
}

export interface ScoreOutcome {
  readonly report: ScoreReport;
  /** The written report text (canonical JSON + LF). */
  readonly text: string;
  readonly digest: string;
  /** The human score summary (scoring-v1.0.md section 10). */
  readonly summary: string;
}

/**
 * Scores result files and writes the report. Order: the inputs (exit 3) and
 * the output path (exit 6) before the long authentication; then scoring;
 * then the atomic write (exit 6).
 */
export async function scoreResultFiles(opts: ScoreFilesOptions): Promise<ScoreOutcome> {
  const { target, resultPaths, failurePaths } = opts;
  if (failurePaths.length > 0 && failurePaths.length !== resultPaths.length) {
    throw fieldError('failures', `give none or exactly one per result (${resultPaths.length} results, ${failurePaths.length} failures files), paired in order`);
  }
  const output = { force: opts.force, inputs: [target.dir, ...resultPaths, ...failurePaths] };
  const pack = target.kind === 'pack' ? loadPack(target.dir) : null;
  const suite = pack?.suite ?? loadSuiteDir(target.dir);
  // A result that fits in one string is read now (exit 3 before the output's exit 6); a larger one is only checked now, and streamed below.
  const texts = resultPaths.map((path) => resultTextOrStream(path, opts.streamAbove));
  const failures = failurePaths.map((path) => ({ declarations: parseFailuresText(readTextInput(path, 'failures file'), path), source: path }));
  await checkOutputPath(opts.out, output);

  // In slices, so Ctrl+C stops a long replay or bootstrap at once (cooperative.ts).
  const report = await driveSteps(
    (function* (): Steps<ScoreReport> {
      const trials: ScoringTrial[] = [];
      for (const [k, path] of resultPaths.entries()) {
        const text = texts[k]!;
        trials.push(text === null ? (yield* streamedTrialSteps(suite, pack, path, k)).trial : yield* authenticateAgainstSteps(suite, pack, text, path));
      }
      return yield* scoreAuthenticatedSteps({ suite, pack, packSource: target.dir, trials, results: resultPaths.map((source) => ({ source })), failures, resamples: opts.resamples });
    })(),
    { ...(opts.onProgress === undefined ? {} : { onProgress: opts.onProgress }) },
  );
  const text = scoreReportText(report);
  await writeOutputFile(opts.out, text, output);
  return { report, text, digest: scoreReportDigest(text), summary: summaryText(report) };
}

/** A result file read once by streaming, for scoring and for statistics. */
export interface StreamedTrial {
  readonly trial: EvaluatedTrial;
  /** The statistics subject: each committed episode's index and metrics. */
  readonly subject: StatisticsSubject;
}

/**
 * A trial from a result file read by streaming: authenticated episode by
 * episode (result-reader.ts), each checked against the pack and evaluated
 * at once, its record then dropped, so memory stays bounded by the largest
 * episode whatever the file's size. `trial` is its trial number, or a
 * function that tells it from the result's head (its model ID). The report
 * is the same, byte for byte, as from the whole text (scored-trials.ts).
 * As steps (src/core/steps.ts): a step per chunk read and per replayed episode.
 * Errors are those of the whole-text path; a file with several problems may
 * name another first.
 */
export function streamedTrialSteps(suite: Suite, pack: EnvironmentPack | null, path: string, trial: number | ((head: StreamedHead) => number)): Steps<StreamedTrial> {
  return trialOfStreamSteps(pack, path, trial, (opts) => authenticateResultFileSteps(path, path, suite, opts));
}

/**
 * streamedTrialSteps of a result given in pieces (ResultPieces: an archived
 * result composed from its stored episodes, result-reader.ts), named
 * `source` in messages: the same checks, the same evaluation, one episode
 * in memory at a time.
 */
export function piecesTrial(suite: Suite, pack: EnvironmentPack | null, pieces: ResultPieces, source: string, trial: number): StreamedTrial {
  return runSteps(trialOfStreamSteps(pack, source, trial, (opts) => authenticateResultPiecesSteps(pieces, source, suite, opts)));
}

function* trialOfStreamSteps(
  pack: EnvironmentPack | null,
  source: string,
  trial: number | ((head: StreamedHead) => number),
  authenticate: (opts: StreamAuthenticateOptions) => Steps<StreamedResult>,
): Steps<StreamedTrial> {
  const evaluated = new Map<number, EvaluatedEpisode>();
  const committed: CommittedEpisode[] = [];
  let number = typeof trial === 'number' ? trial : -1;
  const streamed = yield* authenticate({
    onHead: (head) => {
      if (pack !== null) checkManifestAgainstPack(pack, head.manifestHash, source);
      if (typeof trial === 'function') number = trial(head);
    },
    onEpisode: (episode) => {
      if (pack !== null) checkEpisodeAgainstPack(pack, episode, source);
      evaluated.set(episode.index, evaluateEpisode(number, episode, source));
      committed.push({ index: episode.index, metrics: episode.metrics });
    },
  });
  return {
    trial: {
      modelId: streamed.modelId,
      manifest: streamed.manifest,
      manifestHash: streamed.manifestHash,
      digest: streamed.digest,
      scheduledEpisodes: streamed.scheduledEpisodes,
      failures: streamed.failures,
      evaluated,
    },
    subject: streamedSubject(streamed, committed),
  };
}
