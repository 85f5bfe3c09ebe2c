/**
 * The score report of one archived trial through the workflow `emberbench
 * score` uses (src/node/workflows/score.ts scoreResults): the result
 * authenticated from scratch, checked against the pack, scored with the
 * library defaults. The report stored in the archive (and exported) is
 * therefore byte-identical to `score --result R (--pack P | --suite S)`.
 */

import type { EnvironmentPack } from '../../core/pack/pack.js';
import { scoreReportText } from '../../core/scoring/report.js';
import { summaryText } from '../../core/scoring/summary.js';
import type { Suite } from '../../core/world/suite.js';
import type { ScoredTrial } from '../archive/trials-store.js';
import { scoreResults } from '../workflows/score.js';

/** Scores one result text (a trial) against a pack (official) or its suite (unofficial). */
export function scoreResultText(resultText: string, source: string, target: { readonly suite: Suite; readonly pack: EnvironmentPack | null }): ScoredTrial {
  const report = scoreResults({ suite: target.pack?.suite ?? target.suite, pack: target.pack, results: [{ text: resultText, source }] });
  return { report, reportText: scoreReportText(report), summary: summaryText(report) };
}
