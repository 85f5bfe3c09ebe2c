// The archive as the runner's sink, at the size limit of an archived result:
// a run whose result would pass it stops at the episode that would take it
// past, with nothing of that episode stored and a message that points to the
// command line; a resume gets the stored indices only (the sink keeps the
// episodes); with room, it finishes with the whole-run result.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { OutputError } from '../../src/core/errors.js';
import { buildResult, resultDigest, resultText, type ResultEpisode } from '../../src/core/eval/result.js';
import { Archive } from '../../src/node/archive/archive.js';
import { getArtifact } from '../../src/node/archive/artifacts.js';
import { exportTrial } from '../../src/node/archive/archive-io.js';
import { ArchiveSink, MAX_ARCHIVED_RESULT_BYTES } from '../../src/node/archive/archive-sink.js';
import { runOffThread } from '../../src/node/jobs/off-thread.js';
import { scoreJobOf } from '../../src/node/jobs/score-job.js';
import { scoreStoredJobOf } from '../../src/node/jobs/score-stored.js';
import { defaultEntryPoints } from '../../src/node/entry-points.js';
import { seedSuite } from '../kits/archive-kit.js';
import { getTrialDbRow } from '../../src/node/archive/queries.js';
import { insertTrial } from '../../src/node/archive/trials-store.js';
import { runEvaluation } from '../../src/node/eval/runner.js';
import { MemorySink, type ResultSink } from '../../src/node/eval/sink.js';
import { TINY_SUITE, buildTinyResult, tinyRunOptions } from '../eval/kit.js';
import { tempDir } from './helpers.js';

const tmp = tempDir('ember-archive-sink-');
afterAll(() => tmp.remove());

// The collector, to see whether anything still references the committed episodes.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** An archive with the tiny suite, a manifest of seeds 0 and 1, and one new trial of it. */
async function trialOfTinySuite(name: string) {
  const archive = Archive.open(join(tmp.dir, name));
  const seeded = seedSuite(archive, TINY_SUITE, 2);
  const built = await buildTinyResult(['0', '1']);
  expect(seeded.manifestHash).toBe(built.result.manifest_hash);
  const families = new Map(seeded.suite.entries.map((e) => [e.scenarioId, e.primaryFamily]));
  const trialId = archive.write((db) =>
    insertTrial(db, { modelId: 'kit-model', manifest: seeded.manifest, manifestHash: seeded.manifestHash, pack: null, status: 'running', origin: 'run', agentLabel: 'kit', runConfig: null, families }),
  );
  return { archive, seeded, built, trialId };
}

const unscored = { score: () => Promise.resolve(null) };

