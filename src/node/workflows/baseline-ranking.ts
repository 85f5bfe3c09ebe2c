/**
 * Scores every baseline on a suite with the given seeds through the same
 * path as the CLI (evaluation run, authentication, score report), in
 * process, the results kept in memory (MemorySink). `scripts/rank-baselines.ts` prints the README table from it, and
 * a test checks that the public suite ranks the baselines as required.
 */

import { BASELINE_IDS } from '../../core/baselines/registry.js';
import { authenticateResult } from '../../core/eval/authenticate.js';
import { buildManifest } from '../../core/eval/manifest.js';
import { buildScoreReport, type ScoreReport } from '../../core/scoring/report.js';
import { defaultEntryPoints } from '../entry-points.js';
import { loadSuiteDir } from '../inputs.js';
import { runEvaluation } from '../eval/runner.js';
import { MemorySink } from '../eval/sink.js';

/** The baselines that are policies of their own, strongest first (adv-block-scrub is a wrapper). */
export const RANKED_BASELINES = BASELINE_IDS.filter((id) => id !== 'adv-block-scrub');

export interface BaselineScore {
  readonly id: string;
  readonly report: ScoreReport;
}

export async function scoreBaselines(suiteDir: string, seeds: readonly string[], ids: readonly string[] = RANKED_BASELINES): Promise<BaselineScore[]> {
  const suite = loadSuiteDir(suiteDir);
  const manifest = buildManifest(suite, seeds);
  const scores: BaselineScore[] = [];
  for (const id of ids) {
    const sink = new MemorySink();
    await runEvaluation({
      suite,
      suiteDir,
      manifest,
      modelId: id,
      agent: { kind: 'builtin', id },
      agentPaths: [],
      actTimeoutMs: 30_000,
      sink,
      continueOnFailure: false,
      jobs: 1,
      entryPoints: defaultEntryPoints(),
    });
    // Authenticated from its text, as `score` reads a result file.
    const trial = authenticateResult(sink.final.text, `${id} result`, suite, { requireComplete: true });
    scores.push({ id, report: buildScoreReport({ suite, trials: [trial], target: { kind: 'suite' } }) });
  }
  return scores;
}
