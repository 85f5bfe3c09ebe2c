/** `emberbench scenario validate FILE`. */

import { loadScenarioFile } from '../../node/front-door/scenario.js';
import type { CommandModule } from '../command.js';

export const scenarioModule: CommandModule = {
  group: 'scenario',
  summary: 'scenario files',
  commands: [
    {
      words: ['scenario', 'validate'],
      summary: 'one scenario file',
      description:
        'Loads a scenario file with the strict scenario parser (unknown keys, wrong types, duplicate keys and non-canonical numbers are errors). Reports scenario_id, scenario_hash (the content hash) and schema_version.',
      positionals: [{ name: 'FILE', description: 'the scenario file' }],
      options: [],
      examples: ['emberbench scenario validate scenarios/public/v1/v1-pub-01-single-exit-sparse.json --json'],
      run: async (args) => {
        const scenario = loadScenarioFile(args.positional(0));
        return {
          scenario_id: scenario.scenarioId,
          scenario_hash: scenario.hash,
          schema_version: String(scenario.json['schema_version']),
        };
      },
    },
  ],
};
