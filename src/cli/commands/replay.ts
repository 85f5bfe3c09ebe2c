/** `emberbench replay verify`: authenticates one run record by replay. */

import { parseRecordText } from '../../core/sim/record-codec.js';
import { recordDigest } from '../../core/sim/record.js';
import { replayRecord } from '../../core/sim/authenticate-record.js';
import { loadScenarioFile, readTextInput } from '../../node/front-door/replay.js';
import type { CommandModule, ParsedArgs, Report } from '../command.js';

async function replayVerify(args: ParsedArgs): Promise<Report> {
  const scenario = loadScenarioFile(args.required('scenario'));
  const recordPath = args.required('record');
  // Strict load (exit 3): JSON the record loader accepts and that round-trips exactly.
  const text = readTextInput(recordPath, 'run record');
  const record = parseRecordText(text, recordPath);
  // Replay (exit 5 on any difference; exit 3 for a prefix that stops before termination).
  const replay = replayRecord(scenario, record, [], recordPath);
  return {
    verified: true,
    scenario_id: scenario.scenarioId,
    scenario_hash: scenario.hash,
    record_digest: recordDigest(text),
    simulator_version: record.simulator_version,
    observation_version: record.observation_version,
    steps: replay.steps,
    termination_reason: replay.termination,
  };
}

export const replayModule: CommandModule = {
  group: 'replay',
  summary: 'run record checks',
  commands: [
    {
      words: ['replay', 'verify'],
      summary: 'authenticate one run record by replay',
      description:
        'Loads the run record strictly (it must be canonical JSON plus one LF with no unknown or changed field: else exit 3), replays its action log against the scenario (any version, scenario-hash, initial-state or trajectory difference: exit 5) and requires a complete episode (a replayable prefix: exit 3). There is no best-effort recovery.',
      positionals: [],
      options: [
        { name: 'scenario', kind: 'value', required: true, valueName: 'FILE', description: 'the scenario file the record was run on' },
        { name: 'record', kind: 'value', required: true, valueName: 'FILE', description: 'the run record file' },
      ],
      examples: ['emberbench replay verify --scenario scenarios/public/v1/v1-pub-01-single-exit-sparse.json --record record.json --json'],
      run: (args) => replayVerify(args),
    },
  ],
};
