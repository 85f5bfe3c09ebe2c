/**
 * Repeated trials into files (`evaluation run --trials K`, scoring-v1.0.md
 * section 12): K runs of one manifest with one agent configuration, each
 * its own result file (resumable like any result), and for the
 * chat-completions adapter each with its operational record built from the
 * trial's transcripts after the trial's run. Trials run one after another;
 * inside a trial the episodes run concurrently as --jobs and
 * --max-connections allow.
 *
 * An operational record file is checked like an output before its trial
 * runs (an existing one is only replaced with `resume`), and written after
 * the trial's run ends; when the run stops early (an agent failure, Ctrl+C)
 * no record is written and `--resume` writes it later.
 */

import { operationalRecordDigest, operationalRecordText, type OperationalRecord } from '../../../core/scoring/operational.js';
import type { Suite } from '../../../core/world/suite.js';
import type { EvaluationRunSummary } from '../../eval/runner.js';
import { checkOutputPath, writeOutputFile } from '../../files.js';
import { runEvaluationToFile, type EvaluationFileOptions } from '../../workflows/evaluation.js';
import type { AgentSpec } from '../spec.js';
import { trialOperationalRecord } from './operational.js';

export interface TrialsFileOptions extends Omit<EvaluationFileOptions, 'agent' | 'out'> {
  readonly trials: number;
  /** The result file of each trial (1-based k). */
  readonly resultPath: (k: number) => string;
  /** The agent of trial k (the adapter's transcript directory differs per trial). */
  readonly agentFor: (k: number, resultPath: string) => AgentSpec;
  /** The operational record file of trial k; absent for agents without one. */
  readonly operationalPath?: (k: number, resultPath: string) => string;
  /** Told when trial k starts. */
  readonly onTrial?: (k: number) => void;
}

export interface TrialOutcome {
  readonly trial: number;
  readonly resultPath: string;
  readonly suite: Suite;
  readonly summary: EvaluationRunSummary;
  readonly operational: { readonly path: string; readonly record: OperationalRecord; readonly digest: string } | null;
}

export async function runTrialsToFiles(opts: TrialsFileOptions): Promise<TrialOutcome[]> {
  const outcomes: TrialOutcome[] = [];
  const inputs = [opts.suiteDir, opts.manifestPath];
  for (let k = 1; k <= opts.trials; k++) {
    const resultPath = opts.resultPath(k);
    const agent = opts.agentFor(k, resultPath);
    const operationalPath = opts.operationalPath?.(k, resultPath);
    if (operationalPath !== undefined) await checkOutputPath(operationalPath, { force: opts.resume, inputs: [...inputs, resultPath] });
    opts.onTrial?.(k);
    const { suite, summary } = await runEvaluationToFile({ ...opts, agent, out: resultPath });
    let operational: TrialOutcome['operational'] = null;
    if (operationalPath !== undefined && agent.kind === 'llm') {
      const indices = [...summary.result.episodes.map((e) => e.index), ...summary.result.failures.map((f) => f.index)];
      const record = await trialOperationalRecord({ modelId: opts.modelId, config: agent.options.config, transcriptDir: agent.options.transcriptDir, indices });
      if (record !== null) {
        await writeOutputFile(operationalPath, operationalRecordText(record), { force: true, inputs: [...inputs, resultPath] });
        operational = { path: operationalPath, record, digest: operationalRecordDigest(record) };
      }
    }
    outcomes.push({ trial: k, resultPath, suite, summary, operational });
  }
  return outcomes;
}
