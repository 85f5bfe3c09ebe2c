/**
 * The generator configuration (generator_config_version 1.0): strict JSON,
 * every field required, unknown fields refused. Every error is a
 * ValidationError naming the source and the field (`default.json:
 * families[2].rows: ...`), so the author of a configuration that cannot
 * produce valid scenarios knows which field to change.
 *
 *   {
 *     "generator_config_version": "1.0",
 *     "suite_id": "ember-generated", "suite_version": "1.0",
 *     "visibility": "public", "seed_role": "evaluation",
 *     "families": [
 *       { "family": "multi_room_office", "count": 4,
 *         "rows": [13, 17], "cols": [25, 35], "people": [30, 60],
 *         "spread_permille": [150, 250], "max_steps": [100, 140] }
 *     ]
 *   }
 *
 * Ranges are inclusive [min, max] integer pairs; each scenario draws its
 * values uniformly from them with the generator's seeded stream.
 */

import { ValidationError } from '../errors.js';
import { digestOf } from '../hash.js';
import type { JsonObject, JsonValue } from '../json/canonical.js';
import { FieldReader } from '../json/fields.js';
import { parseJsonInput } from '../json/strict-parse.js';
import { BENCHMARK_VERSIONS } from '../versions.js';
import { MAX_GRID_SIDE, MAX_POPULATION, MAX_STEPS } from '../world/scenario.js';
import { SEED_ROLES, SUITE_ID, SUITE_VERSION, SUITE_VISIBILITIES, type SeedRole, type SuiteVisibility } from '../world/suite.js';
import { FAMILY_KINDS, MIN_SIZE, type FamilyKind } from './kinds.js';

export const GENERATOR_VERSION: string = BENCHMARK_VERSIONS.generator_version;
export const GENERATOR_CONFIG_VERSION: string = BENCHMARK_VERSIONS.generator_config_version;

/** At most this many scenarios in one batch (the sum of the family counts). */
export const MAX_BATCH_SCENARIOS = 1000;
/** At most this many scenarios of one family (scenario IDs carry a 3-digit number). */
export const MAX_FAMILY_COUNT = 999;

export type Range = readonly [min: number, max: number];

export interface FamilyConfig {
  readonly family: FamilyKind;
  readonly count: number;
  readonly rows: Range;
  readonly cols: Range;
  readonly people: Range;
  /** Spread probability in thousandths: [150, 250] draws 0.15 .. 0.25. */
  readonly spreadPermille: Range;
  readonly maxSteps: Range;
}

export interface GeneratorConfig {
  readonly suiteId: string;
  readonly suiteVersion: string;
  readonly visibility: SuiteVisibility;
  readonly seedRole: SeedRole;
  readonly families: readonly FamilyConfig[];
  /** The validated configuration value; its canonical JSON is hashed. */
  readonly json: JsonObject;
  /** SHA-256 of the canonical JSON of `json` (the configuration hash). */
  readonly hash: string;
}

const ROOT_KEYS = ['families', 'generator_config_version', 'seed_role', 'suite_id', 'suite_version', 'visibility'];
const FAMILY_KEYS = ['cols', 'count', 'family', 'max_steps', 'people', 'rows', 'spread_permille'];

/** Parses configuration file text; `source` prefixes every error. */
export function parseGeneratorConfigText(text: string, source: string): GeneratorConfig {
  return validateGeneratorConfig(parseJsonInput(text, source), source);
}

