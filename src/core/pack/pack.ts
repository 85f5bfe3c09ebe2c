/**
 * The environment pack (environment_pack_version 1.0, evaluation.md section
 * 4, scoring-v1.0.md sections 1 and 2): the frozen environment that makes a
 * score official.
 *
 * A pack is a directory (src/node/pack.ts reads and writes it):
 *   pack.json      canonical JSON + LF, the value below
 *   manifest.json  the evaluation manifest file text
 *   suite/         the suite directory, byte-identical copies
 *
 * pack.json pins the benchmark revision, every benchmark-defining version,
 * the official scoring constants and their digest, the suite identity, the
 * byte digest of every suite file, the evaluation manifest hash and, per
 * scheduled episode, its fire-world digest and M* (max_evacuated). The
 * pack digest is fileDigest(pack.json); the pack ID is `ember-pack-` plus
 * its first 16 hex digits.
 *
 * Every problem with a pack is a ValidationError (exit 3), also a
 * fire-world digest or M* that the recomputation does not reproduce: the
 * pack is an input, and input content that does not match what it claims is
 * tampered input. Exit 5 stays what cli-v1.0.md makes it: a replay mismatch,
 * or a result that does not match the required manifest (here: the pack's).
 */

import { MismatchError, ValidationError } from '../errors.js';
import type { AuthenticatedEpisode, AuthenticatedResult } from '../eval/authenticate.js';
import { checkManifestTargetsSuite, manifestHash, parseManifestText, suiteIdentity, type EvaluationManifest, type SuiteIdentity } from '../eval/manifest.js';
import { HEX64, fileDigest, sha256Hex } from '../hash.js';
import { canonicalJson, type JsonObject, type JsonValue } from '../json/canonical.js';
import { FieldReader } from '../json/fields.js';
import { parseJsonInput } from '../json/strict-parse.js';
import { SCORING_CONSTANTS, SCORING_CONSTANTS_DIGEST } from '../scoring/constants.js';
import { computeReferences } from '../scoring/references.js';
import { runSteps, type Steps } from '../steps.js';
import { BENCHMARK_REVISION, BENCHMARK_VERSIONS } from '../versions.js';
import { prepareEpisode } from '../world/episode-start.js';
import type { FireWorld } from '../world/scenario-types.js';
import { isSeed } from '../world/seed.js';
import { SUITE_MANIFEST_FILE, type Suite } from '../world/suite.js';

export const ENVIRONMENT_PACK_VERSION: string = BENCHMARK_VERSIONS.environment_pack_version;
export const PACK_FILE = 'pack.json';
export const PACK_MANIFEST_FILE = 'manifest.json';
export const PACK_SUITE_DIR = 'suite';
export const PACK_ID_PREFIX = 'ember-pack-';
/** `ember-pack-` plus 16 lowercase hex digits. */
export const PACK_ID = /^ember-pack-[0-9a-f]{16}$/;

export interface PackEpisode {
  readonly fire_world_digest: string;
  readonly index: number;
  /** M*: the number of people with a finite earliest escape. */
  readonly max_evacuated: number;
  /** M* = 0: no policy can save anyone; excluded from every mean. */
  readonly not_applicable: boolean;
  readonly scenario_hash: string;
  readonly scenario_id: string;
  readonly seed: string;
}

/** One file of the suite copy and the SHA-256 of its exact bytes. */
export interface PackSuiteFile {
  readonly file: string;
  readonly sha256: string;
}

/** The pack.json value. */
export interface PackValue {
  readonly benchmark_revision: number;
  readonly environment_pack_version: string;
  readonly episodes: readonly PackEpisode[];
  readonly manifest_hash: string;
  readonly scoring_constants: JsonValue;
  readonly scoring_constants_digest: string;
  readonly suite: SuiteIdentity;
  /** manifest.json and every scenario file of suite/, sorted by name. */
  readonly suite_files: readonly PackSuiteFile[];
  readonly versions: Readonly<Record<string, string>>;
}

/** An authenticated pack. */
export interface EnvironmentPack {
  readonly value: PackValue;
  /** The exact pack.json text. */
  readonly text: string;
  /** fileDigest(pack.json): the full pack digest. */
  readonly digest: string;
  /** `ember-pack-<first 16 hex of digest>`. */
  readonly packId: string;
  readonly suite: Suite;
  readonly manifest: EvaluationManifest;
  readonly manifestHash: string;
  /** Whether every fire world and M* was recomputed (pack verify) or only the structure checked (a scorer's load). */
  readonly recomputed: boolean;
}

