/**
 * `emberbench evaluation manifest | run | verify` (cli-v1.0.md): build an
 * evaluation manifest, run it with a local agent (resumable, --jobs), and
 * authenticate a result.
 */

import { existsSync } from 'node:fs';
import { UsageError, ValidationError } from '../../core/errors.js';
import { manifestHash } from '../../core/eval/manifest.js';
import { parseShard } from '../../core/eval/shard.js';
import { EVALUATION_RESULT_VERSION } from '../../core/eval/result.js';
import { expandSeedList } from '../../core/eval/seed-list.js';
import type { Suite } from '../../core/world/suite.js';
import {
  checkJobs,
  checkModelId,
  DEFAULT_ACT_TIMEOUT_MS,
  defaultEntryPoints,
  isLocalAgent,
  journalPath,
  progressLine,
  runMeter,
  runTrialsToFiles,
  verifyResultFile,
  writeManifestFile,
  type TrialOutcome,
} from '../../node/front-door/evaluation.js';
import {
  ACT_TIMEOUT_OPTION,
  AGENT_CHOICE_OPTIONS,
  agentArgument,
  AGENT_PATH_OPTION,
  FORCE_OPTION,
  OUT_OPTION,
  actTimeoutArgument,
  agentPathArguments,
  agentSandboxArguments,
  AGENT_SANDBOX_OPTIONS,
  seedArgument,
} from '../arguments.js';
import type { CommandContext, CommandModule, ParsedArgs, Report } from '../command.js';
import {
  LLM_AGENT_OPTIONS,
  LLM_EVALUATION_OPTIONS,
  isLlmAgentArgument,
  rejectLlmOptions,
  trialOperationalPath,
  trialResultPath,
  trialsArgument,
} from '../llm-options.js';
import { gracefulInterrupt } from '../interrupt.js';
import { SUITE_OPTIONS, suiteDirArgument, suiteFields } from '../options.js';

// ---------------------------------------------------------------------------
// Arguments (errors name fields; src/cli/field-flags.ts maps them to flags)

function jobsArgument(text: string | undefined): number {
  if (text === undefined) return 1;
  const jobs = /^[1-9][0-9]{0,5}$/.test(text) ? Number(text) : Number.NaN;
  checkJobs(jobs);
  return jobs;
}

/** What `evaluation run` says about an existing --out without --resume. */
const EXISTS_HINT = 'use --resume to continue it, or choose another --out';

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
  // A negative seed is named as such (seedArgument) before the list rules apply.
  for (const text of args.list('seed')) if (text.startsWith('-')) seedArgument(text);
  const seeds = expandSeedList(args.list('seed'));
  const out = args.required('out');
  const { suite, manifest } = await writeManifestFile({ suiteDir, seeds, out, force: args.flag('force') });
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
  const modelId = args.required('model-id');
  checkModelId(modelId);
  const trials = trialsArgument(args.value('trials'));
  const llm = isLlmAgentArgument(args);
  // --operational-out also names a module or command agent's record (checked below, once the agent is known).
  if (!llm) rejectLlmOptions(args, ['operational-out']);
  const agentPaths = agentPathArguments(args.list('agent-path'));
  const actTimeoutMs = actTimeoutArgument(args.value('act-timeout-ms')) ?? DEFAULT_ACT_TIMEOUT_MS;
  const jobs = jobsArgument(args.value('jobs'));
  const manifestPath = args.required('manifest');
  const out = args.required('out');
  const shardText = args.value('shard');
  const shard = shardText === undefined ? undefined : parseShard(shardText);

  // The adapter's --agent-config is read here (exit 3); one connection budget serves every trial.
  // Its configuration reader is loaded only for the adapter (llm-agent-argument.ts).
  const llmAgentArgument = llm ? (await import('../llm-agent-argument.js')).llmAgentArgument : undefined;
  const chosen = llmAgentArgument ? llmAgentArgument(args, trialResultPath(out, 1, trials), 1, trials) : agentArgument(args);
  // Progress lines say "trial k of K" and, for a language model, what this trial and the run spent so far.
  const meter = runMeter(trials, chosen.kind === 'llm' ? { pricing: chosen.options.config.pricing } : null);
  const first = chosen.kind === 'llm' && meter.liveUsage !== undefined ? { ...chosen, options: { ...chosen.options, liveUsage: meter.liveUsage } } : chosen;
  const slots = first.kind === 'llm' ? first.options.slots : undefined;
  // A module or command agent gets an operational record too: its isolation level and wall time.
  const local = isLocalAgent(first);
  if (!llm && !local && args.value('operational-out') !== undefined) {
    throw new UsageError('--operational-out applies only to --agent builtin:openai-chat, a MODULE:EXPORT agent or --agent-command (a builtin baseline has no operational record)');
  }
  // Without a sandbox it says so once (or refuses under --require-isolation, exit 4).
  const sandbox = agentSandboxArguments(args, first);

  // 2. Inputs (exit 3); the output's lock (exit 6 while another process writes it), then the runner checks
  // the output (exit 6) and a resumed file before opening the agent.
  // K trials run one after another, each into its own result file (llm-options.ts names them).
  // SIGINT and SIGTERM stop it at an episode boundary, resumable (interrupt.ts: exit 130).
  const interrupt = gracefulInterrupt();
  const outcomes = await runTrialsToFiles({
    suiteDir,
    manifestPath,
    modelId,
    agentPaths,
    actTimeoutMs,
    sandbox,
    jobs,
    trials,
    resultPath: (k) => trialResultPath(out, k, trials),
    agentFor: (k, path) => (k === 1 || llmAgentArgument === undefined ? first : llmAgentArgument(args, path, k, trials, slots, meter.liveUsage)),
    ...(llm || local ? { operationalPath: (k: number, path: string) => trialOperationalPath(args.value('operational-out'), path, k, trials) } : {}),
    onTrial: (k) => {
      meter.startTrial(k);
      if (trials > 1 && !json) context.io.stderr(`trial ${k} of ${trials}\n`);
    },
    resume: args.flag('resume'),
    continueOnFailure: args.flag('continue-on-failure'),
    existsHint: EXISTS_HINT,
    entryPoints: defaultEntryPoints(),
    onProgress: json ? undefined : (progress) => context.io.stderr(meter.decorate(progressLine(progress)) + '\n'),
    ...(shard === undefined ? {} : { shard }),
    // Human mode only: with --json a failure is one stderr line (cli-v1.0.md).
    ...(json ? {} : { onNotice: (text: string) => context.io.stderr(`emberbench: ${text}\n`) }),
    signal: interrupt.signal,
  }).finally(interrupt.release);
  const { suite, summary } = outcomes[outcomes.length - 1]!;
  return {
    ...resultFields(suite, {
      modelId,
      manifestHash: summary.manifestHash,
      digest: summary.digest,
      scheduled: summary.scheduledEpisodes,
      completed: summary.completedEpisodes,
      failed: summary.failedEpisodes,
      complete: summary.complete,
    }),
    ...trialFields(outcomes, llm),
    // The isolation level the agent ran at, as its operational record states it (a builtin writes no record: its report keeps its fields).
    ...(llm || local ? { isolation: outcomes[outcomes.length - 1]!.isolation } : {}),
    ...(shard === undefined ? {} : { shard: `${shard.index}/${shard.count}` }),
  };
}