export function validateGeneratorConfig(value: JsonValue, source: string): GeneratorConfig {
  const f = new FieldReader(source);
  // The version first: a configuration of another version gets that message, not a list of unknown fields.
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'generator_config_version' in value) {
    f.literal(value['generator_config_version'], 'generator_config_version', [GENERATOR_CONFIG_VERSION]);
  }
  const root = f.object(value, '$', ROOT_KEYS);
  f.literal(root['generator_config_version'], 'generator_config_version', [GENERATOR_CONFIG_VERSION]);
  const suiteId = f.string(root['suite_id'], 'suite_id', SUITE_ID);
  const suiteVersion = f.string(root['suite_version'], 'suite_version', SUITE_VERSION);
  const visibility = f.literal(root['visibility'], 'visibility', SUITE_VISIBILITIES);
  const seedRole = f.literal(root['seed_role'], 'seed_role', SEED_ROLES);
  const list = f.array(root['families'], 'families');
  if (list.length === 0) f.fail('families', 'must list at least one family');
  const seen = new Map<string, number>();
  let total = 0;
  const families = list.map((item, i): FamilyConfig => {
    const path = `families[${i}]`;
    const family = readFamily(f, item, path);
    const first = seen.get(family.family);
    if (first !== undefined) f.fail(`${path}.family`, `"${family.family}" duplicates families[${first}] (give each family once, with its count)`);
    seen.set(family.family, i);
    total += family.count;
    return family;
  });
  if (total > MAX_BATCH_SCENARIOS) f.fail('families', `the counts add up to ${total} scenarios, at most ${MAX_BATCH_SCENARIOS} are allowed`);
  return { suiteId, suiteVersion, visibility, seedRole, families, json: root, hash: digestOf(root) };
}

function readFamily(f: FieldReader, item: JsonValue, path: string): FamilyConfig {
  const obj = f.object(item, path, FAMILY_KEYS);
  const family = f.literal(obj['family'], `${path}.family`, FAMILY_KINDS);
  const count = f.integer(obj['count'], `${path}.count`, 1, MAX_FAMILY_COUNT);
  const min = MIN_SIZE[family];
  const rows = range(f, obj['rows'], `${path}.rows`, min.rows, MAX_GRID_SIDE, `${family} needs at least ${min.rows} rows`);
  const cols = range(f, obj['cols'], `${path}.cols`, min.cols, MAX_GRID_SIDE, `${family} needs at least ${min.cols} columns`);
  const people = range(f, obj['people'], `${path}.people`, 1, MAX_POPULATION);
  const spreadPermille = range(f, obj['spread_permille'], `${path}.spread_permille`, 0, 1000);
  const maxSteps = range(f, obj['max_steps'], `${path}.max_steps`, 1, MAX_STEPS);
  // A cheap bound first: nobody stands on a wall, so the smallest grid's interior bounds the people.
  const interior = (rows[0] - 2) * (cols[0] - 2);
  if (people[1] > interior) {
    f.fail(`${path}.people`, `at most ${people[1]} people cannot fit the ${interior} interior cells of the smallest ${rows[0]}x${cols[0]} grid; lower people or raise rows/cols`);
  }
  return { family, count, rows, cols, people, spreadPermille, maxSteps };
}

function range(f: FieldReader, value: JsonValue | undefined, path: string, lo: number, hi: number, why?: string): Range {
  const pair = f.array(value, path);
  if (pair.length !== 2) f.fail(path, 'must be [min, max] (2 integers)');
  const min = f.integer(pair[0], `${path}[0]`);
  const max = f.integer(pair[1], `${path}[1]`);
  if (min < lo) f.fail(`${path}[0]`, `${min} is below ${lo}${why === undefined ? '' : ` (${why})`}`);
  if (max > hi) f.fail(`${path}[1]`, `${max} is above ${hi}`);
  if (min > max) f.fail(path, `min ${min} is greater than max ${max}`);
  return [min, max];
}

/** The decimal string of a spread probability given in thousandths (150 -> "0.15", 1000 -> "1"). */
export function permilleText(permille: number): string {
  if (!Number.isSafeInteger(permille) || permille < 0 || permille > 1000) throw new ValidationError(`spread permille ${permille} is outside [0, 1000]`);
  if (permille === 0) return '0';
  if (permille === 1000) return '1';
  return `0.${String(permille).padStart(3, '0')}`.replace(/0+$/, '');
}