/** The raw contents of a pack directory, read by src/node/pack.ts. */
export interface PackContents {
  readonly packText: string;
  readonly manifestText: string;
  /** The suite copy, loaded and authenticated by the suite loader. */
  readonly suite: Suite;
  /** SHA-256 of the exact bytes of every file in suite/ (manifest.json included), by name. */
  readonly suiteFileDigests: ReadonlyMap<string, string>;
}

export function packIdOf(digest: string): string {
  return PACK_ID_PREFIX + digest.slice(0, 16);
}

/** SHA-256 of a file's exact bytes (the suite copy must stay byte-identical). */
export function fileBytesDigest(bytes: Uint8Array): string {
  return sha256Hex(bytes);
}

export function packText(value: PackValue): string {
  return canonicalJson(value) + '\n';
}

/** Fire world digest and M* of one scheduled episode, from the scenario and the seed alone. */
export function computePackEpisode(suite: Suite, manifest: EvaluationManifest, index: number): PackEpisode {
  const scheduled = manifest.episodes[index];
  if (scheduled === undefined) throw new RangeError(`episode ${index} is not scheduled`);
  const entry = suite.entries.find((e) => e.scenarioId === scheduled.scenario_id);
  if (entry === undefined) throw new ValidationError(`episode ${index}: scenario ${scheduled.scenario_id} is not in the suite`);
  const start = prepareEpisode(entry.scenario, scheduled.seed);
  const maxEvacuated = computeReferences(entry.scenario.grid, start.fire, start.startCells).maxEvacuated;
  return {
    fire_world_digest: start.fire.digest,
    index,
    max_evacuated: maxEvacuated,
    not_applicable: maxEvacuated === 0,
    scenario_hash: scheduled.scenario_hash,
    scenario_id: scheduled.scenario_id,
    seed: scheduled.seed,
  };
}

/**
 * The pack.json value of a suite and a manifest that targets it. Computes
 * every scheduled episode's fire world and references once.
 * `suiteFileDigests` holds the byte digest of every file of the suite
 * directory (manifest.json included) that the pack will copy.
 */
export function buildPackValue(suite: Suite, manifest: EvaluationManifest, suiteFileDigests: ReadonlyMap<string, string>, source: string): PackValue {
  return runSteps(buildPackValueSteps(suite, manifest, suiteFileDigests, source));
}

/** buildPackValue as steps (src/core/steps.ts): one step per scheduled episode, the same value. */
export function* buildPackValueSteps(suite: Suite, manifest: EvaluationManifest, suiteFileDigests: ReadonlyMap<string, string>, source: string): Steps<PackValue> {
  checkManifestTargetsSuite(manifest, suite, source);
  checkSuiteFileNames(suite, suiteFileDigests, source);
  const episodes: PackEpisode[] = [];
  for (let i = 0; i < manifest.episodes.length; i++) {
    yield { what: 'pack episodes', done: i, total: manifest.episodes.length };
    episodes.push(computePackEpisode(suite, manifest, i));
  }
  return {
    benchmark_revision: BENCHMARK_REVISION,
    environment_pack_version: ENVIRONMENT_PACK_VERSION,
    episodes,
    manifest_hash: manifestHash(manifest),
    scoring_constants: SCORING_CONSTANTS,
    scoring_constants_digest: SCORING_CONSTANTS_DIGEST,
    suite: suiteIdentity(suite),
    suite_files: [...suiteFileDigests.keys()].sort().map((file) => ({ file, sha256: suiteFileDigests.get(file)! })),
    versions: { ...BENCHMARK_VERSIONS },
  };
}

/** The suite copy holds exactly manifest.json and the listed scenario files. */
function checkSuiteFileNames(suite: Suite, digests: ReadonlyMap<string, string>, source: string): void {
  const expected = [SUITE_MANIFEST_FILE, ...suite.entries.map((e) => e.file)].sort();
  const actual = [...digests.keys()].sort();
  if (canonicalJson(expected) !== canonicalJson(actual)) {
    throw new ValidationError(`${source}: the suite files (${actual.join(', ')}) are not exactly ${expected.join(', ')}`);
  }
}

const PACK_KEYS = [
  'benchmark_revision',
  'environment_pack_version',
  'episodes',
  'manifest_hash',
  'scoring_constants',
  'scoring_constants_digest',
  'suite',
  'suite_files',
  'versions',
];
const EPISODE_KEYS = ['fire_world_digest', 'index', 'max_evacuated', 'not_applicable', 'scenario_hash', 'scenario_id', 'seed'];
const SUITE_KEYS = ['schema_version', 'seed_role', 'suite_hash', 'suite_id', 'suite_version', 'visibility'];

