/**
 * The freeze record of a generated batch (`generation.json`,
 * generation_manifest_version 1.0): the generator and configuration
 * versions, the configuration itself and its hash, the batch seed and ID,
 * the suite hash and, per scenario, its content hash and the SHA-256 of its
 * file bytes. Written as 2-space indented canonical JSON plus one LF.
 *
 * checkFrozenBatch is the whole validation, pure: the record must be
 * canonical and of this build's versions; the configuration must hash to
 * config_hash and the batch seed and hash to batch_id; the suite (already
 * loaded by the suite loader) must be the recorded one, file by file; and
 * regenerating from the recorded configuration and seed must give exactly
 * the files on disk. A tampered scenario, manifest or record fails one of
 * these with a ValidationError (exit 3) naming the file or field.
 */

import { ValidationError } from '../errors.js';
import { HEX64, sha256Hex } from '../hash.js';
import { indentedJson } from '../json/canonical.js';
import { FieldReader } from '../json/fields.js';
import { parseJsonInput } from '../json/strict-parse.js';
import { BENCHMARK_VERSIONS } from '../versions.js';
import { isSeed } from '../world/seed.js';
import { SUITE_MANIFEST_FILE, type Suite } from '../world/suite.js';
import { GENERATOR_CONFIG_VERSION, GENERATOR_VERSION, validateGeneratorConfig, type GeneratorConfig } from './config.js';
import { batchIdOf, generateBatch, type GeneratedBatch } from './generate.js';

export const GENERATION_RECORD_FILE = 'generation.json';
export const GENERATED_SUITE_DIR = 'suite';
export const GENERATION_MANIFEST_VERSION: string = BENCHMARK_VERSIONS.generation_manifest_version;
export const BATCH_ID = /^gen-[0-9a-f]{16}$/;

export interface RecordedScenario {
  readonly file: string;
  readonly fileSha256: string;
  readonly primaryFamily: string;
  readonly scenarioHash: string;
  readonly scenarioId: string;
}

export interface GenerationRecord {
  readonly batchId: string;
  readonly batchSeed: string;
  readonly config: GeneratorConfig;
  readonly suiteHash: string;
  readonly suiteManifestSha256: string;
  readonly scenarios: readonly RecordedScenario[];
}

const RECORD_KEYS = [
  'batch_id',
  'batch_seed',
  'config_hash',
  'configuration',
  'generation_manifest_version',
  'generator_config_version',
  'generator_version',
  'scenarios',
  'suite_hash',
  'suite_manifest_sha256',
];
const SCENARIO_KEYS = ['file', 'file_sha256', 'primary_family', 'scenario_hash', 'scenario_id'];

/** The generation.json text of a freshly generated batch. */
export function generationRecordText(config: GeneratorConfig, batch: GeneratedBatch, suiteHash: string): string {
  return indentedJson({
    batch_id: batch.batchId,
    batch_seed: batch.batchSeed,
    config_hash: config.hash,
    configuration: config.json,
    generation_manifest_version: GENERATION_MANIFEST_VERSION,
    generator_config_version: GENERATOR_CONFIG_VERSION,
    generator_version: GENERATOR_VERSION,
    scenarios: batch.scenarios.map((s) => ({
      file: s.file,
      file_sha256: sha256Hex(s.text),
      primary_family: s.family,
      scenario_hash: s.scenario.hash,
      scenario_id: s.scenario.scenarioId,
    })),
    suite_hash: suiteHash,
    suite_manifest_sha256: sha256Hex(batch.suiteManifestText),
  });
}

