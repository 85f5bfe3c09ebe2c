/**
 * Suites (environment.md section 10, cli-v1.0.md "suite validate"): a
 * directory holding `manifest.json` and one `<scenario_id>.json` file per
 * scenario, and nothing else.
 *
 * The manifest is a manifest file (evaluation.md section 1): exactly
 * `indentedJson(value)`, 2-space indented canonical JSON plus one LF.
 * Loading fails closed: every listed file must exist, no other entry may
 * exist, every scenario must parse and match the hash and ID pinned for it.
 * The loader here is pure: the caller passes the directory's entries as a
 * map from entry name to text (src/node/inputs.ts reads the directory and
 * rejects a subdirectory or other non-regular entry itself).
 */

import { ValidationError } from '../errors.js';
import { HEX64, digestOf } from '../hash.js';
import { indentedJson, type JsonObject } from '../json/canonical.js';
import { FieldReader } from '../json/fields.js';
import { parseJsonInput } from '../json/strict-parse.js';
import { FAMILY_NAME, SCENARIO_ID, SCENARIO_SCHEMA_VERSION, parseScenarioText } from './scenario.js';
import type { Scenario } from './scenario-types.js';

export const SUITE_MANIFEST_FILE = 'manifest.json';
export const SUITE_ID = /^[a-z0-9-]{1,64}$/;
/** `major.minor`, each a canonical decimal integer. */
export const SUITE_VERSION = /^(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})$/;

export const SUITE_VISIBILITIES = ['public', 'private'] as const;
export type SuiteVisibility = (typeof SUITE_VISIBILITIES)[number];
export const SEED_ROLES = ['development', 'evaluation'] as const;
export type SeedRole = (typeof SEED_ROLES)[number];

export interface SuiteEntry {
  readonly file: string;
  readonly scenarioId: string;
  readonly scenarioHash: string;
  readonly primaryFamily: string;
  readonly scenario: Scenario;
}

export interface Suite {
  readonly suiteId: string;
  readonly suiteVersion: string;
  readonly visibility: SuiteVisibility;
  readonly seedRole: SeedRole;
  readonly schemaVersion: string;
  /** suite_hash: SHA-256 of the canonical JSON of the manifest value. */
  readonly hash: string;
  /** The validated manifest value. */
  readonly manifest: JsonObject;
  /** In manifest order (the scenario order of evaluation manifests). */
  readonly entries: readonly SuiteEntry[];
}

const MANIFEST_KEYS = ['schema_version', 'seed_role', 'suite_id', 'suite_version', 'visibility', 'scenarios'];
const ENTRY_KEYS = ['file', 'primary_family', 'scenario_hash', 'scenario_id'];

/**
 * Loads a suite. `files` maps every directory entry other than
 * manifest.json to its text; `source` is the directory as the user named
 * it, and errors name `${source}/${file}`.
 */
