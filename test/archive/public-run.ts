// The public suite run twice, as the done-when tests of issue 18 need it:
// through the app's services into an archive (handlers['runs.start'],
// worker threads) and through `evaluation run`'s workflow into a file, with
// the same manifest, agent and model ID; and a stored result damaged the way
// the pool's streaming deflate once stored it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { buildManifest, manifestText } from '../../src/core/eval/manifest.js';
import { openArchiveFile } from '../../src/node/archive/db.js';
import { defaultEntryPoints } from '../../src/node/entry-points.js';
import { loadSuiteDir } from '../../src/node/inputs.js';
import { runEvaluationToFile } from '../../src/node/workflows/evaluation.js';
import { openServices, PUBLIC_SUITE } from './helpers.js';

/** The baseline of these runs: of the quick ones, it makes a result of about 15 KB per episode (9 MB for 600). */
export const AGENT = 'static-shortest-path-v1';

/** Runs the public suite with seeds 0..seeds-1 from the app's services into `archivePath`; returns the trial. */
export async function runInApp(archivePath: string, seeds: number): Promise<number> {
  const h = await openServices(archivePath);
  try {
    const { handlers } = h.services;
    const [suite] = await handlers['suites.list']({});
    const manifest = await handlers['manifests.create']({ suiteHash: suite!.suiteHash, seeds: [`0..${seeds - 1}`] });
    const { trialId } = await handlers['runs.start']({
      manifestHash: manifest.manifestHash,
      packDigest: null,
      agent: { kind: 'builtin', id: AGENT },
      modelId: AGENT,
      jobs: 2,
      actTimeoutMs: 30_000,
      continueOnFailure: true,
      trials: 1,
    });
    const end = await h.ended(trialId);
    expect(end.error, end.error?.message).toBeUndefined();
    expect(end.state).toBe('complete');
    return trialId;
  } finally {
    await h.services.dispose();
  }
}

/** `evaluation run` (its workflow, in this process) of the same manifest into `dir`/cli-result.json; returns the file. */
export async function runAsCli(dir: string, seeds: number): Promise<string> {
  const manifestPath = join(dir, 'cli-manifest.json');
  writeFileSync(manifestPath, manifestText(buildManifest(loadSuiteDir(PUBLIC_SUITE), Array.from({ length: seeds }, (_, seed) => String(seed)))));
  const out = join(dir, 'cli-result.json');
  await runEvaluationToFile({
    suiteDir: PUBLIC_SUITE,
    manifestPath,
    modelId: AGENT,
    agent: { kind: 'builtin', id: AGENT },
    agentPaths: [],
    actTimeoutMs: 30_000,
    jobs: 2,
    out,
    resume: false,
    continueOnFailure: true,
    entryPoints: defaultEntryPoints(),
  });
  return out;
}

/** zlib's output pieces (its default chunkSize): the old deflateChunksInPool returned before the last of them arrived. */
const ZLIB_PIECE_BYTES = 16 * 1024;

/**
 * Cuts a trial's stored result as the old bug did: its deflate stream ends
 * at a piece boundary before the compressor's last piece. Returns the
 * result's digest and the stored lengths before and after.
 */
export function cutStoredResult(archivePath: string, trialId: number): { digest: string; before: number; after: number } {
  const { db, close } = openArchiveFile(archivePath, { mode: 'write' });
  try {
    const { digest } = db.prepare('SELECT result_digest AS digest FROM trials WHERE trial_id = ?').get(trialId) as { digest: string };
    const { before } = db.prepare('SELECT length(bytes) AS before FROM artifacts WHERE digest = ?').get(digest) as { before: number };
    const after = Math.floor((before - 1) / ZLIB_PIECE_BYTES) * ZLIB_PIECE_BYTES;
    db.prepare('UPDATE artifacts SET bytes = substr(bytes, 1, ?) WHERE digest = ?').run(after, digest);
    return { digest, before, after };
  } finally {
    close();
  }
}