describe('ArchiveSink at the size limit of an archived result', () => {
  it('stops at the episode that would pass it, keeps the ones before, and a resume with room finishes the same result', async () => {
    const { archive, seeded, built, trialId } = await trialOfTinySuite('limit.sqlite');
    try {
      const whole = new MemorySink();
      await runEvaluation(tinyRunOptions(built, whole));
      const wholeText = whole.final.text;
      // Room for about half of the result.
      const limit = Math.floor(wholeText.length / 2);

      const stopped = await runEvaluation(tinyRunOptions(built, new ArchiveSink(archive, trialId, unscored, limit))).then(
        () => null,
        (error: unknown) => error,
      );
      expect(stopped).toBeInstanceOf(OutputError);
      expect((stopped as Error).message).toMatch(/its result would pass \d+ bytes, the most the app keeps as one result; the episodes before it are kept\. Run an evaluation this large with the command line/);
      const after = getTrialDbRow(archive, trialId)!;
      expect(after.status).toBe('interrupted');
      expect(after.episodes_completed).toBeGreaterThan(0);
      expect(after.episodes_completed).toBeLessThan(built.manifest.episodes.length);
      // What was kept is what fits: the committed episodes' texts stay under the limit.
      const kept = built.result.episodes.filter((e) => e.index < after.episodes_completed);
      expect(kept.reduce((n, e) => n + JSON.stringify(e).length, 0)).toBeLessThanOrEqual(limit);

      // An export of the unfinished trial holds its result so far: composed from the stored episodes, as the CLI's checkpoint would hold it.
      const exported = await exportTrial(archive, trialId, join(tmp.dir, 'limit-export'));
      expect(exported.files.map((f) => f.file)).toEqual(['result.json']);
      expect(readFileSync(join(exported.dir, 'result.json'), 'utf8')).toBe(resultText(buildResult(built.manifest, seeded.manifestHash, 'kit-model', kept, [])));

      // The sink keeps the episodes: a resume hands the runner their indices only, never their records.
      const probe = await new ArchiveSink(archive, trialId, unscored).resumeState({ suite: built.suite, manifest: built.manifest, manifestHash: seeded.manifestHash, modelId: 'kit-model' });
      expect(probe).toEqual({ episodes: [], storedEpisodes: Array.from({ length: after.episodes_completed }, (_, i) => i), failures: [] });

      // The final result is composed from the stored texts and scored from its bytes: they are the whole-run result's.
      let scoredBytes: Buffer | undefined;
      const scoring = { score: (chunks: readonly Uint8Array[]) => ((scoredBytes = Buffer.concat(chunks)), Promise.resolve(null)) };
      const resumed = await runEvaluation(tinyRunOptions(built, new ArchiveSink(archive, trialId, scoring)));
      expect(resumed.completedEpisodes).toBe(built.manifest.episodes.length);
      expect(scoredBytes?.toString('utf8')).toBe(wholeText);
      expect(resumed.digest).toBe(resultDigest(wholeText));
      const row = getTrialDbRow(archive, trialId)!;
      expect(row.status).toBe('complete');
      expect(getArtifact(archive, row.result_digest!).toString('utf8')).toBe(wholeText);
      expect(wholeText).toBe(resultText(built.result));
    } finally {
      archive.close();
    }
  });

  it('stores and scores a result too large for one string from the stored episodes: the same bytes and report as one text', async () => {
    const source = 'kit trial';
    const asText = await trialOfTinySuite('as-text.sqlite');
    const streamed = await trialOfTinySuite('streamed.sqlite');
    try {
      const { suite } = asText.seeded;
      const text = new ArchiveSink(asText.archive, asText.trialId, {
        score: (chunks) => runOffThread(undefined, { kind: 'score', input: scoreJobOf(asText.archive, chunks, source, suite.hash, null) }),
      });
      const textRun = await runEvaluation(tinyRunOptions(asText.built, text));

      // A one-string limit of 0 bytes: every result takes the path of a result over 500 MiB, scored in a real worker thread.
      const worker = defaultEntryPoints().archiveWorker;
      const bytes = new ArchiveSink(
        streamed.archive,
        streamed.trialId,
        {
          score: () => Promise.reject(new Error('a result over the one-string limit is never handed over whole')),
          scoreStored: (fileDigest) =>
            runOffThread(worker, { kind: 'score-stored', input: scoreStoredJobOf(streamed.archive, streamed.trialId, source, fileDigest, suite.hash, null) }),
        },
        MAX_ARCHIVED_RESULT_BYTES,
        0,
      );
      const streamedRun = await runEvaluation(tinyRunOptions(streamed.built, bytes));

      expect(streamedRun.digest).toBe(textRun.digest);
      const stored = (a: typeof asText) => {
        const row = getTrialDbRow(a.archive, a.trialId)!;
        return { result: getArtifact(a.archive, row.result_digest!).toString('utf8'), report: getArtifact(a.archive, row.report_digest!).toString('utf8'), score: row.score };
      };
      const whole = stored(asText);
      expect(whole.result).toBe(asText.built.text);
      expect(whole.score).not.toBeNull();
      expect(stored(streamed)).toEqual(whole);
    } finally {
      asText.archive.close();
      streamed.archive.close();
    }
  });

  it('leaves the runner no record to keep: every committed episode object can be collected', async () => {
    const { archive, built, trialId } = await trialOfTinySuite('memory.sqlite');
    try {
      const inner = new ArchiveSink(archive, trialId, unscored);
      const refs: WeakRef<ResultEpisode>[] = [];
      const sink: ResultSink = {
        resumeState: (run) => inner.resumeState(run),
        commit: (entry, state) => {
          if (entry.kind === 'episode') refs.push(new WeakRef(entry.episode));
          return inner.commit(entry, state);
        },
        finish: (final) => inner.finish(final),
        stopped: () => inner.stopped(),
        storedResult: () => inner.storedResult(),
        storedDigest: () => inner.storedDigest(),
      };
      const summary = await runEvaluation(tinyRunOptions(built, sink));
      // A WeakRef target stays alive until the job that made the WeakRef ends.
      await new Promise((resolve) => setTimeout(resolve, 0));
      gc();
      expect(refs).toHaveLength(built.manifest.episodes.length);
      expect(refs.filter((r) => r.deref() !== undefined)).toHaveLength(0);
      expect(resultText(summary.result)).toBe(built.text);
    } finally {
      archive.close();
    }
  });
});
