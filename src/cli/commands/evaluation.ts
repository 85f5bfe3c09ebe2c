/**
 * `emberbench evaluation manifest | run | verify` (cli-v1.0.md): build an
 * evaluation manifest, run it with a local agent (resumable, --jobs), and
 * authenticate a result.
 */

import { authenticateResult, type AuthenticatedResult } from '../../core/eval/authenticate.js';
import { buildManifest, manifestHash, manifestText, parseManifestText, type EvaluationManifest } from '../../core/eval/manifest.js';
import { modelIdProblem } from '../../core/eval/model-id.js';
import { EVALUATION_RESULT_VERSION } from '../../core/eval/result.js';
import { UsageError } from '../../core/errors.js';
import type { Suite } from '../../core/world/suite.js';
import { DEFAULT_ACT_TIMEOUT_MS } from '../../node/agents/open-agent.js';
import { checkJobs, progressLine, runEvaluation, type EvaluationRunSummary } from '../../node/eval/runner.js';
import { checkOutputPath, writeOutputFile } from '../../node/files.js';
import { loadSuiteDir, readTextInput } from '../../node/inputs.js';
import {
  ACT_TIMEOUT_OPTION,
  AGENT_CHOICE_OPTIONS,
  agentArgument,
  agentModuleInputs,
  AGENT_PATH_OPTION,
  FORCE_OPTION,
  OUT_OPTION,
  actTimeoutArgument,
  agentPathArguments,
  seedArgument,
} from '../arguments.js';
import type { CommandContext, CommandModule, OptionSpec, ParsedArgs, Report } from '../command.js';
import { suiteFields } from './suite.js';

// ---------------------------------------------------------------------------
// Shared arguments

export const SUITE_OPTIONS: readonly OptionSpec[] = [
  { name: 'suite', kind: 'value', valueName: 'DIR', description: 'the suite directory (give this or --generated-suite)' },
  { name: 'generated-suite', kind: 'value', valueName: 'DIR', description: 'a frozen generated suite (give this or --suite)' },
];

/** The suite directory of a suite-taking command: exactly one of --suite DIR or --generated-suite DIR (exit 2 otherwise). */
export function suiteDirArgument(args: ParsedArgs): string {
  const suite = args.value('suite');
  const generated = args.value('generated-suite');
  if (suite !== undefined && generated !== undefined) throw new UsageError('give exactly one of --suite DIR or --generated-suite DIR, not both');
  if (generated !== undefined) throw new UsageError('--generated-suite: generated suites are not supported by this build yet');
  if (suite === undefined) throw new UsageError('missing required option: --suite DIR (or --generated-suite DIR)');
  return suite;
}

/** --seed values in command-line order; a malformed or duplicate seed is a usage error. Seeds are never echoed. */
function seedArguments(texts: readonly string[]): string[] {
  const seeds = texts.map((text) => seedArgument(text));
  const seen = new Set<string>();
  seeds.forEach((seed, i) => {
    if (seen.has(seed)) throw new UsageError(`--seed: the seed given in position ${i + 1} duplicates an earlier one (seeds must be distinct)`);
    seen.add(seed);
  });
  return seeds;
}

function modelIdArgument(text: string): string {
  const problem = modelIdProblem(text);
  if (problem !== null) throw new UsageError(`--model-id: ${problem}`);
  return text;
}

function jobsArgument(text: string | undefined): number {
  if (text === undefined) return 1;
  const jobs = /^[1-9][0-9]{0,5}$/.test(text) ? Number(text) : Number.NaN;
  checkJobs(jobs);
  return jobs;
}

function loadManifestFile(path: string): EvaluationManifest {
  return parseManifestText(readTextInput(path, 'evaluation manifest'), path);
}

/** The fields `evaluation run` and `evaluation verify` report (cli-v1.0.md). */
function resultFields(
  suite: Suite,
  r: { modelId: string; manifestHash: string; digest: string; scheduled: number; completed: number; failed: number; complete: boolean },
): Report {
  return {
    model_id: r.modelId,
    result_version: EVALUATION_RESULT_VERSION,
    manifest_hash: r.manifestHash,
    ...suiteFields(suite),
    result_digest: r.digest,
    scheduled_episodes: r.scheduled,
    completed_episodes: r.completed,
    failed_episodes: r.failed,
    complete: r.complete,
  };
}