/** Parses generation.json strictly: schema, this build's versions, canonical text, configuration hash and batch ID. */
export function parseGenerationRecord(text: string, source: string): GenerationRecord {
  const f = new FieldReader(source);
  const root = f.object(parseJsonInput(text, source), '$', RECORD_KEYS);
  f.literal(root['generation_manifest_version'], 'generation_manifest_version', [GENERATION_MANIFEST_VERSION]);
  f.literal(root['generator_version'], 'generator_version', [GENERATOR_VERSION]);
  f.literal(root['generator_config_version'], 'generator_config_version', [GENERATOR_CONFIG_VERSION]);
  const batchId = f.string(root['batch_id'], 'batch_id', BATCH_ID);
  const batchSeed = f.string(root['batch_seed'], 'batch_seed');
  if (!isSeed(batchSeed)) f.fail('batch_seed', 'must be a decimal string in [0, 2^64 - 1]');
  const configHash = f.string(root['config_hash'], 'config_hash', HEX64);
  const suiteHash = f.string(root['suite_hash'], 'suite_hash', HEX64);
  const suiteManifestSha256 = f.string(root['suite_manifest_sha256'], 'suite_manifest_sha256', HEX64);
  const scenarios = f.array(root['scenarios'], 'scenarios').map((item, i): RecordedScenario => {
    const path = `scenarios[${i}]`;
    const s = f.object(item, path, SCENARIO_KEYS);
    return {
      file: f.string(s['file'], `${path}.file`),
      fileSha256: f.string(s['file_sha256'], `${path}.file_sha256`, HEX64),
      primaryFamily: f.string(s['primary_family'], `${path}.primary_family`),
      scenarioHash: f.string(s['scenario_hash'], `${path}.scenario_hash`, HEX64),
      scenarioId: f.string(s['scenario_id'], `${path}.scenario_id`),
    };
  });
  if (text !== indentedJson(root)) f.fail('$', 'not a canonical record file (2-space indented canonical JSON with one final LF)');
  const config = validateGeneratorConfig(root['configuration']!, `${source}: configuration`);
  if (config.hash !== configHash) f.fail('config_hash', `is ${configHash} but the recorded configuration hashes to ${config.hash}`);
  const expectedId = batchIdOf(configHash, batchSeed);
  if (batchId !== expectedId) f.fail('batch_id', `is ${batchId} but the versions, configuration hash and batch seed give ${expectedId}`);
  return { batchId, batchSeed, config, suiteHash, suiteManifestSha256, scenarios };
}

/**
 * Checks a loaded suite and its files' bytes (name -> bytes, manifest.json
 * included) against the record, then against a regeneration. `source` is the
 * batch directory as the user named it.
 */
export function checkFrozenBatch(record: GenerationRecord, suite: Suite, fileBytes: ReadonlyMap<string, Uint8Array>, source: string): void {
  const recordSource = `${source}/${GENERATION_RECORD_FILE}`;
  const suiteSource = `${source}/${GENERATED_SUITE_DIR}`;
  const fail = (problem: string): never => {
    throw new ValidationError(problem);
  };
  const manifestBytes = fileBytes.get(SUITE_MANIFEST_FILE);
  if (manifestBytes === undefined || sha256Hex(manifestBytes) !== record.suiteManifestSha256) {
    fail(`${suiteSource}/${SUITE_MANIFEST_FILE}: its bytes do not match suite_manifest_sha256 of ${recordSource} (tampered manifest or record)`);
  }
  if (suite.hash !== record.suiteHash) fail(`${recordSource}: suite_hash: is ${record.suiteHash} but the suite's hash is ${suite.hash}`);
  if (suite.entries.length !== record.scenarios.length) {
    fail(`${recordSource}: scenarios: records ${record.scenarios.length} scenarios but the suite lists ${suite.entries.length}`);
  }
  suite.entries.forEach((entry, i) => {
    const recorded = record.scenarios[i]!;
    const path = `${recordSource}: scenarios[${i}]`;
    if (recorded.scenarioId !== entry.scenarioId || recorded.file !== entry.file) {
      fail(`${path}: records ${recorded.file} but the suite lists ${entry.file} in this position`);
    }
    if (recorded.primaryFamily !== entry.primaryFamily) fail(`${path}.primary_family: is "${recorded.primaryFamily}" but the suite has "${entry.primaryFamily}"`);
    if (recorded.scenarioHash !== entry.scenarioHash) fail(`${path}.scenario_hash: does not match ${entry.file} (its scenario hash is ${entry.scenarioHash})`);
    const bytes = fileBytes.get(entry.file);
    if (bytes === undefined || sha256Hex(bytes) !== recorded.fileSha256) {
      fail(`${suiteSource}/${entry.file}: its bytes do not match ${path}.file_sha256 (tampered scenario file or record)`);
    }
  });
  // The record could have been rewritten to match tampered files: the generator is the final word.
  const batch = generateBatch(record.config, record.batchSeed);
  const expected = new Map<string, string>([[SUITE_MANIFEST_FILE, batch.suiteManifestText], ...batch.scenarios.map((s): [string, string] => [s.file, s.text])]);
  for (const name of [SUITE_MANIFEST_FILE, ...suite.entries.map((e) => e.file)]) {
    const want = expected.get(name);
    const bytes = fileBytes.get(name);
    if (want === undefined || bytes === undefined || sha256Hex(bytes) !== sha256Hex(want)) {
      fail(`${suiteSource}/${name}: is not what generator ${GENERATOR_VERSION} makes from the recorded configuration and batch seed`);
    }
  }
  if (expected.size !== suite.entries.length + 1) {
    fail(`${suiteSource}: holds ${suite.entries.length} scenarios but the recorded configuration and batch seed give ${expected.size - 1}`);
  }
}

