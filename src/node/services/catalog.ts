/**
 * The inputs behind the contract: suites (the shipped public suite and
 * folders the user adds), evaluation manifests and environment packs, all
 * stored byte for byte in the archive and authenticated again whenever they
 * are used.
 */

import { BASELINE_IDS, type BaselineId } from '../../core/baselines/registry.js';
import { isEmberError } from '../../core/errors.js';
import { buildManifest, manifestText, type EvaluationManifest } from '../../core/eval/manifest.js';
import { expandSeedList } from '../../core/eval/seed-list.js';
import type { EnvironmentPack } from '../../core/pack/pack.js';
import type { Suite } from '../../core/world/suite.js';
import type { BuiltinAgentInfo, ManifestSummary, PackSummary, ScenarioSummary, SuiteSummary, ValidationReport } from '../../shared/api/contract.js';
import type { Archive } from '../archive/archive.js';
import {
  loadStoredManifest,
  loadStoredSuite,
  packFromFiles,
  readSuiteFolder,
  storedPackFiles,
  storedSuiteFiles,
  storeManifest,
  storePack,
  storeSuite,
  type SuiteSource,
} from '../archive/inputs-store.js';
import { listManifestRows, listPackRows, listSuiteRows, manifestRow, packRow, suiteRow } from '../archive/catalog-queries.js';
import { runOffThread } from '../jobs/off-thread.js';
import { ServiceError } from './dispatch.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

export function listSuites(archive: Archive): SuiteSummary[] {
  return listSuiteRows(archive);
}

export function getSuiteSummary(archive: Archive, suiteHash: string): SuiteSummary {
  const summary = suiteRow(archive, suiteHash);
  if (summary === undefined) throw new ServiceError('not_found', `suiteHash: no suite ${suiteHash} in the archive`, 'suiteHash');
  return summary;
}

/** Reads, authenticates and stores a suite folder; returns its summary. */
export function addSuiteFolder(archive: Archive, dir: string, source: SuiteSource): SuiteSummary {
  const { suite, files } = readSuiteFolder(dir);
  archive.write((db) => storeSuite(db, suite, files, source));
  return getSuiteSummary(archive, suite.hash);
}

export function storedSuite(archive: Archive, suiteHash: string): Suite {
  getSuiteSummary(archive, suiteHash);
  return loadStoredSuite(archive, suiteHash);
}

export function suiteDetail(archive: Archive, suiteHash: string): { suite: SuiteSummary; scenarios: ScenarioSummary[] } {
  const summary = getSuiteSummary(archive, suiteHash);
  const suite = loadStoredSuite(archive, suiteHash);
  const files = storedSuiteFiles(archive, suiteHash);
  return {
    suite: summary,
    scenarios: suite.entries.map((e) => ({
      scenarioId: e.scenarioId,
      title: e.scenario.title,
      families: e.scenario.families,
      scenarioHash: e.scenarioHash,
      text: decoder.decode(files.get(e.file)!),
    })),
  };
}

export function validateSuite(archive: Archive, suiteHash: string): ValidationReport {
  getSuiteSummary(archive, suiteHash);
  try {
    const suite = loadStoredSuite(archive, suiteHash);
    return { valid: true, message: `${suite.suiteId} ${suite.suiteVersion}: every file matches its digest and all ${suite.entries.length} scenarios pass the strict parser` };
  } catch (error) {
    if (isEmberError(error)) return { valid: false, message: error.message };
    throw error;
  }
}

// ---------------------------------------------------------------------------
// Manifests

export function listManifests(archive: Archive, suiteHash?: string): ManifestSummary[] {
  return listManifestRows(archive, suiteHash);
}

export function getManifestSummary(archive: Archive, manifestHash: string): ManifestSummary {
  const summary = manifestRow(archive, manifestHash);
  if (summary === undefined) throw new ServiceError('not_found', `manifestHash: no manifest ${manifestHash} in the archive`, 'manifestHash');
  return summary;
}

export function storedManifest(archive: Archive, manifestHash: string): EvaluationManifest {
  const manifest = loadStoredManifest(archive, manifestHash);
  if (manifest === undefined) throw new ServiceError('not_found', `manifestHash: no manifest ${manifestHash} in the archive`, 'manifestHash');
  return manifest;
}