/** With --trials K > 1 or the adapter: every trial's result and operational record (the top-level fields are the last trial's). */
function trialFields(outcomes: readonly TrialOutcome[], llm: boolean): Report {
  if (outcomes.length === 1 && !llm) return {};
  return {
    trials: outcomes.map((o) => ({
      trial: o.trial,
      result: o.resultPath,
      result_digest: o.summary.digest,
      completed_episodes: o.summary.completedEpisodes,
      failed_episodes: o.summary.failedEpisodes,
      complete: o.summary.complete,
      operational_record: o.operational?.path ?? null,
      operational_digest: o.operational?.digest ?? null,
      inference_config_digest: o.operational?.record.inference_config_digest ?? null,
    })),
  };
}

// ---------------------------------------------------------------------------
// evaluation verify

/**
 * A result that is missing while its journal is there is a run that was
 * interrupted before its last commit: say so, and how to finish it, instead
 * of only "does not exist" (exit 3 either way).
 */
function refuseInterruptedRun(resultPath: string): void {
  const journal = journalPath(resultPath);
  if (existsSync(resultPath) || !existsSync(journal)) return;
  throw new ValidationError(
    `${resultPath}: evaluation result does not exist, but its journal ${journal} does: the run was interrupted; finish it with evaluation run --resume and the same --suite, --manifest, --model-id, --agent and --out ${resultPath}, then verify it`,
  );
}