// ---------------------------------------------------------------------------
// evaluation manifest

async function evaluationManifest(args: ParsedArgs): Promise<Report> {
  const suiteDir = suiteDirArgument(args);
  const seeds = seedArguments(args.list('seed'));
  const out = args.required('out');
  const output = { force: args.flag('force'), inputs: [suiteDir] };
  const suite = loadSuiteDir(suiteDir);
  await checkOutputPath(out, output);
  const manifest = buildManifest(suite, seeds);
  await writeOutputFile(out, manifestText(manifest), output);
  return {
    manifest_hash: manifestHash(manifest),
    manifest_version: manifest.evaluation_manifest_version,
    ...suiteFields(suite),
    episode_count: manifest.episodes.length,
    seed_count: manifest.seeds.length,
  };
}

// ---------------------------------------------------------------------------
// evaluation run

async function evaluationRun(args: ParsedArgs, context: CommandContext, json: boolean): Promise<Report> {
  // 1. The command line (exit 2).
  const suiteDir = suiteDirArgument(args);
  const modelId = modelIdArgument(args.required('model-id'));
  const agent = agentArgument(args);
  const agentPaths = agentPathArguments(args.list('agent-path'));
  const actTimeoutMs = actTimeoutArgument(args.value('act-timeout-ms')) ?? DEFAULT_ACT_TIMEOUT_MS;
  const jobs = jobsArgument(args.value('jobs'));
  const manifestPath = args.required('manifest');
  const out = args.required('out');

  // 2. Inputs (exit 3); the runner then checks the output (exit 6) and a resumed file before opening the agent.
  const suite = loadSuiteDir(suiteDir);
  const manifest = loadManifestFile(manifestPath);
  const summary: EvaluationRunSummary = await runEvaluation({
    suite,
    suiteDir,
    manifest,
    manifestSource: manifestPath,
    modelId,
    agent,
    agentPaths,
    actTimeoutMs,
    outPath: out,
    inputs: [suiteDir, manifestPath, ...agentModuleInputs(agent, agentPaths)],
    resume: args.flag('resume'),
    continueOnFailure: args.flag('continue-on-failure'),
    jobs,
    onProgress: json ? undefined : (progress) => context.io.stderr(progressLine(progress) + '\n'),
  });
  return resultFields(suite, {
    modelId,
    manifestHash: summary.manifestHash,
    digest: summary.digest,
    scheduled: summary.scheduledEpisodes,
    completed: summary.completedEpisodes,
    failed: summary.failedEpisodes,
    complete: summary.complete,
  });
}

// ---------------------------------------------------------------------------
// evaluation verify

async function evaluationVerify(args: ParsedArgs): Promise<Report> {
  const suiteDir = suiteDirArgument(args);
  const resultPath = args.required('result');
  const manifestPath = args.value('manifest');
  const suite = loadSuiteDir(suiteDir);
  const requiredManifest = manifestPath === undefined ? undefined : loadManifestFile(manifestPath);
  const text = readTextInput(resultPath, 'evaluation result');
  const auth: AuthenticatedResult = authenticateResult(text, resultPath, suite, {
    requiredManifest,
    requireComplete: args.flag('require-complete'),
  });
  return {
    verified: true,
    ...resultFields(suite, {
      modelId: auth.result.model_id,
      manifestHash: auth.manifestHash,
      digest: auth.digest,
      scheduled: auth.scheduledEpisodes,
      completed: auth.episodes.length,
      failed: auth.failures.length,
      complete: auth.complete,
    }),
  };
}

// ---------------------------------------------------------------------------

const EXAMPLE_SUITE = 'scenarios/public/v1';

