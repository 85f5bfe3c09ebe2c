import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TINY_SUITE, buildTinyResult, scratchFolders, tinyRunOptions, type BuiltResult } from '../../../test/eval/kit.js';
import { resultDigest } from '../../core/eval/result.js';
import { journalPath } from './journal-lines.js';
import { JournalCheckpointSink } from './journal-sink.js';
import { runEvaluation } from './runner.js';

let built: BuiltResult;
const freshDir = scratchFolders('ember-journal-resume-');

beforeAll(async () => {
  built = await buildTinyResult(['1', '7'], 'nearest-exit-greedy-v1', 'kit-model');
});

function outPath(): string {
  return join(freshDir(), 'r.json');
}

function sink(out: string, resume = false): JournalCheckpointSink {
  return new JournalCheckpointSink({ path: out, inputs: [TINY_SUITE], resume });
}

function run(s: JournalCheckpointSink) {
  return runEvaluation(tinyRunOptions(built, s));
}

/** A journal holding the header and the given episodes, in that order, committed through the sink. */
async function journalOf(indices: readonly number[]): Promise<string> {
  const out = outPath();
  const journaling = sink(out);
  await journaling.resumeState({ suite: built.suite, manifest: built.manifest, manifestHash: built.result.manifest_hash, modelId: 'kit-model' });
  for (const i of indices) await journaling.commit({ kind: 'episode', episode: built.result.episodes[i]! });
  return readFileSync(journalPath(out), 'utf8');
}

describe('JournalCheckpointSink keeping only where its episodes are', () => {
  it('copies the episodes from the journal in index order, whatever order they finished in', async () => {
    const out = outPath();
    writeFileSync(journalPath(out), await journalOf([3, 0, 5]));
    const s = sink(out, true);
    const summary = await run(s);
    expect(summary.ranEpisodes).toBe(3);
    expect(readFileSync(out, 'utf8')).toBe(built.text);
    expect(summary.digest).toBe(resultDigest(built.text));
    expect(s.storedDigest()).toBe(summary.digest);
    expect(existsSync(journalPath(out))).toBe(false);
  });

  it('resumes a journal whose lines are valid but not canonical (edited) to the same bytes', async () => {
    const out = outPath();
    const [header, ...entries] = (await journalOf([1, 2])).split('\n');
    const spaced = entries.map((l) => l.replace('{"episode":{', '{ "episode" : {'));
    expect(spaced[0]).not.toBe(entries[0]);
    writeFileSync(journalPath(out), [header, ...spaced].join('\n'));
    const summary = await run(sink(out, true));
    expect(summary.ranEpisodes).toBe(4);
    expect(readFileSync(out, 'utf8')).toBe(built.text);
  });

  it('gives the whole result when asked, while it runs and after', async () => {
    const out = outPath();
    writeFileSync(journalPath(out), await journalOf([4]));
    const s = sink(out, true);
    const summary = await run(s);
    expect(summary.result).toEqual(built.result);
    expect(s.storedResult()).toEqual(built.result);
  });
});