export function loadSuite(manifestText: string, files: ReadonlyMap<string, string>, source: string): Suite {
  const manifestSource = `${source}/${SUITE_MANIFEST_FILE}`;
  const value = parseJsonInput(manifestText, manifestSource);
  const f = new FieldReader(manifestSource);
  const manifest = f.object(value, '$', MANIFEST_KEYS);
  const schemaVersion = f.literal(manifest['schema_version'], 'schema_version', [SCENARIO_SCHEMA_VERSION]);
  const seedRole = f.literal(manifest['seed_role'], 'seed_role', SEED_ROLES);
  const suiteId = f.string(manifest['suite_id'], 'suite_id', SUITE_ID);
  const suiteVersion = f.string(manifest['suite_version'], 'suite_version', SUITE_VERSION);
  const visibility = f.literal(manifest['visibility'], 'visibility', SUITE_VISIBILITIES);
  const listed = f.array(manifest['scenarios'], 'scenarios');
  if (listed.length === 0) f.fail('scenarios', 'must list at least one scenario');
  // Canonical form after the schema: a schema problem is the more useful message.
  if (manifestText !== indentedJson(manifest)) {
    f.fail('$', 'not a canonical manifest file (2-space indented canonical JSON with one final LF)');
  }

  const byId = new Map<string, number>();
  const entries = listed.map((item, i): Omit<SuiteEntry, 'scenario'> => {
    const path = `scenarios[${i}]`;
    const entry = f.object(item, path, ENTRY_KEYS);
    const scenarioId = f.string(entry['scenario_id'], `${path}.scenario_id`, SCENARIO_ID);
    const file = f.string(entry['file'], `${path}.file`);
    const scenarioHash = f.string(entry['scenario_hash'], `${path}.scenario_hash`, HEX64);
    const primaryFamily = f.string(entry['primary_family'], `${path}.primary_family`, FAMILY_NAME);
    if (file !== `${scenarioId}.json`) f.fail(`${path}.file`, `must be "${scenarioId}.json" (the scenario_id plus ".json")`);
    if (file === SUITE_MANIFEST_FILE) f.fail(`${path}.file`, `"${SUITE_MANIFEST_FILE}" is reserved for the manifest`);
    const first = byId.get(scenarioId);
    if (first !== undefined) f.fail(`${path}.scenario_id`, `duplicates scenarios[${first}]`);
    byId.set(scenarioId, i);
    return { file, scenarioId, scenarioHash, primaryFamily };
  });

  // Every entry of the directory must be listed; sorted so the same directory always reports the same entry.
  const listedFiles = new Set(entries.map((e) => e.file));
  for (const name of [...files.keys()].sort()) {
    if (name !== SUITE_MANIFEST_FILE && !listedFiles.has(name)) {
      throw new ValidationError(`${source}/${name}: unlisted file (a suite directory holds only ${SUITE_MANIFEST_FILE} and the files it lists)`);
    }
  }

  const loaded = entries.map((entry, i): SuiteEntry => {
    const fileSource = `${source}/${entry.file}`;
    const text = files.get(entry.file);
    if (text === undefined) throw new ValidationError(`${fileSource}: missing (listed in ${SUITE_MANIFEST_FILE} scenarios[${i}])`);
    const scenario = parseScenarioText(text, fileSource);
    const path = `scenarios[${i}]`;
    if (scenario.scenarioId !== entry.scenarioId) {
      f.fail(`${path}.scenario_id`, `"${entry.scenarioId}" but ${entry.file} has scenario_id "${scenario.scenarioId}"`);
    }
    if (scenario.hash !== entry.scenarioHash) {
      f.fail(`${path}.scenario_hash`, `does not match ${entry.file} (its scenario hash is ${scenario.hash})`);
    }
    if (!scenario.families.includes(entry.primaryFamily)) {
      f.fail(`${path}.primary_family`, `"${entry.primaryFamily}" is not one of the families of ${entry.file} (${scenario.families.join(', ')})`);
    }
    return { ...entry, scenario };
  });

  return { suiteId, suiteVersion, visibility, seedRole, schemaVersion, hash: digestOf(manifest), manifest, entries: loaded };
}

export interface SuiteManifestInput {
  readonly suiteId: string;
  readonly suiteVersion: string;
  readonly visibility: SuiteVisibility;
  readonly seedRole: SeedRole;
  /** In suite order; the primary family defaults to the scenario's first family. */
  readonly scenarios: readonly { readonly scenario: Scenario; readonly primaryFamily?: string }[];
}

/** The manifest file text (indented canonical JSON plus LF) of a suite of already validated scenarios. */
export function buildSuiteManifest(input: SuiteManifestInput): string {
  const fail = (problem: string): never => {
    throw new ValidationError(`suite manifest: ${problem}`);
  };
  if (!SUITE_ID.test(input.suiteId)) fail(`suite_id must match ${SUITE_ID.source}`);
  if (!SUITE_VERSION.test(input.suiteVersion)) fail('suite_version must be major.minor, e.g. "1.0"');
  if (!SUITE_VISIBILITIES.includes(input.visibility)) fail('visibility must be "public" or "private"');
  if (!SEED_ROLES.includes(input.seedRole)) fail('seed_role must be "development" or "evaluation"');
  if (input.scenarios.length === 0) fail('a suite lists at least one scenario');
  const seen = new Set<string>();
  const scenarios = input.scenarios.map(({ scenario, primaryFamily }) => {
    const family = primaryFamily ?? scenario.families[0]!;
    if (seen.has(scenario.scenarioId)) fail(`scenario ${scenario.scenarioId} is listed twice`);
    seen.add(scenario.scenarioId);
    if (!scenario.families.includes(family)) fail(`${family} is not a family of scenario ${scenario.scenarioId}`);
    return { file: `${scenario.scenarioId}.json`, primary_family: family, scenario_hash: scenario.hash, scenario_id: scenario.scenarioId };
  });
  return indentedJson({
    schema_version: SCENARIO_SCHEMA_VERSION,
    seed_role: input.seedRole,
    suite_id: input.suiteId,
    suite_version: input.suiteVersion,
    visibility: input.visibility,
    scenarios,
  });
}