export const evaluationModule: CommandModule = {
  group: 'evaluation',
  summary: 'evaluation manifests, runs and results',
  commands: [
    {
      words: ['evaluation', 'manifest'],
      summary: 'build an evaluation manifest from a suite and ordered seeds',
      description:
        'Builds the evaluation manifest of a suite and ordered seeds (scenario-major episodes) and writes its manifest file text. The seed order is kept exactly; the seeds are never generated, sorted, removed or printed.',
      positionals: [],
      options: [
        ...SUITE_OPTIONS,
        { name: 'seed', kind: 'repeatable', required: true, valueName: 'N', description: 'an episode seed, a decimal integer in [0, 2^64 - 1]; the order is the manifest order' },
        OUT_OPTION,
        FORCE_OPTION,
      ],
      examples: [`emberbench evaluation manifest --suite ${EXAMPLE_SUITE} --seed 1 --seed 7 --seed 42 --out manifest.json`],
      run: (args) => evaluationManifest(args),
    },
    {
      words: ['evaluation', 'run'],
      summary: 'run every manifest episode with a local agent (resumable)',
      description:
        'Runs every scheduled episode with a fresh agent, checks each record by replay, computes its metrics from the replay and saves the whole result atomically after every episode. An existing --out is never overwritten: without --resume it is an output conflict (exit 6); with --resume it must authenticate and carry the same manifest hash and model ID, and its episodes are not run again. After an agent failure the last checkpoint stays (exit 4) unless --continue-on-failure declares the failure and goes on. Progress goes to stderr unless --json.',
      positionals: [],
      options: [
        ...SUITE_OPTIONS,
        { name: 'manifest', kind: 'value', required: true, valueName: 'FILE', description: 'the evaluation manifest file' },
        { name: 'model-id', kind: 'value', required: true, valueName: 'ID', description: 'the model ID: non-empty, printable, at most 256 characters, no outer whitespace' },
        ...AGENT_CHOICE_OPTIONS,
        AGENT_PATH_OPTION,
        ACT_TIMEOUT_OPTION,
        { name: 'jobs', kind: 'value', valueName: 'N', description: 'episodes run in parallel worker threads, 1 to 4 per core (default 1); the result bytes do not depend on it' },
        { name: 'resume', kind: 'flag', description: 'continue an existing result file (same manifest and model ID)' },
        { name: 'continue-on-failure', kind: 'flag', description: 'declare an agent failure in the result and go on with the next episode' },
        { ...OUT_OPTION, description: 'the result file; its directory must exist; an existing file is only ever resumed (no --force)' },
      ],
      examples: [
        `emberbench evaluation run --suite ${EXAMPLE_SUITE} --manifest manifest.json --model-id stay --agent builtin:always-stay --out stay.json`,
        `emberbench evaluation run --suite ${EXAMPLE_SUITE} --manifest manifest.json --model-id my-model --agent my_agents:makeAgent --agent-path . --jobs 4 --out result.json --resume`,
      ],
      run: (args, context) => evaluationRun(args, context, args.flag('json')),
    },
    {
      words: ['evaluation', 'verify'],
      summary: 'authenticate an evaluation result',
      description:
        'Loads the result strictly and authenticates it: the embedded manifest must match the suite and the running versions, every run record is replayed and its metrics recomputed. A malformed, duplicate, unknown, non-canonical or tampered episode fails the whole artifact (exit 3, or 5 for a replay mismatch). --manifest requires this exact manifest and --require-complete every scheduled episode (exit 5 otherwise).',
      positionals: [],
      options: [
        ...SUITE_OPTIONS,
        { name: 'result', kind: 'value', required: true, valueName: 'FILE', description: 'the evaluation result file' },
        { name: 'manifest', kind: 'value', valueName: 'FILE', description: 'require this exact evaluation manifest (exit 5 if the result embeds another)' },
        { name: 'require-complete', kind: 'flag', description: 'require a committed result for every scheduled episode (exit 5 otherwise)' },
      ],
      examples: [`emberbench evaluation verify --suite ${EXAMPLE_SUITE} --result result.json --manifest manifest.json --require-complete --json`],
      run: (args) => evaluationVerify(args),
    },
  ],
};
