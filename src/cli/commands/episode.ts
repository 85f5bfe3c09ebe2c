/** `emberbench episode run`: one scenario, one seed, one local agent, one replay-checked record. */

import { DEFAULT_ACT_TIMEOUT_MS, defaultEntryPoints, runEpisodeToFile, type AgentSpec } from '../../node/front-door/episode.js';
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
import type { CommandModule, ParsedArgs, Report } from '../command.js';
import { LLM_AGENT_OPTIONS, isLlmAgentArgument, rejectLlmOptions } from '../llm-options.js';

/** --agent / --agent-command, or the chat-completions adapter with its options (transcript next to --out). */
async function agentArgumentWithAdapter(args: ParsedArgs): Promise<AgentSpec> {
  // The adapter's configuration reader is loaded only for the adapter (llm-agent-argument.ts).
  if (isLlmAgentArgument(args)) return (await import('../llm-agent-argument.js')).llmAgentArgument(args, args.required('out'));
  rejectLlmOptions(args);
  return agentArgument(args);
}

async function episodeRun(args: ParsedArgs): Promise<Report> {
  // 1. The command line (exit 2): nothing is read before it is well-formed.
  const seed = seedArgument(args.required('seed'));
  const agent = await agentArgumentWithAdapter(args);
  const agentPaths = agentPathArguments(args.list('agent-path'));
  const actTimeoutMs = actTimeoutArgument(args.value('act-timeout-ms')) ?? DEFAULT_ACT_TIMEOUT_MS;
  const scenarioPath = args.required('scenario');
  const out = args.required('out');
  // Last: without a sandbox it says so (or refuses under --require-isolation, exit 4).
  const sandbox = agentSandboxArguments(args, agent);

  // 2. Inputs (exit 3), the output path (exit 6), the episode (exit 4), the replay check (exit 5), the write (exit 6).
  const { scenario, record, digest } = await runEpisodeToFile({
    scenarioPath,
    seed,
    agent,
    agentPaths,
    actTimeoutMs,
    out,
    force: args.flag('force'),
    sandbox,
    entryPoints: defaultEntryPoints(),
  });
  return {
    scenario_id: scenario.scenarioId,
    scenario_hash: scenario.hash,
    simulator_version: record.simulator_version,
    observation_version: record.observation_version,
    record_digest: digest,
    steps: record.steps,
    termination_reason: record.termination_reason,
  };
}

export const episodeModule: CommandModule = {
  group: 'episode',
  summary: 'single episodes',
  commands: [
    {
      words: ['episode', 'run'],
      summary: 'run one scenario with one seed and a local agent',
      description:
        "Runs one episode through the single simulator path with a fresh agent built by the factory, checks the record by replay and writes it as canonical JSON plus one LF. The scenario file's development seed is not used. Inputs and the output path are checked before any agent code is imported.",
      positionals: [],
      options: [
        { name: 'scenario', kind: 'value', required: true, valueName: 'FILE', description: 'the scenario file' },
        { name: 'seed', kind: 'value', required: true, valueName: 'N', description: 'the episode seed, a decimal integer in [0, 2^64 - 1]' },
        ...AGENT_CHOICE_OPTIONS,
        ...LLM_AGENT_OPTIONS,
        OUT_OPTION,
        AGENT_PATH_OPTION,
        ACT_TIMEOUT_OPTION,
        ...AGENT_SANDBOX_OPTIONS,
        FORCE_OPTION,
      ],
      examples: [
        'emberbench episode run --scenario scenarios/public/v1/v1-pub-01-single-exit-sparse.json --seed 3 --agent builtin:always-stay --out record.json',
        'emberbench episode run --scenario scenarios/public/v1/v1-pub-01-single-exit-sparse.json --seed 3 --agent my_agents:makeAgent --agent-path . --out record.json',
      ],
      run: (args) => episodeRun(args),
    },
  ],
};
