/**
 * Maintainer tool: writes the manifest.json of a suite directory from its
 * scenario files (sorted by file name; primary family = first family).
 *
 *   node --import tsx scripts/write-suite-manifest.ts DIR SUITE_ID SUITE_VERSION [public|private] [development|evaluation]
 *
 * Run it after editing a scenario, and bump SUITE_VERSION when a published
 * suite changes: every scenario hash, the suite hash and every manifest
 * built on it change with it.
 */

import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseScenarioText } from '../src/core/world/scenario.js';
import { SUITE_MANIFEST_FILE, buildSuiteManifest, type SeedRole, type SuiteVisibility } from '../src/core/world/suite.js';
import { loadSuiteDir } from '../src/node/inputs.js';

const [dir, suiteId, suiteVersion, visibility = 'public', seedRole = 'development'] = process.argv.slice(2);
if (!dir || !suiteId || !suiteVersion) {
  console.error('usage: write-suite-manifest.ts DIR SUITE_ID SUITE_VERSION [public|private] [development|evaluation]');
  process.exit(2);
}
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json') && f !== SUITE_MANIFEST_FILE)
  .sort();
const scenarios = files.map((f) => ({ scenario: parseScenarioText(readFileSync(join(dir, f), 'utf8'), join(dir, f)) }));
const text = buildSuiteManifest({
  suiteId,
  suiteVersion,
  visibility: visibility as SuiteVisibility,
  seedRole: seedRole as SeedRole,
  scenarios,
});
writeFileSync(join(dir, SUITE_MANIFEST_FILE), text);
const suite = loadSuiteDir(dir);
console.log(`${suite.suiteId} ${suite.suiteVersion}: ${suite.entries.length} scenarios, suite_hash ${suite.hash}`);