/** Builds the manifest of a stored suite and seed items (`7`, `0..29`), stores it, returns its summary. */
export function createManifest(archive: Archive, suiteHash: string, seedItems: readonly string[]): ManifestSummary {
  const suite = storedSuite(archive, suiteHash);
  const manifest = buildManifest(suite, expandSeedList(seedItems));
  const hash = archive.write((db) => storeManifest(db, manifest));
  return getManifestSummary(archive, hash);
}

// ---------------------------------------------------------------------------
// Packs

export function listPacks(archive: Archive): PackSummary[] {
  return listPackRows(archive);
}

export function getPackSummary(archive: Archive, packDigest: string): PackSummary {
  const summary = packRow(archive, packDigest);
  if (summary === undefined) throw new ServiceError('not_found', `packDigest: no pack ${packDigest} in the archive`, 'packDigest');
  return summary;
}

/** A stored pack, authenticated from its stored bytes (recompute: every fire world and M* again, as `pack verify`). */
export function storedPack(archive: Archive, packDigest: string, recompute: boolean): EnvironmentPack {
  getPackSummary(archive, packDigest);
  return packFromFiles(storedPackFiles(archive, packDigest), packDigest, recompute);
}

/**
 * `pack build` of a stored manifest: built in memory from the stored
 * suite's bytes (src/node/pack.ts buildPackFiles, the bytes `pack build`
 * writes) by the archive worker (`worker`; this thread without one), and
 * stored byte for byte; nothing is written beside the archive.
 */
export async function buildStoredPack(archive: Archive, manifestHash: string, worker: string | undefined): Promise<PackSummary> {
  const manifest = storedManifest(archive, manifestHash);
  const suiteHash = manifest.suite.suite_hash;
  const input = {
    suiteFiles: [...storedSuiteFiles(archive, suiteHash)],
    suiteSource: `archive:suite/${suiteHash.slice(0, 12)}`,
    manifestText: manifestText(manifest),
    manifestSource: `archive:manifest/${manifestHash.slice(0, 12)}`,
  };
  const built = await runOffThread(worker, { kind: 'pack-build', input });
  // Authenticated again here from the bytes that are stored (every file digest-checked); the fire worlds were computed just now.
  const files = new Map(built.files);
  const pack = packFromFiles(files, built.packDigest, false);
  archive.write((db) => storePack(db, pack, files));
  return getPackSummary(archive, pack.digest);
}

/** `pack verify` of a stored pack, in the archive worker (`worker`; this thread without one): its files authenticated, every fire world and M* recomputed. */
export async function verifyStoredPack(archive: Archive, packDigest: string, worker: string | undefined): Promise<ValidationReport> {
  getPackSummary(archive, packDigest);
  let files: Map<string, Buffer>;
  try {
    files = storedPackFiles(archive, packDigest);
  } catch (error) {
    if (isEmberError(error)) return { valid: false, message: error.message };
    throw error;
  }
  return runOffThread(worker, { kind: 'pack-verify', input: { packDigest, files: [...files] } });
}

// ---------------------------------------------------------------------------
// Agents

const BASELINE_DESCRIPTIONS: { readonly [K in BaselineId]: string } = {
  'always-stay': 'never moves anyone (the floor)',
  'random-legal-v1': 'a uniformly random legal action per person (a fixed stream, no seed)',
  'nearest-exit-greedy-v1': 'each person steps toward the nearest exit, ignoring fire',
  'static-shortest-path-v1': 'shortest paths to exits on the static map',
  'fire-aware-shortest-path-v1': 'shortest paths that avoid burning and soon-burning cells',
  'congestion-aware-v1': 'fire-aware paths with an exact door-queue model (the strongest baseline)',
  'adv-block-scrub': 'an adversary: another agent with every move the resolver would block replaced by STAY (shows a score cannot be gamed through the action log)',
};

export function builtinAgents(): BuiltinAgentInfo[] {
  return BASELINE_IDS.map((id) => ({ id, description: BASELINE_DESCRIPTIONS[id] }));
}