/**
 * Reads pack.json strictly: valid JSON, exactly the known fields, canonical
 * text plus one LF, the running revision, versions and official scoring
 * constants. Cross-checks against the suite and manifest are in
 * authenticatePack.
 */
export function parsePackText(text: string, source: string): PackValue {
  const value = parseJsonInput(text, source);
  const r = new FieldReader(source);
  const obj = r.object(value, '$', PACK_KEYS);
  r.literal(obj['environment_pack_version'], 'environment_pack_version', [ENVIRONMENT_PACK_VERSION]);
  if (r.integer(obj['benchmark_revision'], 'benchmark_revision') !== BENCHMARK_REVISION) {
    r.fail('benchmark_revision', `is ${canonicalJson(obj['benchmark_revision']!)}, this build runs revision ${BENCHMARK_REVISION}`);
  }
  const versions = r.object(obj['versions'], 'versions', Object.keys(BENCHMARK_VERSIONS));
  for (const [key, expected] of Object.entries(BENCHMARK_VERSIONS)) {
    if (versions[key] !== expected) r.fail(`versions.${key}`, `is ${canonicalJson(versions[key]!)}, this build runs ${expected}`);
  }
  // Only the official constants make a pack: a pack exists to make a score official.
  const constantsDigest = r.string(obj['scoring_constants_digest'], 'scoring_constants_digest', HEX64);
  if (constantsDigest !== SCORING_CONSTANTS_DIGEST) {
    r.fail('scoring_constants_digest', `is ${constantsDigest}, not the official scoring constants digest ${SCORING_CONSTANTS_DIGEST}`);
  }
  if (canonicalJson(obj['scoring_constants']!) !== canonicalJson(SCORING_CONSTANTS)) {
    r.fail('scoring_constants', 'are not the official scoring constants');
  }
  const pinnedManifestHash = r.string(obj['manifest_hash'], 'manifest_hash', HEX64);
  const suite = r.object(obj['suite'], 'suite', SUITE_KEYS);
  const suiteField = (key: keyof SuiteIdentity): string => r.string(suite[key], `suite.${key}`);
  const pinnedSuite: SuiteIdentity = {
    schema_version: suiteField('schema_version'),
    seed_role: suiteField('seed_role'),
    suite_hash: suiteField('suite_hash'),
    suite_id: suiteField('suite_id'),
    suite_version: suiteField('suite_version'),
    visibility: suiteField('visibility'),
  };
  r.string(suite['suite_hash'], 'suite.suite_hash', HEX64);

  const suiteFiles = r.array(obj['suite_files'], 'suite_files').map((item, i, files): PackSuiteFile => {
    const f = r.object(item, `suite_files[${i}]`, ['file', 'sha256']);
    const name = r.string(f['file'], `suite_files[${i}].file`);
    const sha256 = r.string(f['sha256'], `suite_files[${i}].sha256`, HEX64);
    const previous = i > 0 ? (files[i - 1] as JsonObject)['file'] : undefined;
    if (typeof previous === 'string' && !(previous < name)) r.fail(`suite_files[${i}].file`, 'files must be sorted by name, without duplicates');
    return { file: name, sha256 };
  });

  const episodes = r.array(obj['episodes'], 'episodes');
  if (episodes.length === 0) r.fail('episodes', 'must list every scheduled episode');
  const packEpisodes = episodes.map((item, i): PackEpisode => {
    const p = `episodes[${i}]`;
    const e = r.object(item, p, EPISODE_KEYS);
    if (r.integer(e['index'], `${p}.index`) !== i) r.fail(`${p}.index`, `must be ${i}`);
    const fireWorldDigest = r.string(e['fire_world_digest'], `${p}.fire_world_digest`, HEX64);
    const scenarioHash = r.string(e['scenario_hash'], `${p}.scenario_hash`, HEX64);
    const scenarioId = r.string(e['scenario_id'], `${p}.scenario_id`);
    const seed = r.string(e['seed'], `${p}.seed`);
    if (!isSeed(seed)) r.fail(`${p}.seed`, 'must be a decimal integer in [0, 2**64 - 1]');
    const mStar = r.integer(e['max_evacuated'], `${p}.max_evacuated`);
    const notApplicable = r.boolean(e['not_applicable'], `${p}.not_applicable`);
    if (notApplicable !== (mStar === 0)) r.fail(`${p}.not_applicable`, 'must be true exactly when max_evacuated is 0');
    return { fire_world_digest: fireWorldDigest, index: i, max_evacuated: mStar, not_applicable: notApplicable, scenario_hash: scenarioHash, scenario_id: scenarioId, seed };
  });

  // Canonical form after the schema: a schema problem is the more useful message.
  if (text !== canonicalJson(obj) + '\n') r.fail('$', 'not canonical (canonical JSON with one final LF)');
  return {
    benchmark_revision: BENCHMARK_REVISION,
    environment_pack_version: ENVIRONMENT_PACK_VERSION,
    episodes: packEpisodes,
    manifest_hash: pinnedManifestHash,
    // Checked equal to the official constants and versions above.
    scoring_constants: SCORING_CONSTANTS,
    scoring_constants_digest: constantsDigest,
    suite: pinnedSuite,
    suite_files: suiteFiles,
    versions: { ...BENCHMARK_VERSIONS },
  };
}

