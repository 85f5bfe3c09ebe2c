/**
 * The archive (src/node/archive): browsing 100,000 archived episodes
 * (trials and episodes pages, sorted and filtered, goal < 50 ms each) and
 * ingest speed. The table figures use synthetic rows (testkit: stand-in
 * records); the ingest figure stores real evaluated episodes, one
 * transaction each, as a run from the app does.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manifestHash } from '../src/core/eval/manifest.js';
import { Archive } from '../src/node/archive/archive.js';
import { addSyntheticTrial, seedSuite } from '../test/kits/archive-kit.js';
import { listEpisodes, listTrials } from '../src/node/archive/queries.js';
import { insertTrial, storeEpisode } from '../src/node/archive/trials-store.js';
import { defaultEntryPoints } from '../src/node/entry-points.js';
import { runEvaluation } from '../src/node/eval/runner.js';
import { MemorySink } from '../src/node/eval/sink.js';
import { PUBLIC_SUITE, timeIt, type Figure } from './harness.js';

const TRIALS = 100;
const SEEDS = 100; // x 10 scenarios = 1,000 episodes per trial

function query(name: string, run: () => unknown): Promise<Figure> {
  return timeIt(run, 7, 2).then((s) => ({ name, value: s * 1000, unit: 'ms', goal: '< 50 ms', ok: s * 1000 < 50 }));
}

export async function benchArchive(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ember-bench-archive-'));
  const archive = Archive.open(join(dir, 'archive.sqlite'));
  try {
    const s = seedSuite(archive, PUBLIC_SUITE, SEEDS);
    const began = performance.now();
    for (let t = 0; t < TRIALS; t++) addSyntheticTrial(archive, s, { modelId: `model-${t % 7}`, seed: t + 1 });
    const seconds = (performance.now() - began) / 1000;
    const episodes = TRIALS * s.manifest.episodes.length;
    const family = s.suite.entries[3]!.primaryFamily;
    const figures: Figure[] = [
      { name: `synthetic bulk ingest (${episodes.toLocaleString('en-US')} episodes, one transaction per trial)`, value: episodes / seconds, unit: 'episodes/s' },
      await query('trials table, first page (100 rows, newest first)', () => listTrials(archive, { sort: 'created', direction: 'desc', filter: {}, offset: 0, limit: 100 })),
      await query('trials table, sorted by score', () => listTrials(archive, { sort: 'score', direction: 'desc', filter: {}, offset: 0, limit: 100 })),
      await query(`trials table, filtered by family (${family})`, () => listTrials(archive, { sort: 'score', direction: 'desc', filter: { family }, offset: 0, limit: 100 })),
      await query('episodes table (100,000 rows), first page', () => listEpisodes(archive, { sort: 'index', direction: 'asc', filter: {}, offset: 0, limit: 100 })),
      await query('episodes table, sorted by score', () => listEpisodes(archive, { sort: 'score', direction: 'desc', filter: {}, offset: 0, limit: 100 })),
      await query(`episodes table, filtered by family, sorted by score`, () => listEpisodes(archive, { sort: 'score', direction: 'asc', filter: { family }, offset: 0, limit: 100 })),
      await query('episodes of one trial, sorted by score', () => listEpisodes(archive, { trialId: 50, sort: 'score', direction: 'desc', filter: {}, offset: 0, limit: 100 })),
    ];

    // Real episodes: evaluated once in memory, then stored one transaction each (record deflated, digests computed).
    const memory = new MemorySink();
    const small = seedSuite(archive, PUBLIC_SUITE, 3);
    await runEvaluation({
      suite: small.suite,
      suiteDir: PUBLIC_SUITE,
      manifest: small.manifest,
      modelId: 'bench',
      agent: { kind: 'builtin', id: 'static-shortest-path-v1' },
      agentPaths: [],
      actTimeoutMs: 30_000,
      sink: memory,
      continueOnFailure: false,
      jobs: 1,
      entryPoints: defaultEntryPoints(),
    });
    const real = memory.final.result.episodes;
    const families = new Map(small.suite.entries.map((e) => [e.scenarioId, e.primaryFamily]));
    const rounds = 20;
    const start = performance.now();
    for (let r = 0; r < rounds; r++) {
      const trialId = archive.write((db) =>
        insertTrial(db, { modelId: 'bench', manifest: small.manifest, manifestHash: manifestHash(small.manifest), pack: null, status: 'running', origin: 'run', agentLabel: 'bench', runConfig: null, families }),
      );
      for (const e of real) archive.write((db) => storeEpisode(db, trialId, e, null));
    }
    const realSeconds = (performance.now() - start) / 1000;
    figures.push({ name: `archive ingest of evaluated episodes (public suite, one transaction each)`, value: (rounds * real.length) / realSeconds, unit: 'episodes/s' });
    return figures;
  } finally {
    archive.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
