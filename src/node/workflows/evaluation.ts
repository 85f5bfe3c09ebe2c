/**
 * `evaluation manifest | run | verify` as services over files, shared by the
 * CLI and the app. Each returns what it built or checked; the caller words
 * the report.
 */

import type { AgentSandboxOptions } from '../agents/sandbox-options.js';
import { authenticateResultFile, type StreamedResult } from '../eval/result-reader.js';
import { buildManifest, manifestText, type EvaluationManifest } from '../../core/eval/manifest.js';
import type { Shard } from '../../core/eval/shard.js';
import type { Suite } from '../../core/world/suite.js';
import { agentModuleInputs, type AgentSpec } from '../agents/spec.js';
import type { EntryPoints } from '../entry-points.js';
import { JournalCheckpointSink } from '../eval/journal-sink.js';
import { checkModelId, runEvaluation, type EvaluationProgress, type EvaluationRunSummary } from '../eval/runner.js';
import { checkOutputPath, writeOutputFile } from '../files.js';
import { loadManifestFile, loadSuiteDir } from '../inputs.js';
import type { ResourceScope } from '../lifetime.js';
import { acquireOutputLock } from '../output-lock.js';

export interface ManifestFileOptions {
  readonly suiteDir: string;
  /** The seeds in manifest order (expandSeedList for ranges). */
  readonly seeds: readonly string[];
  readonly out: string;
  readonly force: boolean;
}

/** Builds the manifest of a suite and seeds and writes it (exit 3 for the suite, 6 for the output). */
export async function writeManifestFile(opts: ManifestFileOptions): Promise<{ readonly suite: Suite; readonly manifest: EvaluationManifest }> {
  const output = { force: opts.force, inputs: [opts.suiteDir] };
  const suite = loadSuiteDir(opts.suiteDir);
  await checkOutputPath(opts.out, output);
  const manifest = buildManifest(suite, opts.seeds);
  await writeOutputFile(opts.out, manifestText(manifest), output);
  return { suite, manifest };
}

export interface EvaluationFileOptions {
  readonly suiteDir: string;
  readonly manifestPath: string;
  readonly modelId: string;
  readonly agent: AgentSpec;
  readonly agentPaths: readonly string[];
  readonly actTimeoutMs: number;
  readonly jobs: number;
  /** The result file (the checkpoint). */
  readonly out: string;
  readonly resume: boolean;
  readonly continueOnFailure: boolean;
  /** Run only this slice of the manifest (--shard I/N); the result holds only its episodes. */
  readonly shard?: Shard;
  /** What to tell a user whose output exists without resume (the CLI names its flags). */
  readonly existsHint?: string;
  readonly entryPoints: EntryPoints;
  readonly scope?: ResourceScope;
  /** The sandbox of a module or command agent; default the default policy (sandbox-options.ts). */
  readonly sandbox?: AgentSandboxOptions;
  readonly onProgress?: (progress: EvaluationProgress) => void;
  /** Told when the lock of a dead holder is taken over (output-lock.ts). */
  readonly onNotice?: (text: string) => void;
  /** The caller already holds the lock of `out` (runTrialsToFiles, for the trial's operational record too). */
  readonly lockHeld?: boolean;
  readonly signal?: AbortSignal;
}

/**
 * Runs an evaluation into a result file, journaled while it runs
 * (JournalCheckpointSink: OUT.journal gets one fsynced line per episode, OUT
 * is written at the end, or with the partial result when the run stops on
 * an error). Order: the model ID (exit 2), the suite and manifest (exit 3),
 * then the lock on OUT (output-lock.ts: exit 6 while another process writes
 * it; held until the run ends, however it ends), then the runner's checks
 * and the checkpoint's (runner.ts, journal-sink.ts).
 */
export async function runEvaluationToFile(opts: EvaluationFileOptions): Promise<{ readonly suite: Suite; readonly summary: EvaluationRunSummary }> {
  checkModelId(opts.modelId);
  const suite = loadSuiteDir(opts.suiteDir);
  const manifest = loadManifestFile(opts.manifestPath);
  const inputs = [opts.suiteDir, opts.manifestPath, ...agentModuleInputs(opts.agent, opts.agentPaths)];
  let lock;
  if (opts.lockHeld !== true) {
    // The output rules first (a missing directory, an input), for their precise messages.
    await checkOutputPath(opts.out, { force: true, inputs });
    lock = await acquireOutputLock(opts.out, { scope: opts.scope, onNotice: opts.onNotice });
  }
  try {
    return await runLocked(opts, suite, manifest, inputs);
  } finally {
    await lock?.release();
  }
}

async function runLocked(
  opts: EvaluationFileOptions,
  suite: Suite,
  manifest: EvaluationManifest,
  inputs: readonly string[],
): Promise<{ readonly suite: Suite; readonly summary: EvaluationRunSummary }> {
  const summary = await runEvaluation({
    suite,
    suiteDir: opts.suiteDir,
    manifest,
    manifestSource: opts.manifestPath,
    modelId: opts.modelId,
    agent: opts.agent,
    agentPaths: opts.agentPaths,
    actTimeoutMs: opts.actTimeoutMs,
    sandbox: opts.sandbox,
    sink: new JournalCheckpointSink({ path: opts.out, inputs, resume: opts.resume, existsHint: opts.existsHint, scope: opts.scope }),
    continueOnFailure: opts.continueOnFailure,
    jobs: opts.jobs,
    entryPoints: opts.entryPoints,
    scope: opts.scope,
    onProgress: opts.onProgress,
    signal: opts.signal,
    ...(opts.shard === undefined ? {} : { shard: opts.shard }),
  });
  return { suite, summary };
}

export interface VerifyResultOptions {
  readonly suiteDir: string;
  readonly resultPath: string;
  /** Require this manifest (exit 5 otherwise). */
  readonly manifestPath?: string;
  /** Require every scheduled episode (exit 5 otherwise). */
  readonly requireComplete: boolean;
}

/**
 * Authenticates a result file from scratch (exit 3, or 5 for a replay
 * mismatch or a required manifest or completeness), streaming it episode by
 * episode (result-reader.ts), so a result of any size verifies in memory
 * bounded by its largest episode.
 */
export function verifyResultFile(opts: VerifyResultOptions): { readonly suite: Suite; readonly auth: StreamedResult } {
  const suite = loadSuiteDir(opts.suiteDir);
  const requiredManifest = opts.manifestPath === undefined ? undefined : loadManifestFile(opts.manifestPath);
  const auth = authenticateResultFile(opts.resultPath, opts.resultPath, suite, { requiredManifest, requireComplete: opts.requireComplete });
  return { suite, auth };
}