async function evaluationVerify(args: ParsedArgs): Promise<Report> {
  const suiteDir = suiteDirArgument(args);
  const resultPath = args.required('result');
  refuseInterruptedRun(resultPath);
  const { suite, auth } = verifyResultFile({ suiteDir, resultPath, manifestPath: args.value('manifest'), requireComplete: args.flag('require-complete') });
  return {
    verified: true,
    ...resultFields(suite, {
      modelId: auth.modelId,
      manifestHash: auth.manifestHash,
      digest: auth.digest,
      scheduled: auth.scheduledEpisodes,
      completed: auth.committed,
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
        'Builds the evaluation manifest of a suite and ordered seeds (scenario-major episodes) and writes its manifest file text. --seed takes a seed or an inclusive range A..B (0..29 is the 30 seeds 0 to 29), repeatable and mixed; the order given is kept exactly; the seeds are never generated, sorted, removed or printed, and a seed given twice (also through overlapping ranges) is refused.',
      positionals: [],
      options: [
        ...SUITE_OPTIONS,
        { name: 'seed', kind: 'repeatable', required: true, valueName: 'N', description: 'an episode seed, a decimal integer in [0, 2^64 - 1], or an inclusive range A..B of them (at most 100000 seeds); the order is the manifest order' },
        OUT_OPTION,
        FORCE_OPTION,
      ],
      examples: [
        `emberbench evaluation manifest --suite ${EXAMPLE_SUITE} --seed 1 --seed 7 --seed 42 --out manifest.json`,
        `emberbench evaluation manifest --suite ${EXAMPLE_SUITE} --seed 0..29 --out manifest.json`,
      ],
      run: (args) => evaluationManifest(args),
    },
    {
      words: ['evaluation', 'run'],
      summary: 'run every manifest episode with a local agent (resumable)',
      description:
        'Runs every scheduled episode with a fresh agent, checks each record by replay and computes its metrics from the replay. While it runs, each finished episode (or declared failure) is appended to the journal OUT.journal and fsynced before the run goes on; at the end the whole result is written to OUT once, atomically, and the journal is removed. An existing --out or journal is never overwritten: without --resume it is an output conflict (exit 6; continue it with --resume, or write to another --out); with --resume the journal (a torn last line dropped) or else the result file must authenticate and carry the same manifest hash and model ID, and its episodes are not run again. After an agent failure OUT holds the episodes finished before it (exit 4), unless --continue-on-failure declares the failure and goes on. --trials K runs K trials, each into its own result (OUT_STEM.t1.json ... when K > 1). With --agent builtin:openai-chat --agent-config FILE a language model behind an OpenAI-compatible endpoint is evaluated: episode transcripts go to OUT_STEM.transcripts/ and each trial\'s operational record (latency, tokens, cost) to OUT_STEM.operational.json (docs/llm.md). A module or command agent runs in the bubblewrap sandbox (docs/agents.md); its isolation level (sandboxed, or none where no sandbox exists) is reported and written, with the run\'s wall time, to its operational record OUT_STEM.operational.json. An operational record holds wall-clock times (wall time, latencies), so two identical runs write different operational records; the result is byte-identical. Progress goes to stderr unless --json. One process writes an output: the run holds OUT.lock for its whole life, and a second run of the same --out is refused (exit 6) naming the holder (pid, host, start); a lock left by a process killed on this host is taken over with a notice, one from another host never (the message says how to clear it). SIGINT or SIGTERM stops the run at an episode boundary: the journal keeps every finished episode, the lock is released, the exit status is 130, and --resume continues (a second signal stops at once).',
      positionals: [],
      options: [
        ...SUITE_OPTIONS,
        { name: 'manifest', kind: 'value', required: true, valueName: 'FILE', description: 'the evaluation manifest file' },
        { name: 'model-id', kind: 'value', required: true, valueName: 'ID', description: 'the model ID: non-empty, printable, at most 256 characters, no outer whitespace' },
        ...AGENT_CHOICE_OPTIONS,
        ...LLM_AGENT_OPTIONS,
        ...LLM_EVALUATION_OPTIONS,
        AGENT_PATH_OPTION,
        ACT_TIMEOUT_OPTION,
        ...AGENT_SANDBOX_OPTIONS,
        { name: 'jobs', kind: 'value', valueName: 'N', description: 'episodes run in parallel worker threads, 1 to 4 per core (default 1); the result bytes do not depend on it' },
        { name: 'shard', kind: 'value', valueName: 'I/N', description: 'run only shard I of N: the episodes whose index i has i mod N = I - 1; the result is an incomplete result of the whole manifest, for evaluation merge (docs/sharding.md)' },
        { name: 'resume', kind: 'flag', description: 'continue an existing journal or result file (same manifest and model ID)' },
        { name: 'continue-on-failure', kind: 'flag', description: 'declare an agent failure in the result and go on with the next episode' },
        { ...OUT_OPTION, description: 'the result file (its journal is OUT.journal while the run goes); its directory must exist; an existing file is only ever resumed (no --force)' },
      ],
      examples: [
        `emberbench evaluation run --suite ${EXAMPLE_SUITE} --manifest manifest.json --model-id stay --agent builtin:always-stay --out stay.json`,
        `emberbench evaluation run --suite ${EXAMPLE_SUITE} --manifest manifest.json --model-id my-model --agent my_agents:makeAgent --agent-path . --jobs 4 --out result.json --resume`,
        `emberbench evaluation run --suite ${EXAMPLE_SUITE} --manifest manifest.json --model-id qwen2.5-7b --agent builtin:openai-chat --agent-config llm.json --trials 3 --max-connections 16 --out qwen.json`,
        'emberbench evaluation run --generated-suite batch --manifest manifest.json --model-id cab --agent builtin:congestion-aware-v1 --shard 2/4 --out shard-2.json',
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
