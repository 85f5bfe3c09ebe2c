/**
 * The evaluation manifest (evaluation_manifest_version 1.0): the suite's
 * identity, the ordered seeds and the scheduled episodes, scenario-major.
 * The file is the indented manifest form; its hash is the digest of its
 * canonical JSON.
 */

import { MismatchError, ValidationError, fieldError } from '../errors.js';
import { digestOf } from '../hash.js';
import { canonicalJson, indentedJson, type JsonValue } from '../json/canonical.js';
import { FieldReader } from '../json/fields.js';
import { parseJsonInput } from '../json/strict-parse.js';
import { BENCHMARK_REVISION, BENCHMARK_VERSIONS } from '../versions.js';
import { isSeed } from '../world/seed.js';
import type { Suite } from '../world/suite.js';

export interface SuiteIdentity {
  readonly schema_version: string;
  readonly seed_role: string;
  readonly suite_hash: string;
  readonly suite_id: string;
  readonly suite_version: string;
  readonly visibility: string;
}

export interface ManifestEpisode {
  readonly index: number;
  readonly primary_family: string;
  readonly scenario_hash: string;
  readonly scenario_id: string;
  readonly seed: string;
}

export interface EvaluationManifest {
  readonly benchmark_revision: number;
  readonly episodes: readonly ManifestEpisode[];
  readonly evaluation_manifest_version: string;
  readonly seeds: readonly string[];
  readonly suite: SuiteIdentity;
  readonly versions: Readonly<Record<string, string>>;
}

export function suiteIdentity(suite: Suite): SuiteIdentity {
  return {
    schema_version: suite.schemaVersion,
    seed_role: suite.seedRole,
    suite_hash: suite.hash,
    suite_id: suite.suiteId,
    suite_version: suite.suiteVersion,
    visibility: suite.visibility,
  };
}

/** Builds the manifest. Seeds keep their order; a duplicate or malformed seed is a usage error. */
export function buildManifest(suite: Suite, seeds: readonly string[]): EvaluationManifest {
  // Errors name the field `seeds` (the CLI says --seed, src/cli/field-flags.ts).
  if (seeds.length === 0) throw fieldError('seeds', 'at least one seed is required');
  const seen = new Set<string>();
  // Seed values are never echoed (cli-v1.0.md): messages name the position.
  seeds.forEach((seed, i) => {
    if (!isSeed(seed)) throw fieldError('seeds', `the seed in position ${i + 1} must be a decimal integer in [0, 2**64 - 1]`);
    if (seen.has(seed)) throw fieldError('seeds', `the seed in position ${i + 1} duplicates an earlier one (the seeds must be distinct)`);
    seen.add(seed);
  });
  const episodes: ManifestEpisode[] = [];
  for (const entry of suite.entries) {
    for (const seed of seeds) {
      episodes.push({
        index: episodes.length,
        primary_family: entry.primaryFamily,
        scenario_hash: entry.scenarioHash,
        scenario_id: entry.scenarioId,
        seed,
      });
    }
  }
  return {
    benchmark_revision: BENCHMARK_REVISION,
    episodes,
    evaluation_manifest_version: BENCHMARK_VERSIONS.evaluation_manifest_version,
    seeds: [...seeds],
    suite: suiteIdentity(suite),
    versions: { ...BENCHMARK_VERSIONS },
  };
}

export function manifestText(manifest: EvaluationManifest): string {
  return indentedJson(manifest);
}

export function manifestHash(manifest: EvaluationManifest): string {
  return digestOf(manifest);
}

const HEX64 = /^[0-9a-f]{64}$/;

