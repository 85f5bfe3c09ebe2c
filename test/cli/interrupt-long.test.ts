// Ctrl+C during the other long computations (issue 26): score's bootstrap,
// pack build and pack verify (a fire world and M* per episode), bundle
// create and bundle verify (replays and bootstraps), evaluation merge (the
// streamed reading of a shard). Each is started on an
// input that keeps it busy for far longer than the deadline below, and
// interrupted once its progress shows the work running: it must exit 130
// with the interrupt message and leave no output and no temporary folder.
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleIndexText, parseBundleIndexText } from '../../src/core/bundle/bundle-index.js';
import { manifestText } from '../../src/core/eval/manifest.js';
import { buildPack } from '../../src/node/pack.js';
import { buildTinyResult, TINY_SUITE } from '../eval/kit.js';
import { expectInterruptedStderr, interruptAtProgress, type Interrupted } from './interrupt-kit.js';
import { runCli } from './run-cli.js';

/** Seeds of the big manifest: 3 episodes each on the tiny suite; building its pack takes about 15 s of CPU. */
const BIG_SEEDS = '0..19999';
/** Resamples that keep a bootstrap busy for tens of seconds (the default is 2000). */
const MANY_RESAMPLES = '1000000';
/** Generous for a loaded machine; without the slices the delay is the rest of the work (tens of seconds to minutes). */
const DEADLINE_MS = 10_000;
const OPENING = '{"episodes":[';

let scratch: string;
let result: string;
let smallPack: string;
let bigManifest: string;
let bigPack: string;
const delays: string[] = [];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-interrupt-long-'));
  const built = await buildTinyResult(['1', '7', '9'], 'nearest-exit-greedy-v1', 'nearest-exit-greedy-v1');
  result = join(scratch, 'greedy.json');
  writeFileSync(result, built.text);
  const smallManifest = join(scratch, 'small-manifest.json');
  writeFileSync(smallManifest, manifestText(built.manifest));
  smallPack = join(scratch, 'small-pack');
  await buildPack(TINY_SUITE, smallManifest, smallPack);
  bigManifest = join(scratch, 'big-manifest.json');
  expect(runCli(['evaluation', 'manifest', '--suite', TINY_SUITE, '--seed', BIG_SEEDS, '--out', bigManifest]).status).toBe(0);
  bigPack = join(scratch, 'big-pack');
  await buildPack(TINY_SUITE, bigManifest, bigPack);
}, 300_000);

afterAll(() => {
  // The measured figures, for the record.
  console.log(`SIGINT to exit:\n${delays.join('\n')}`);
  rmSync(scratch, { recursive: true, force: true });
});

/** The checks every interrupted command passes; `outDir` held only the output path, so it must be empty. */
function expectInterrupted(name: string, run: Interrupted, progress: string, outDir: string): void {
  expect(run.code, run.stderr).toBe(130);
  expect(run.stdout).toBe('');
  expectInterruptedStderr(run.stderr, progress);
  expect(readdirSync(outDir)).toEqual([]);
  delays.push(`  ${name}: ${run.delayMs.toFixed(0)} ms`);
  expect(run.delayMs).toBeLessThan(DEADLINE_MS);
}

