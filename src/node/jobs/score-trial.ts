/**
 * The score report of one archived trial through the workflow `emberbench
 * score` uses (src/node/workflows/score.ts scoreResults): the result
 * authenticated from scratch, checked against the pack, scored with the
 * library defaults. The report stored in the archive (and exported) is
 * therefore byte-identical to `score --result R (--pack P | --suite S)`.
 */

import type { EvaluationResult } from '../../core/eval/result.js';
import type { EnvironmentPack } from '../../core/pack/pack.js';
import { scoreReportText } from '../../core/scoring/report.js';
import { summaryText } from '../../core/scoring/summary.js';
import { runSteps, type Steps } from '../../core/steps.js';
import type { Suite } from '../../core/world/suite.js';
import type { ScoredTrial } from '../archive/trials-store.js';
import { authenticateAgainstSteps, scoreAuthenticatedSteps } from '../workflows/score.js';

/** What a trial is scored against: a pack (official) or its suite (unofficial). */
export interface ScoreTarget {
  readonly suite: Suite;
  readonly pack: EnvironmentPack | null;
}

/** Scores one result text (a trial) against a pack (official) or its suite (unofficial). */
export function scoreResultText(resultText: string, source: string, target: ScoreTarget): ScoredTrial {
  return runSteps(scoreResultTextSteps(resultText, source, target));
}

/**
 * scoreResultText as steps (src/core/steps.ts): a step per replayed episode
 * and per slice of the bootstrap; the same computation as scoreResults of
 * this one result (no failures file, the default resamples), so the same
 * report. `parsed`: the caller's parseResultText(resultText, source).
 */
export function* scoreResultTextSteps(resultText: string, source: string, target: ScoreTarget, parsed?: EvaluationResult): Steps<ScoredTrial> {
  const suite = target.pack?.suite ?? target.suite;
  const trial = yield* authenticateAgainstSteps(suite, target.pack, resultText, source, parsed);
  const report = yield* scoreAuthenticatedSteps({ suite, pack: target.pack, trials: [trial], results: [{ source }] });
  return { report, reportText: scoreReportText(report), summary: summaryText(report) };
}
