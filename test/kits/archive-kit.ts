/**
 * Synthetic archive contents for tests and the bench: trials of the public
 * suite's shape with made-up episode rows (record and metrics artifacts
 * that are small stand-ins, not simulations). They exercise the tables,
 * indexes and transactions; they are not results and never authenticate.
 * Not part of the build (tsconfig.build.json excludes *-testkit.ts).
 */

import { buildManifest, manifestHash } from '../../src/core/eval/manifest.js';
import type { ResultEpisode } from '../../src/core/eval/result.js';
import type { Suite } from '../../src/core/world/suite.js';
import { connectionOf, type Archive } from '../../src/node/archive/archive.js';
import type { Db } from '../../src/node/archive/db.js';
import { packArtifact, utf8 } from '../../src/node/archive/artifacts.js';
import { readSuiteFolder, storeManifest, storeSuite } from '../../src/node/archive/inputs-store.js';
import { insertTrial, storeEpisode, storeOutcome } from '../../src/node/archive/trials-store.js';

/**
 * The database handle of an archive, for tests that set up or inspect rows
 * directly (damage, fixtures). Production code reaches the database only
 * through the store's functions (archive.ts).
 */
export function rawDatabase(archive: Archive): Db {
  return connectionOf(archive);
}

/** Stores a suite folder and a manifest of `seeds` seeds (0..seeds-1); returns what trials need. */
export function seedSuite(archive: Archive, suiteDir: string, seeds: number): { suite: Suite; manifestHash: string; manifest: ReturnType<typeof buildManifest> } {
  const { suite, files } = readSuiteFolder(suiteDir);
  const manifest = buildManifest(suite, Array.from({ length: seeds }, (_, k) => String(k)));
  archive.write((db) => {
    storeSuite(db, suite, files, 'public');
    storeManifest(db, manifest);
  });
  return { suite, manifest, manifestHash: manifestHash(manifest) };
}

/** A deterministic pseudo-random stream (tests must not depend on Math.random). */
function stream(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/** A stand-in committed episode: the fields the archive indexes, with a small synthetic record. */
export function syntheticEpisode(index: number, scenarioId: string, scenarioHash: string, seed: string, random: () => number): ResultEpisode {
  const population = 20;
  const evacuated = Math.floor(random() * (population + 1));
  const casualties = Math.floor(random() * (population - evacuated + 1));
  const metrics = { population, evacuated, casualties, stranded: population - evacuated - casualties, synthetic: true };
  const record = { scenario_id: scenarioId, scenario_hash: scenarioHash, seed, steps: 10 + Math.floor(random() * 200), termination_reason: 'all_resolved', synthetic: index };
  return { index, metrics, record } as unknown as ResultEpisode;
}

export interface SyntheticTrialOptions {
  readonly modelId: string;
  readonly seed: number;
  /** Commit episode by episode (each its own transaction, like a run) instead of one transaction for the trial. */
  readonly perEpisode?: boolean;
  /** Called after each episode's transaction (perEpisode). */
  readonly afterEpisode?: (index: number) => void;
}

/** Adds one complete synthetic trial of the manifest with episode scores; returns its ID. */
export function addSyntheticTrial(archive: Archive, s: ReturnType<typeof seedSuite>, o: SyntheticTrialOptions): number {
  const random = stream(o.seed);
  const families = new Map(s.suite.entries.map((e) => [e.scenarioId, e.primaryFamily]));
  const trialId = archive.write((db) =>
    insertTrial(db, { modelId: o.modelId, manifest: s.manifest, manifestHash: s.manifestHash, pack: null, status: 'running', origin: 'run', agentLabel: 'synthetic', runConfig: null, families }),
  );
  const add = (job: (typeof s.manifest.episodes)[number]): void => {
    const score = (random() * 100).toFixed(9);
    archive.write((db) => storeEpisode(db, trialId, syntheticEpisode(job.index, job.scenario_id, job.scenario_hash, job.seed, random), score));
  };
  if (o.perEpisode === true) {
    for (const job of s.manifest.episodes) {
      add(job);
      o.afterEpisode?.(job.index);
    }
  } else {
    archive.write(() => s.manifest.episodes.forEach(add));
  }
  const total = random() * 100;
  archive.write((db) => {
    storeOutcome(db, trialId, { result: packArtifact('result', utf8(`synthetic result ${trialId}\n`)), complete: true, report: null, reportText: null, summary: null });
    connectionOf(db).prepare('UPDATE trials SET score = ?, score_key = ?, score_rounded = ? WHERE trial_id = ?').run(total.toFixed(9), total, total.toFixed(1), trialId);
  });
  return trialId;
}
