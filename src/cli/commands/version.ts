/** `emberbench version`: the benchmark revision and every contract version. */

import { BENCHMARK_REVISION, BENCHMARK_VERSIONS, TOOLING_VERSIONS } from '../../core/versions.js';
import type { CommandModule, Report } from '../command.js';

/**
 * Built from the one version list, so a version that provenance pins is
 * always reported. Nothing here depends on the environment (no paths,
 * platform or Node version).
 */
export function versionReport(): Report {
  return { benchmark_revision: BENCHMARK_REVISION, ...BENCHMARK_VERSIONS, ...TOOLING_VERSIONS };
}

export const versionModule: CommandModule = {
  group: 'version',
  summary: 'contract versions',
  commands: [
    {
      words: ['version'],
      summary: 'contract versions',
      description:
        'Reports benchmark_revision, every benchmark-defining version (the list evaluation provenance pins) and the tooling versions that do not change what a score means.',
      positionals: [],
      options: [],
      examples: ['emberbench version --json'],
      run: async () => versionReport(),
    },
  ],
};
