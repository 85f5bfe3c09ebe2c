/** `emberbench episode run`: one scenario, one seed, one local agent, one replay-checked record. */

import { prepareEpisode } from '../../core/world/episode-start.js';
import { recordDigest, recordText } from '../../core/sim/record.js';
import { replayRecord } from '../../core/sim/replay.js';
import { runEpisode } from '../../core/sim/runner.js';
import { DEFAULT_ACT_TIMEOUT_MS, openAgent } from '../../node/agents/open-agent.js';
import { checkOutputPath, writeOutputFile } from '../../node/files.js';
import { loadScenarioFile } from '../../node/inputs.js';
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
import type { CommandModule, ParsedArgs, Report } from '../command.js';

async function episodeRun(args: ParsedArgs): Promise<Report> {
  // 1. The command line (exit 2): nothing is read before it is well-formed.
  const seed = seedArgument(args.required('seed'));
  const spec = agentArgument(args);
  const agentPaths = agentPathArguments(args.list('agent-path'));
  const actTimeoutMs = actTimeoutArgument(args.value('act-timeout-ms'));
  const scenarioPath = args.required('scenario');
  const out = args.required('out');
  const output = { force: args.flag('force'), inputs: [scenarioPath, ...agentModuleInputs(spec, agentPaths)] };

  // 2. Inputs (exit 3) and the output path (exit 6), before any agent code is imported.
  const scenario = loadScenarioFile(scenarioPath);
  await checkOutputPath(out, output);
  const start = prepareEpisode(scenario, seed);

  // 3. The episode (exit 4 for agent failures), through the single simulator path.
  const session = await openAgent(spec, { agentPaths, actTimeoutMs: actTimeoutMs ?? DEFAULT_ACT_TIMEOUT_MS });
  let run;
  try {
    run = await runEpisode(start, await session.factory());
  } catch (error) {
    // The episode's error is the one reported; closing is best effort then.
    await session.close().catch(() => undefined);
    throw error;
  }
  await session.close();

  // 4. The replay check (exit 5), then the atomic write (exit 6).
  const text = recordText(run.record);
  replayRecord(scenario, run.record);
  await writeOutputFile(out, text, output);
  return {
    scenario_id: scenario.scenarioId,
    scenario_hash: scenario.hash,
    simulator_version: run.record.simulator_version,
    observation_version: run.record.observation_version,
    record_digest: recordDigest(text),
    steps: run.record.steps,
    termination_reason: run.record.termination_reason,
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
        OUT_OPTION,
        AGENT_PATH_OPTION,
        ACT_TIMEOUT_OPTION,
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