export interface AuthenticatePackOptions {
  /** Recompute every fire world and M* (pack verify). Without it, only the structure and the cross-references are checked. */
  readonly recompute: boolean;
}

/**
 * Authenticates a pack's contents, failing closed (ValidationError, exit 3):
 * pack.json is strict and canonical; the suite copy is exactly the pinned
 * suite, byte for byte; manifest.json is a canonical manifest that targets
 * the suite and has the pinned hash; the episode list is the manifest's
 * schedule; with `recompute`, every fire-world digest and M* equals the
 * recomputation.
 */
export function authenticatePack(contents: PackContents, source: string, options: AuthenticatePackOptions): EnvironmentPack {
  return runSteps(authenticatePackSteps(contents, source, options));
}

/** authenticatePack as steps (src/core/steps.ts): one step per recomputed episode, the same checks in the same order. */
export function* authenticatePackSteps(contents: PackContents, source: string, options: AuthenticatePackOptions): Steps<EnvironmentPack> {
  const packSource = `${source}/${PACK_FILE}`;
  const manifestSource = `${source}/${PACK_MANIFEST_FILE}`;
  const value = parsePackText(contents.packText, packSource);
  const { suite } = contents;

  const identity = suiteIdentity(suite);
  if (canonicalJson(identity) !== canonicalJson(value.suite)) {
    throw new ValidationError(`${packSource}: suite: pins ${value.suite.suite_id} ${value.suite.suite_version} (${value.suite.suite_hash}), but ${source}/${PACK_SUITE_DIR} is ${identity.suite_id} ${identity.suite_version} (${identity.suite_hash})`);
  }
  checkSuiteFileNames(suite, contents.suiteFileDigests, `${source}/${PACK_SUITE_DIR}`);
  const pinnedFiles = value.suite_files.map((f) => f.file);
  const presentFiles = [...contents.suiteFileDigests.keys()].sort();
  if (canonicalJson(pinnedFiles) !== canonicalJson(presentFiles)) {
    throw new ValidationError(`${packSource}: suite_files: pins ${pinnedFiles.join(', ')}, but ${source}/${PACK_SUITE_DIR} holds ${presentFiles.join(', ')}`);
  }
  for (const { file, sha256 } of value.suite_files) {
    if (contents.suiteFileDigests.get(file) !== sha256) {
      throw new ValidationError(`${source}/${PACK_SUITE_DIR}/${file}: its bytes do not match the digest pinned in ${PACK_FILE} (the suite copy must be byte-identical)`);
    }
  }

  const manifest = parseManifestText(contents.manifestText, manifestSource);
  checkManifestTargetsSuite(manifest, suite, manifestSource);
  const hash = manifestHash(manifest);
  if (hash !== value.manifest_hash) {
    throw new ValidationError(`${packSource}: manifest_hash: is ${value.manifest_hash}, but ${PACK_MANIFEST_FILE} has hash ${hash}`);
  }
  if (value.episodes.length !== manifest.episodes.length) {
    throw new ValidationError(`${packSource}: episodes: lists ${value.episodes.length} episodes, the manifest schedules ${manifest.episodes.length}`);
  }
  for (const [i, episode] of value.episodes.entries()) {
    if (options.recompute) yield { what: 'recomputing pack episodes', done: i, total: value.episodes.length };
    const scheduled = manifest.episodes[i]!;
    const path = `${packSource}: episodes[${i}]`;
    if (episode.scenario_id !== scheduled.scenario_id) throw new ValidationError(`${path}.scenario_id: is "${episode.scenario_id}", the manifest schedules "${scheduled.scenario_id}"`);
    if (episode.scenario_hash !== scheduled.scenario_hash) throw new ValidationError(`${path}.scenario_hash: differs from the manifest's ${scheduled.scenario_hash}`);
    // Seeds are never printed.
    if (episode.seed !== scheduled.seed) throw new ValidationError(`${path}.seed: differs from the seed the manifest schedules`);
    if (options.recompute) {
      const expected = computePackEpisode(suite, manifest, i);
      if (expected.fire_world_digest !== episode.fire_world_digest) {
        throw new ValidationError(`${path}.fire_world_digest: is ${episode.fire_world_digest}, the recomputed fire world has digest ${expected.fire_world_digest}`);
      }
      if (expected.max_evacuated !== episode.max_evacuated) {
        throw new ValidationError(`${path}.max_evacuated: is ${episode.max_evacuated}, the recomputed M* is ${expected.max_evacuated}`);
      }
    }
  }

  const digest = fileDigest(contents.packText);
  return { value, text: contents.packText, digest, packId: packIdOf(digest), suite, manifest, manifestHash: hash, recomputed: options.recompute };
}

