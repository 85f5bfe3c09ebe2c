/**
 * Option specs, argument checks and report fields shared by several
 * commands, so command files never import each other.
 */

import { UsageError } from '../core/errors.js';
import { MAX_RESAMPLES } from '../core/stats/bootstrap.js';
import type { Suite } from '../core/world/suite.js';
import { loadGeneratedSuite } from '../node/generated-suite.js';
import type { OptionSpec, ParsedArgs, Report } from './command.js';
import { positiveIntegerArgument } from './integer-argument.js';

export { positiveIntegerArgument } from './integer-argument.js';

export const SUITE_OPTIONS: readonly OptionSpec[] = [
  { name: 'suite', kind: 'value', valueName: 'DIR', description: 'the suite directory (give this or --generated-suite)' },
  { name: 'generated-suite', kind: 'value', valueName: 'DIR', description: 'a frozen generated suite (give this or --suite)' },
];

/**
 * The suite directory of a suite-taking command: exactly one of --suite DIR or --generated-suite DIR (exit 2 otherwise).
 * A generated suite is loaded with the generated-suite loader first, so a tampered batch is refused (exit 3).
 */
export function suiteDirArgument(args: ParsedArgs): string {
  const suite = args.value('suite');
  const generated = args.value('generated-suite');
  if (suite !== undefined && generated !== undefined) throw new UsageError('give exactly one of --suite DIR or --generated-suite DIR, not both');
  // The freeze record is checked here, before the suite is used (exit 3 when it does not hold); then its suite/ is the suite.
  if (generated !== undefined) return loadGeneratedSuite(generated).suiteDir;
  if (suite === undefined) throw new UsageError('missing required option: --suite DIR (or --generated-suite DIR)');
  return suite;
}

/**
 * --resamples: a canonical decimal integer in [1, MAX_RESAMPLES], else a
 * usage error. Undefined when absent: the library default applies, the CLI
 * does not pass a count at all.
 */
export function resamplesArgument(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  return positiveIntegerArgument('--resamples', text, MAX_RESAMPLES);
}

/** The suite identity every suite-based command reports (cli-v1.0.md "the suite fields"). */
export function suiteFields(suite: Suite): Report {
  return {
    suite_id: suite.suiteId,
    suite_version: suite.suiteVersion,
    suite_hash: suite.hash,
    visibility: suite.visibility,
    seed_role: suite.seedRole,
    schema_version: suite.schemaVersion,
  };
}
