/**
 * Repeated trials into files (`evaluation run --trials K`, scoring-v1.0.md
 * section 12), the file side of the series loop (trial-series.ts): K runs of one manifest with one agent configuration, each
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
 *
 * A module or command agent gets a record too (trial-record.ts): no
 * tokens or cost, but the isolation level it ran at and the wall time.
 */

import { operationalRecordDigest, operationalRecordText, type IsolationLevel, type OperationalRecord } from '../../core/scoring/operational.js';
import type { Suite } from '../../core/world/suite.js';
import { agentIsolation } from '../agents/local-operational.js';
import type { AgentSpec } from '../agents/spec.js';
import type { EvaluationRunSummary } from '../eval/runner.js';
import { checkOutputPath, writeOutputFile } from '../files.js';
import { acquireOutputLock } from '../output-lock.js';
import { runEvaluationToFile, type EvaluationFileOptions } from './evaluation.js';
import { runTrialSeries, type TrialHandle } from './trial-series.js';

export interface TrialsFileOptions extends Omit<EvaluationFileOptions, 'agent' | 'out'> {
  readonly trials: number;
  /** The result file of each trial (1-based k). */
  readonly resultPath: (k: number) => string;
  /** The agent of trial k (the adapter's transcript directory differs per trial). */
  readonly agentFor: (k: number, resultPath: string) => AgentSpec;
  /** The operational record file of trial k (the adapter, a module or command agent); absent: no record. */
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
  /** How the agent ran: `sandboxed` or `none` for a module or command agent, `in_process` for a builtin or the adapter. */
  readonly isolation: IsolationLevel;
}

export async function runTrialsToFiles(opts: TrialsFileOptions): Promise<TrialOutcome[]> {
  const inputs = [opts.suiteDir, opts.manifestPath];
  // The series loop (trial-series.ts) is the app's too; here each trial is a result file and a record file.
  return runTrialSeries<TrialOutcome>(
    {
      runTrial: async (trial) => {
        const k = trial.progress.trial;
        const resultPath = opts.resultPath(k);
        // One writer per trial: the lock on its result covers its operational record too (output-lock.ts).
        await checkOutputPath(resultPath, { force: true, inputs });
        const lock = await acquireOutputLock(resultPath, { scope: opts.scope, onNotice: opts.onNotice });
        try {
          return await runTrial(opts, trial, resultPath);
        } finally {
          await lock.release();
        }
      },
      keepRecord: async ({ trial: k }, record) => {
        const resultPath = opts.resultPath(k);
        await writeOutputFile(opts.operationalPath!(k, resultPath), operationalRecordText(record), { force: true, inputs: [...inputs, resultPath] });
      },
    },
    { first: 1, trials: opts.trials, onTrial: opts.onTrial === undefined ? undefined : ({ trial }) => opts.onTrial!(trial) },
  );
}

async function runTrial(opts: TrialsFileOptions, trial: TrialHandle, resultPath: string): Promise<TrialOutcome> {
  const k = trial.progress.trial;
  const inputs = [opts.suiteDir, opts.manifestPath];
  const agent = opts.agentFor(k, resultPath);
  const operationalPath = opts.operationalPath?.(k, resultPath);
  if (operationalPath !== undefined) {
    // evaluation run has no --force: an existing record is replaced only by --resume.
    const existsAdvice = 'evaluation run has no --force: continue the run with --resume, or choose another --out or --operational-out';
    await checkOutputPath(operationalPath, { force: opts.resume, inputs: [...inputs, resultPath], existsAdvice });
  }
  const isolation = agentIsolation(agent, opts.sandbox);
  trial.started();
  const began = performance.now();
  const { suite, summary } = await runEvaluationToFile({ ...opts, agent, out: resultPath, lockHeld: true });
  const wallMs = performance.now() - began;
  let operational: TrialOutcome['operational'] = null;
  if (operationalPath !== undefined) {
    const record = await trial.record({ modelId: opts.modelId, agent, agentPaths: opts.agentPaths, actTimeoutMs: opts.actTimeoutMs, isolation, summary, wallMs });
    if (record !== null) operational = { path: operationalPath, record, digest: operationalRecordDigest(record) };
  }
  return { trial: k, resultPath, suite, summary, operational, isolation };
}