/** The pack's entry of a scheduled episode. */
export function packEpisode(pack: EnvironmentPack, index: number): PackEpisode {
  const episode = pack.value.episodes[index];
  if (episode === undefined) throw new RangeError(`episode ${index} is not scheduled in pack ${pack.packId}`);
  return episode;
}

/**
 * The scorer's check of one result against a pack (scoring-v1.0.md section
 * 2). The result must already be authenticated against `pack.suite`.
 *
 * - Its manifest must be the pack's (else MismatchError, exit 5, as for any
 *   result that does not match the required manifest: no official score).
 * - Every committed episode's fire trajectory, recomputed during
 *   authentication from the scenario and seed, must have the pack's
 *   fire-world digest, and every burning set of its record must match that
 *   trajectory step by step (else ValidationError, exit 3: a scoring input
 *   error).
 */
export function checkResultAgainstPack(pack: EnvironmentPack, result: AuthenticatedResult, source: string): void {
  checkManifestAgainstPack(pack, result.manifestHash, source);
  for (const episode of result.episodes) checkEpisodeAgainstPack(pack, episode, source);
}

/** checkResultAgainstPack's first check, alone: for a result read by streaming, before its episodes. */
export function checkManifestAgainstPack(pack: EnvironmentPack, manifestHash: string, source: string): void {
  if (manifestHash !== pack.manifestHash) {
    throw new MismatchError(`${source}: the result's manifest ${manifestHash} is not the manifest ${pack.manifestHash} of environment pack ${pack.packId}; an official score needs the pack's manifest`);
  }
}

/** checkResultAgainstPack's check of one committed episode (its fire world and recorded burning sets). */
export function checkEpisodeAgainstPack(pack: EnvironmentPack, episode: AuthenticatedEpisode, source: string): void {
  const pinned = packEpisode(pack, episode.index);
  const fire = episode.start.fire;
  if (fire.digest !== pinned.fire_world_digest) {
    throw new ValidationError(`${source}: episode ${episode.index}: its fire world has digest ${fire.digest}, environment pack ${pack.packId} pins ${pinned.fire_world_digest}`);
  }
  checkRecordedBurning(episode.record.initial.burning, episode.record.trajectory.map((s) => s.burning), fire, episode.start.scenario.grid.cols, `${source}: episode ${episode.index}`);
}

type CellPairs = readonly (readonly [number, number])[];

/** Every recorded burning set (B(0), then each step's newly burning cells) equals the fire world's. */
function checkRecordedBurning(initial: CellPairs, steps: readonly CellPairs[], fire: FireWorld, cols: number, where: string): void {
  const same = (pairs: CellPairs, cells: readonly number[] | undefined): boolean =>
    cells !== undefined && pairs.length === cells.length && pairs.every(([r, c], k) => r * cols + c === cells[k]);
  if (!same(initial, fire.newlyBurning[0])) throw new ValidationError(`${where}: record initial.burning does not match the pack's fire world`);
  steps.forEach((pairs, t) => {
    if (!same(pairs, fire.newlyBurning[t + 1])) throw new ValidationError(`${where}: record trajectory[${t}].burning does not match the pack's fire world`);
  });
}

/** The scorer's check of a recomputed M* against the pack (a tampered pack is exit 3). */
export function checkMaxEvacuatedAgainstPack(pack: EnvironmentPack, index: number, maxEvacuated: number, source: string): void {
  const pinned = packEpisode(pack, index);
  if (pinned.max_evacuated !== maxEvacuated) {
    throw new ValidationError(`${source}: episode ${index}: M* is ${maxEvacuated}, environment pack ${pack.packId} pins ${pinned.max_evacuated}`);
  }
}
