import { appendFileSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TINY_SUITE, buildTinyResult, editResultText, scratchFolders, tinyRunOptions, type BuiltResult } from '../../../test/eval/kit.js';
import { OutputError, ValidationError } from '../../core/errors.js';
import { buildManifest } from '../../core/eval/manifest.js';
import { journalPath } from './journal-lines.js';
import { JournalCheckpointSink } from './journal-sink.js';
import { runEvaluation, type EvaluationRunOptions } from './runner.js';
import type { ResultSink } from './sink.js';

let built: BuiltResult;
const freshDir = scratchFolders('ember-journal-');

beforeAll(async () => {
  built = await buildTinyResult(['1', '7'], 'nearest-exit-greedy-v1', 'kit-model');
});

function options(sink: ResultSink, overrides: Partial<EvaluationRunOptions> = {}): EvaluationRunOptions {
  return tinyRunOptions(built, sink, overrides);
}

function sink(out: string, resume = false): JournalCheckpointSink {
  return new JournalCheckpointSink({ path: out, inputs: [TINY_SUITE], resume });
}

/** The journal a killed run leaves: the header and the first `n` episodes, committed through the sink. */
async function journalOf(n: number): Promise<string> {
  const out = join(freshDir(), 'r.json');
  const journaling = sink(out);
  const run = { suite: built.suite, manifest: built.manifest, manifestHash: built.result.manifest_hash, modelId: 'kit-model' };
  await journaling.resumeState(run);
  for (const episode of built.result.episodes.slice(0, n)) await journaling.commit({ kind: 'episode', episode });
  expect(existsSync(out)).toBe(false);
  return readFileSync(journalPath(out), 'utf8');
}

describe('JournalCheckpointSink', () => {
  it('writes the result bytes (resultText) and removes its journal', async () => {
    const dir = freshDir();
    const out = join(dir, 'r.json');
    const summary = await runEvaluation(options(sink(out), { jobs: 2 }));
    expect(readFileSync(out, 'utf8')).toBe(built.text);
    expect(summary.complete).toBe(true);
    expect(readdirSync(dir)).toEqual(['r.json']);
  });

  it('appends one line per entry: the bytes written are about the size of the result, not quadratic', async () => {
    const journal = await journalOf(4);
    const lines = journal.split('\n');
    expect(lines).toHaveLength(6); // header, 4 entries, the empty string after the last LF
    expect(JSON.parse(lines[0]!)).toEqual({ ember_journal: '1', manifest_hash: built.result.manifest_hash, model_id: 'kit-model' });
    // The entries are the result's episodes, as the result file holds them.
    const entries = lines.slice(1, 5).map((l) => (JSON.parse(l) as { episode: { index: number } }).episode.index);
    expect(entries).toEqual([0, 1, 2, 3]);
    expect(journal.length).toBeLessThan(built.text.length);
  });

  it('writes nothing when the run fails before its first episode; an interrupted run keeps its journal, which a resume finishes', async () => {
    const dir = freshDir();
    const out = join(dir, 'r.json');
    const missing = { kind: 'module', module: 'no_such_agent', exportName: 'make' } as const;
    await expect(runEvaluation(options(sink(out), { agent: missing, agentPaths: [dir] }))).rejects.toThrow(/no_such_agent/);
    expect(readdirSync(dir)).toEqual([]);
    const controller = new AbortController();
    const stop = (p: { finished: number }): void => void (p.finished === 2 && controller.abort());
    await expect(runEvaluation(options(sink(out), { signal: controller.signal, onProgress: stop }))).rejects.toThrow('interrupted');
    // Interrupted (SIGINT, SIGTERM): the fsynced journal is left as it is, no result is written (a container's grace period is short).
    expect(readdirSync(dir)).toEqual(['r.json.journal']);
    const summary = await runEvaluation(options(sink(out, true)));
    expect(summary.ranEpisodes).toBe(built.manifest.episodes.length - 2);
    expect(readFileSync(out, 'utf8')).toBe(built.text);
  });

  it('writes O(result) bytes in all: a 300-episode run writes under 2.5 times the result size', async () => {
    const out = join(freshDir(), 'r.json');
    const manifest = buildManifest(built.suite, Array.from({ length: 100 }, (_, i) => String(i)));
    const journaling = sink(out);
    let journalBytes = 0;
    const measuring: ResultSink = {
      resumeState: (run) => journaling.resumeState(run),
      commit: (entry) => journaling.commit(entry),
      finish: async (final) => {
        journalBytes = statSync(journalPath(out)).size;
        await journaling.finish(final);
      },
      stopped: (error, state) => journaling.stopped(error, state),
    };
    await runEvaluation(options(measuring, { manifest }));
    const resultBytes = statSync(out).size;
    expect(manifest.episodes).toHaveLength(300);
    expect(journalBytes + resultBytes).toBeLessThan(2.5 * resultBytes);
  });

  it('resumes from the last whole entry after a torn write and finishes to the same bytes', async () => {
    const dir = freshDir();
    const out = join(dir, 'r.json');
    writeFileSync(journalPath(out), await journalOf(3));
    appendFileSync(journalPath(out), '{"episode":{"index":3,"metr');
    const summary = await runEvaluation(options(sink(out, true)));
    expect(summary.ranEpisodes).toBe(3);
    expect(readFileSync(out, 'utf8')).toBe(built.text);
    expect(existsSync(journalPath(out))).toBe(false);
  });

  it('continues a result file without a journal', async () => {
    const dir = freshDir();
    const out = join(dir, 'r.json');
    writeFileSync(out, editResultText(built.text, (v) => (v.episodes = v.episodes.slice(0, 2))));
    const before = statSync(out).ino;
    const summary = await runEvaluation(options(sink(out, true)));
    expect(summary.ranEpisodes).toBe(4);
    expect(readFileSync(out, 'utf8')).toBe(built.text);
    expect(statSync(out).ino).not.toBe(before);
    expect(readdirSync(dir)).toEqual(['r.json']);
  });

  it('refuses an existing journal or result without resume, and a tampered or foreign journal with resume', async () => {
    const journal = await journalOf(2);
    const dir = freshDir();
    const out = join(dir, 'r.json');
    writeFileSync(journalPath(out), journal);
    await expect(runEvaluation(options(sink(out)))).rejects.toThrow(OutputError);
    await expect(runEvaluation(options(sink(out, true), { modelId: 'other' }))).rejects.toThrow(/cannot resume: it is a result of model "kit-model", not "other"/);
    writeFileSync(journalPath(out), journal.replace('"steps":', '"steps":1,"x":'));
    await expect(runEvaluation(options(sink(out, true)))).rejects.toThrow(ValidationError);
    const [header, first] = journal.split('\n');
    writeFileSync(journalPath(out), `${header}\n${first}\n${first}\n`);
    await expect(runEvaluation(options(sink(out, true)))).rejects.toThrow(/episode 0 appears twice/);
    writeFileSync(journalPath(out), 'not a journal\n');
    await expect(runEvaluation(options(sink(out, true)))).rejects.toThrow(/line 1: not valid JSON/);
    expect(existsSync(out)).toBe(false);
  });
});
