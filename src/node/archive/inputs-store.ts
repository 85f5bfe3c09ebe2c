/**
 * Suites, evaluation manifests and environment packs in the archive: stored
 * byte for byte, loaded back through the library's own strict loaders (a
 * stored suite is re-authenticated like a folder). Nothing is written out
 * as a folder: workers, the pack builder and the pack verifier take the
 * stored bytes.
 */

import { ValidationError } from '../../core/errors.js';
import { manifestHash, manifestText, parseManifestText, type EvaluationManifest } from '../../core/eval/manifest.js';
import { authenticatePack, fileBytesDigest, PACK_FILE, PACK_MANIFEST_FILE, PACK_SUITE_DIR, type EnvironmentPack } from '../../core/pack/pack.js';
import type { Suite } from '../../core/world/suite.js';
import { suiteFromFiles } from '../inputs.js';
import { getArtifact, putArtifact, putText } from './artifacts.js';
import { statement, type Archive } from './archive.js';

export { readSuiteFolder, suiteFromFiles } from '../inputs.js';

export type SuiteSource = 'public' | 'folder' | 'generated';

const decoder = new TextDecoder('utf-8', { fatal: true });

function now(): string {
  return new Date().toISOString();
}

/** The families of a suite in manifest order of first appearance. */
export function suiteFamilies(suite: Suite): string[] {
  return [...new Set(suite.entries.map((e) => e.primaryFamily))];
}

/** Stores a suite's files and row (inside the caller's transaction); an already stored suite keeps its first source. */
export function storeSuite(archive: Archive, suite: Suite, files: ReadonlyMap<string, Uint8Array>, source: SuiteSource): void {
  statement(
    archive,
    `INSERT OR IGNORE INTO suites (suite_hash, suite_id, suite_version, visibility, seed_role, source, scenario_count, families, created)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(suite.hash, suite.suiteId, suite.suiteVersion, suite.visibility, suite.seedRole, source, suite.entries.length, JSON.stringify(suiteFamilies(suite)), now());
  const file = statement(archive, 'INSERT OR IGNORE INTO suite_files (suite_hash, name, digest) VALUES (?, ?, ?)');
  for (const [name, bytes] of files) file.run(suite.hash, name, putArtifact(archive, 'suite-file', bytes));
}

export function hasSuite(archive: Archive, suiteHash: string): boolean {
  return statement(archive, 'SELECT 1 FROM suites WHERE suite_hash = ?').get(suiteHash) !== undefined;
}

/** The exact bytes of a stored suite's files (digests checked). */
export function storedSuiteFiles(archive: Archive, suiteHash: string): Map<string, Buffer> {
  const rows = statement<{ name: string; digest: string }>(archive, 'SELECT name, digest FROM suite_files WHERE suite_hash = ? ORDER BY name').all(suiteHash);
  if (rows.length === 0) throw new ValidationError(`archive: suite ${suiteHash} has no stored files`);
  return new Map(rows.map((r) => [r.name, getArtifact(archive, r.digest)]));
}

/** A stored suite, authenticated again by the suite loader. */
export function loadStoredSuite(archive: Archive, suiteHash: string): Suite {
  const suite = suiteFromFiles(storedSuiteFiles(archive, suiteHash), `archive:suite/${suiteHash.slice(0, 12)}`);
  if (suite.hash !== suiteHash) throw new ValidationError(`archive: suite ${suiteHash} loads with another hash ${suite.hash} (the archive is damaged)`);
  return suite;
}

// ---------------------------------------------------------------------------
// Manifests

/** Stores a manifest (its canonical file text) and its row; the suite must be stored. */
export function storeManifest(archive: Archive, manifest: EvaluationManifest): string {
  const hash = manifestHash(manifest);
  const digest = putText(archive, 'manifest', manifestText(manifest));
  statement(
    archive,
    `INSERT OR IGNORE INTO manifests (manifest_hash, suite_hash, digest, episode_count, seed_count, scenario_count, created)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(hash, manifest.suite.suite_hash, digest, manifest.episodes.length, manifest.seeds.length, new Set(manifest.episodes.map((e) => e.scenario_id)).size, now());
  return hash;
}

export function loadStoredManifest(archive: Archive, hash: string): EvaluationManifest | undefined {
  const row = statement<{ digest: string }>(archive, 'SELECT digest FROM manifests WHERE manifest_hash = ?').get(hash);
  if (row === undefined) return undefined;
  const manifest = parseManifestText(getArtifact(archive, row.digest).toString('utf8'), `archive:manifest/${hash.slice(0, 12)}`);
  if (manifestHash(manifest) !== hash) throw new ValidationError(`archive: manifest ${hash} loads with another hash (the archive is damaged)`);
  return manifest;
}

// ---------------------------------------------------------------------------
// Packs

/** Stores a built pack's files (pack.json, manifest.json, suite/...) and its row. */
export function storePack(archive: Archive, pack: EnvironmentPack, files: ReadonlyMap<string, Uint8Array>): void {
  statement(
    archive,
    `INSERT OR IGNORE INTO packs (pack_digest, pack_id, suite_hash, manifest_hash, episode_count, created) VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(pack.digest, pack.packId, pack.suite.hash, pack.manifestHash, pack.manifest.episodes.length, now());
  const file = statement(archive, 'INSERT OR IGNORE INTO pack_files (pack_digest, name, digest) VALUES (?, ?, ?)');
  for (const [name, bytes] of files) file.run(pack.digest, name, putArtifact(archive, 'pack-file', bytes));
}

export function storedPackFiles(archive: Archive, packDigest: string): Map<string, Buffer> {
  const rows = statement<{ name: string; digest: string }>(archive, 'SELECT name, digest FROM pack_files WHERE pack_digest = ? ORDER BY name').all(packDigest);
  if (rows.length === 0) throw new ValidationError(`archive: pack ${packDigest} has no stored files`);
  return new Map(rows.map((r) => [r.name, getArtifact(archive, r.digest)]));
}

/** A pack from its files (pack.json, manifest.json, suite/...), authenticated like a pack folder; its digest must be `packDigest`. */
export function packFromFiles(files: ReadonlyMap<string, Uint8Array>, packDigest: string, recompute: boolean): EnvironmentPack {
  const source = `archive:pack/${packDigest.slice(0, 16)}`;
  const prefix = `${PACK_SUITE_DIR}/`;
  const suiteFiles = new Map<string, Uint8Array>();
  for (const [name, bytes] of files) if (name.startsWith(prefix)) suiteFiles.set(name.slice(prefix.length), bytes);
  const packText = files.get(PACK_FILE);
  const manifestFile = files.get(PACK_MANIFEST_FILE);
  if (packText === undefined || manifestFile === undefined) throw new ValidationError(`${source}: incomplete pack (the archive is damaged)`);
  const suite = suiteFromFiles(suiteFiles, `${source}/${PACK_SUITE_DIR}`);
  const suiteFileDigests = new Map([...suiteFiles].map(([name, bytes]) => [name, fileBytesDigest(bytes)]));
  const pack = authenticatePack({ packText: decoder.decode(packText), manifestText: decoder.decode(manifestFile), suite, suiteFileDigests }, source, { recompute });
  if (pack.digest !== packDigest) throw new ValidationError(`${source}: pack.json has digest ${pack.digest}, not ${packDigest} (the archive is damaged)`);
  return pack;
}