/** Reads a manifest value strictly; versions must equal the running ones. */
export function readManifest(value: JsonValue | undefined, source: string, path = '$'): EvaluationManifest {
  const r = new FieldReader(source);
  const obj = r.object(value, path, ['benchmark_revision', 'episodes', 'evaluation_manifest_version', 'seeds', 'suite', 'versions']);
  if (obj.benchmark_revision !== BENCHMARK_REVISION) r.fail(`${path}.benchmark_revision`, `is ${canonicalJson(obj.benchmark_revision!)}, this build runs revision ${BENCHMARK_REVISION}`);
  r.literal(obj.evaluation_manifest_version, `${path}.evaluation_manifest_version`, [BENCHMARK_VERSIONS.evaluation_manifest_version]);
  const versions = r.object(obj.versions, `${path}.versions`, Object.keys(BENCHMARK_VERSIONS));
  for (const [key, expected] of Object.entries(BENCHMARK_VERSIONS)) {
    if (versions[key] !== expected) r.fail(`${path}.versions.${key}`, `is ${canonicalJson(versions[key]!)}, this build runs ${expected}`);
  }
  const suite = r.object(obj.suite, `${path}.suite`, ['schema_version', 'seed_role', 'suite_hash', 'suite_id', 'suite_version', 'visibility']);
  for (const key of Object.keys(suite)) r.string(suite[key], `${path}.suite.${key}`);
  const suiteField = (key: keyof SuiteIdentity): string => r.string(suite[key], `${path}.suite.${key}`);
  const identity: SuiteIdentity = {
    schema_version: suiteField('schema_version'),
    seed_role: suiteField('seed_role'),
    suite_hash: r.string(suite.suite_hash, `${path}.suite.suite_hash`, HEX64),
    suite_id: suiteField('suite_id'),
    suite_version: suiteField('suite_version'),
    visibility: suiteField('visibility'),
  };
  const seeds = r.array(obj.seeds, `${path}.seeds`).map((s, i) => {
    const seed = r.string(s, `${path}.seeds[${i}]`);
    if (!isSeed(seed)) r.fail(`${path}.seeds[${i}]`, 'must be a decimal integer in [0, 2**64 - 1]');
    return seed;
  });
  if (seeds.length === 0) r.fail(`${path}.seeds`, 'must not be empty');
  if (new Set(seeds).size !== seeds.length) r.fail(`${path}.seeds`, 'must be distinct');
  const episodes = r.array(obj.episodes, `${path}.episodes`).map((e, i): ManifestEpisode => {
    const p = `${path}.episodes[${i}]`;
    const ep = r.object(e, p, ['index', 'primary_family', 'scenario_hash', 'scenario_id', 'seed']);
    if (r.integer(ep.index, `${p}.index`) !== i) r.fail(`${p}.index`, `must be ${i}`);
    const family = r.string(ep.primary_family, `${p}.primary_family`);
    const scenarioHash = r.string(ep.scenario_hash, `${p}.scenario_hash`, HEX64);
    const scenarioId = r.string(ep.scenario_id, `${p}.scenario_id`);
    const seed = r.string(ep.seed, `${p}.seed`);
    if (seed !== seeds[i % seeds.length]) r.fail(`${p}.seed`, 'does not follow the seed order (episodes are scenario-major)');
    return { index: i, primary_family: family, scenario_hash: scenarioHash, scenario_id: scenarioId, seed };
  });
  if (episodes.length === 0 || episodes.length % seeds.length !== 0) r.fail(`${path}.episodes`, 'must hold every scenario once per seed');
  // Checked equal to the running revision and versions above.
  return {
    benchmark_revision: BENCHMARK_REVISION,
    episodes,
    evaluation_manifest_version: BENCHMARK_VERSIONS.evaluation_manifest_version,
    seeds,
    suite: identity,
    versions: { ...BENCHMARK_VERSIONS },
  };
}

/** Parses a manifest file: strict JSON in exactly the indented manifest form. */
export function parseManifestText(text: string, source: string): EvaluationManifest {
  const value = parseJsonInput(text, source);
  const manifest = readManifest(value, source);
  if (manifestText(manifest) !== text) {
    throw new ValidationError(`${source}: not in canonical manifest form (2-space indented, sorted keys, ASCII, one final LF)`);
  }
  return manifest;
}

/** The manifest must target this suite: same identity and exactly its episodes for its seeds. */
export function checkManifestTargetsSuite(manifest: EvaluationManifest, suite: Suite, source: string): void {
  const expected = buildManifest(suite, manifest.seeds);
  if (canonicalJson(expected.suite) !== canonicalJson(manifest.suite)) {
    throw new ValidationError(`${source}: manifest targets suite ${manifest.suite.suite_id} ${manifest.suite.suite_version} (${manifest.suite.suite_hash}), not the given suite ${suite.suiteId} ${suite.suiteVersion} (${suite.hash})`);
  }
  if (canonicalJson(expected) !== canonicalJson(manifest)) {
    throw new ValidationError(`${source}: manifest episodes do not match the suite's scenarios and the manifest's seeds`);
  }
}

/** A required manifest must equal the embedded one exactly (exit 5 otherwise). */
export function requireSameManifest(embedded: EvaluationManifest, required: EvaluationManifest, source: string): void {
  if (manifestHash(embedded) !== manifestHash(required)) {
    throw new MismatchError(`${source}: the result's manifest ${manifestHash(embedded)} differs from the required manifest ${manifestHash(required)}`);
  }
}
