import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTinyResult, tinyRunOptions, type BuiltResult } from '../../../test/eval/kit.js';
import { streamedResultDigest } from '../../core/eval/result-stream.js';
import { buildResult, resultText, type EvaluationResult, type ResultEpisode } from '../../core/eval/result.js';
import { canonicalJson, type JsonObject } from '../../core/json/canonical.js';
import { runEvaluation, type EvaluationProgress, type EvaluationRunOptions } from './runner.js';
import type { ResultSink, SinkRun } from './sink.js';

// The collector, to see which committed episodes are still referenced (issue 12: the runner must keep none).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let built: BuiltResult;
beforeAll(async () => {
  built = await buildTinyResult(['1', '7'], 'nearest-exit-greedy-v1', 'kit-model');
});

function options(sink: ResultSink, onProgress?: (p: EvaluationProgress) => void): EvaluationRunOptions {
  return tinyRunOptions(built, sink, onProgress === undefined ? {} : { onProgress });
}

/**
 * A sink that keeps each episode as its canonical text (as the journal keeps
 * lines), with storedResult when `stores`; it holds the committed episode
 * objects only weakly, to see whether anything else does.
 */
function spySink(stores: boolean, stored: ReadonlyMap<number, string> = new Map()) {
  const texts = new Map(stored);
  const refs: WeakRef<ResultEpisode>[] = [];
  const commits: { index: number; completed: number; resultEpisodes: number | undefined }[] = [];
  let run: SinkRun | undefined;
  const whole = (): EvaluationResult =>
    buildResult(run!.manifest, run!.manifestHash, run!.modelId, Array.from(texts.values(), (t) => JSON.parse(t) as ResultEpisode), []);
  const sink: ResultSink = {
    resumeState: (r) => {
      run = r;
      return Promise.resolve({ episodes: [], failures: [], storedEpisodes: [...texts.keys()] });
    },
    commit: (entry, state) => {
      if (entry.kind !== 'episode') throw new Error('no failures expected');
      texts.set(entry.episode.index, canonicalJson(entry.episode as unknown as JsonObject));
      refs.push(new WeakRef(entry.episode));
      commits.push({ index: entry.episode.index, completed: state.completed, resultEpisodes: stores ? state.result().episodes.length : undefined });
      return Promise.resolve();
    },
    finish: () => Promise.resolve(),
    stopped: () => Promise.resolve(),
    ...(stores ? { storedResult: whole, storedDigest: () => streamedResultDigest(whole()) } : {}),
  };
  return { sink, texts, refs, commits };
}

async function collect(): Promise<void> {
  // A WeakRef target stays alive until the job that made the WeakRef ends.
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc();
}

describe('runEvaluation with a sink that keeps its episodes', () => {
  it('passes each episode through and keeps no record: only indices and counts', async () => {
    const spy = spySink(true);
    const progress: [number, number][] = [];
    const summary = await runEvaluation(options(spy.sink, (p) => progress.push([p.finished, p.index])));
    expect(spy.commits).toEqual([0, 1, 2, 3, 4, 5].map((i) => ({ index: i, completed: i + 1, resultEpisodes: i + 1 })));
    expect(progress).toEqual([0, 1, 2, 3, 4, 5].map((i) => [i + 1, i]));
    await collect();
    expect(spy.refs).toHaveLength(6);
    expect(spy.refs.filter((r) => r.deref() !== undefined)).toHaveLength(0);
    // The summary's result and digest come from the sink, when asked.
    expect(summary).toMatchObject({ completedEpisodes: 6, failedEpisodes: 0, complete: true, ranEpisodes: 6 });
    expect(resultText(summary.result)).toBe(built.text);
    expect(summary.digest).toBe(streamedResultDigest(built.result));
  });

  it('resumes from the indices the sink reports, without their records', async () => {
    const stored = new Map(built.result.episodes.slice(0, 2).map((e) => [e.index, canonicalJson(e as unknown as JsonObject)]));
    const spy = spySink(true, stored);
    const summary = await runEvaluation(options(spy.sink));
    expect(spy.commits.map((c) => [c.index, c.completed])).toEqual([2, 3, 4, 5].map((i) => [i, i + 1]));
    expect(summary).toMatchObject({ completedEpisodes: 6, complete: true, ranEpisodes: 4 });
    expect(resultText(summary.result)).toBe(built.text);
  });

  it('keeps the records for a sink that builds whole results from the runner (the check above can fail)', async () => {
    const spy = spySink(false);
    const summary = await runEvaluation(options(spy.sink));
    await collect();
    expect(spy.refs.filter((r) => r.deref() !== undefined)).toHaveLength(6);
    expect(resultText(summary.result)).toBe(built.text);
  });
});