describe('SIGINT during a long computation', () => {
  it('score --resamples 1000000: exits 130 during the bootstrap and writes no report', { timeout: 180_000 }, async () => {
    const outDir = mkdtempSync(join(scratch, 'out-'));
    const run = await interruptAtProgress(['score', '--suite', TINY_SUITE, '--result', result, '--resamples', MANY_RESAMPLES, '--out', join(outDir, 'score.json')], 'bootstrap resamples');
    expectInterrupted('score', run, 'bootstrap resamples', outDir);
  });

  it('score --pack takes SIGTERM the same way', { timeout: 180_000 }, async () => {
    const outDir = mkdtempSync(join(scratch, 'out-'));
    const run = await interruptAtProgress(['score', '--pack', smallPack, '--result', result, '--resamples', MANY_RESAMPLES, '--out', join(outDir, 'score.json')], 'bootstrap resamples', 'SIGTERM');
    expectInterrupted('score --pack (SIGTERM)', run, 'bootstrap resamples', outDir);
  });

  it('pack build: exits 130 while computing the episodes and leaves no pack, placeholder or temporary folder', { timeout: 180_000 }, async () => {
    const outDir = mkdtempSync(join(scratch, 'out-'));
    const run = await interruptAtProgress(['pack', 'build', '--suite', TINY_SUITE, '--manifest', bigManifest, '--out', join(outDir, 'pack')], 'pack episodes');
    expectInterrupted('pack build', run, 'pack episodes', outDir);
  });

  it('pack verify: exits 130 while recomputing the episodes and leaves the pack as it was', { timeout: 180_000 }, async () => {
    const before = readdirSync(bigPack);
    const packJson = readFileSync(join(bigPack, 'pack.json'));
    const run = await interruptAtProgress(['pack', 'verify', bigPack], 'recomputing pack episodes');
    expect(run.code, run.stderr).toBe(130);
    expect(run.stdout).toBe('');
    expectInterruptedStderr(run.stderr, 'recomputing pack episodes');
    expect(readdirSync(bigPack)).toEqual(before);
    expect(readFileSync(join(bigPack, 'pack.json')).equals(packJson)).toBe(true);
    delays.push(`  pack verify: ${run.delayMs.toFixed(0)} ms`);
    expect(run.delayMs).toBeLessThan(DEADLINE_MS);
  });

  it('evaluation merge: exits 130 while reading a shard and writes no result (the output lock is released)', { timeout: 180_000 }, async () => {
    // 320 MB of well-formed structure (tiny objects as episodes): the reader's
    // first pass over it takes tens of seconds before the first episode is replayed.
    const unit = Buffer.from('{"x":0},');
    const count = 40_000_000;
    const bytes = Buffer.alloc(OPENING.length + unit.length * count);
    bytes.write(OPENING);
    for (let k = 0; k < count; k++) unit.copy(bytes, OPENING.length + k * unit.length);
    const shard = join(scratch, 'big-shard.json');
    writeFileSync(shard, bytes);
    appendFileSync(shard, '{}],"failures":[]}\n');
    const outDir = mkdtempSync(join(scratch, 'out-'));
    const run = await interruptAtProgress(['evaluation', 'merge', shard, '--suite', TINY_SUITE, '--out', join(outDir, 'merged.json')], 'reading result');
    rmSync(shard);
    expectInterrupted('evaluation merge', run, 'reading result', outDir);
  });

  it('bundle create --resamples 1000000: exits 130 during the bootstraps and leaves no bundle', { timeout: 180_000 }, async () => {
    const outDir = mkdtempSync(join(scratch, 'out-'));
    const run = await interruptAtProgress(['bundle', 'create', '--pack', smallPack, '--result', result, '--resamples', MANY_RESAMPLES, '--out', join(outDir, 'bundle')], 'bootstrap resamples');
    expectInterrupted('bundle create', run, 'bootstrap resamples', outDir);
  });

  it('bundle verify: exits 130 while recomputing the bundle', { timeout: 180_000 }, async () => {
    // A bundle made with 200 resamples whose score report (and its digest in
    // bundle.json) then says a million: verify recomputes every artifact with
    // a million resamples before comparing anything, so it runs for minutes.
    const bundle = join(scratch, 'bundle');
    expect(runCli(['bundle', 'create', '--pack', smallPack, '--result', result, '--resamples', '200', '--out', bundle]).status).toBe(0);
    const scorePath = join(bundle, 'model-1', 'score.json');
    const score = readFileSync(scorePath, 'utf8').replace('"resamples":200,', `"resamples":${MANY_RESAMPLES},`);
    writeFileSync(scorePath, score);
    const indexPath = join(bundle, 'bundle.json');
    const index = parseBundleIndexText(readFileSync(indexPath, 'utf8'), indexPath);
    const sha256 = createHash('sha256').update(score).digest('hex');
    writeFileSync(indexPath, bundleIndexText({ ...index, files: index.files.map((f) => (f.file === 'model-1/score.json' ? { ...f, sha256 } : f)) }));
    const copy = join(scratch, 'bundle-copy');
    cpSync(bundle, copy, { recursive: true });

    const run = await interruptAtProgress(['bundle', 'verify', bundle], 'bootstrap resamples');
    expect(run.code, run.stderr).toBe(130);
    expect(run.stdout).toBe('');
    expectInterruptedStderr(run.stderr, 'bootstrap resamples');
    // Verify writes nothing: the bundle is as it was.
    for (const file of index.files) expect(readFileSync(join(bundle, file.file)).equals(readFileSync(join(copy, file.file)))).toBe(true);
    delays.push(`  bundle verify: ${run.delayMs.toFixed(0)} ms`);
    expect(run.delayMs).toBeLessThan(DEADLINE_MS);
  });
});
