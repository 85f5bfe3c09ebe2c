/** `emberbench suite validate DIR`, and the suite fields other commands report. */

import type { Suite } from '../../core/world/suite.js';
import { loadSuiteDir } from '../../node/front-door/suite.js';
import type { CommandModule, Report } from '../command.js';
import { suiteFields } from '../options.js';

/** The suite validate report: the suite fields, scenario_count and the scenarios in manifest order. */
export function suiteValidateReport(suite: Suite): Report {
  return {
    ...suiteFields(suite),
    scenario_count: suite.entries.length,
    scenarios: suite.entries.map((e) => ({ scenario_id: e.scenarioId, scenario_hash: e.scenarioHash })),
  };
}

export const suiteModule: CommandModule = {
  group: 'suite',
  summary: 'suite directories',
  commands: [
    {
      words: ['suite', 'validate'],
      summary: 'a suite directory (manifest.json + scenario files)',
      description:
        'Loads a suite directory with the suite loader: every listed file must exist, no file may be unlisted, and every pinned hash and derived field must match. Reports the suite fields, scenario_count and every scenario_id with its content hash, in manifest order.',
      positionals: [{ name: 'DIR', description: 'the suite directory' }],
      options: [],
      examples: ['emberbench suite validate scenarios/public/v1 --json'],
      run: async (args) => suiteValidateReport(loadSuiteDir(args.positional(0))),
    },
  ],
};
