/**
 * The rows behind the catalog views (suites, manifests, packs): listed and
 * looked up as the contract's summaries. The stored files themselves are
 * inputs-store.ts's.
 */

import type { ManifestSummary, PackSummary, SuiteSummary } from '../../shared/api/contract.js';
import { statement, type Archive } from './archive.js';
import type { SuiteSource } from './inputs-store.js';

interface SuiteDbRow {
  suite_hash: string;
  suite_id: string;
  suite_version: string;
  visibility: string;
  seed_role: string;
  /** The schema's CHECK constraint holds it to the three sources. */
  source: SuiteSource;
  scenario_count: number;
  /** JSON: the families in manifest order (inputs-store.ts storeSuite). */
  families: string;
}

function familiesOf(text: string): string[] {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed) || !parsed.every((f): f is string => typeof f === 'string')) throw new Error(`archive: a suite row's families are not a list of names: ${text.slice(0, 80)}`);
  return parsed;
}

function suiteSummary(r: SuiteDbRow): SuiteSummary {
  return {
    suiteHash: r.suite_hash,
    suiteId: r.suite_id,
    suiteVersion: r.suite_version,
    visibility: r.visibility,
    seedRole: r.seed_role,
    source: r.source,
    scenarioCount: r.scenario_count,
    families: familiesOf(r.families),
  };
}

/** Every stored suite: the public one first, then in the order they were added. */
export function listSuiteRows(archive: Archive): SuiteSummary[] {
  return statement<SuiteDbRow>(archive, `SELECT * FROM suites ORDER BY source = 'public' DESC, created, suite_id`).all().map(suiteSummary);
}

export function suiteRow(archive: Archive, suiteHash: string): SuiteSummary | undefined {
  const row = statement<SuiteDbRow>(archive, 'SELECT * FROM suites WHERE suite_hash = ?').get(suiteHash);
  return row === undefined ? undefined : suiteSummary(row);
}

interface ManifestDbRow {
  manifest_hash: string;
  suite_hash: string;
  suite_id: string;
  episode_count: number;
  seed_count: number;
  scenario_count: number;
}

function manifestSummary(r: ManifestDbRow): ManifestSummary {
  return {
    manifestHash: r.manifest_hash,
    suiteHash: r.suite_hash,
    suiteId: r.suite_id,
    episodeCount: r.episode_count,
    seedCount: r.seed_count,
    scenarioCount: r.scenario_count,
  };
}

const MANIFEST_SELECT = 'SELECT m.*, s.suite_id FROM manifests m JOIN suites s ON s.suite_hash = m.suite_hash';

/** The stored manifests (of one suite, when given), in the order they were made. */
export function listManifestRows(archive: Archive, suiteHash?: string): ManifestSummary[] {
  const rows =
    suiteHash === undefined
      ? statement<ManifestDbRow>(archive, `${MANIFEST_SELECT} ORDER BY m.created, m.manifest_hash`).all()
      : statement<ManifestDbRow>(archive, `${MANIFEST_SELECT} WHERE m.suite_hash = ? ORDER BY m.created, m.manifest_hash`).all(suiteHash);
  return rows.map(manifestSummary);
}

export function manifestRow(archive: Archive, manifestHash: string): ManifestSummary | undefined {
  const row = statement<ManifestDbRow>(archive, `${MANIFEST_SELECT} WHERE m.manifest_hash = ?`).get(manifestHash);
  return row === undefined ? undefined : manifestSummary(row);
}

interface PackDbRow {
  pack_digest: string;
  pack_id: string;
  suite_hash: string;
  manifest_hash: string;
  episode_count: number;
}

function packSummary(r: PackDbRow): PackSummary {
  return { packDigest: r.pack_digest, packId: r.pack_id, suiteHash: r.suite_hash, manifestHash: r.manifest_hash, episodeCount: r.episode_count };
}

export function listPackRows(archive: Archive): PackSummary[] {
  return statement<PackDbRow>(archive, 'SELECT * FROM packs ORDER BY created, pack_digest').all().map(packSummary);
}

export function packRow(archive: Archive, packDigest: string): PackSummary | undefined {
  const row = statement<PackDbRow>(archive, 'SELECT * FROM packs WHERE pack_digest = ?').get(packDigest);
  return row === undefined ? undefined : packSummary(row);
}

/** The pack to score an import against: the stored pack of its manifest when there is exactly one (two would make the choice arbitrary). */
export function onlyPackOfManifest(archive: Archive, manifestHash: string): { digest: string; packId: string } | null {
  const rows = statement<{ pack_digest: string; pack_id: string }>(archive, 'SELECT pack_digest, pack_id FROM packs WHERE manifest_hash = ? ORDER BY pack_digest LIMIT 2').all(manifestHash);
  return rows.length === 1 ? { digest: rows[0]!.pack_digest, packId: rows[0]!.pack_id } : null;
}
