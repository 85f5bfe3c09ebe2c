// `bundle create` and `bundle verify` as processes: an official bundle of two
// baselines on the tiny suite, byte-identical to the single commands'
// files, and every kind of tampering named.
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestText } from '../../src/core/eval/manifest.js';
import { buildOperationalRecord, operationalRecordText } from '../../src/core/scoring/operational.js';
import { canonicalJson, type JsonValue } from '../../src/core/json/canonical.js';
import { createBundle, verifyBundle } from '../../src/node/bundle/bundle.js';
import { buildPack } from '../../src/node/pack.js';
import { buildTinyResult, TINY_SUITE } from '../eval/kit.js';
import { jsonError, runCli } from './run-cli.js';

const SEEDS = ['1', '7', '9'];
const RESAMPLES = '200';
let scratch: string;
let pack: string;
let congestion: string;
let greedy: string;
let greedy2: string;
let bundle: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-bundle-'));
  const a = await buildTinyResult(SEEDS, 'congestion-aware-v1', 'congestion-aware-v1');
  const b = await buildTinyResult(SEEDS, 'nearest-exit-greedy-v1', 'nearest-exit-greedy-v1');
  const manifest = join(scratch, 'manifest.json');
  writeFileSync(manifest, manifestText(a.manifest));
  pack = join(scratch, 'pack');
  await buildPack(TINY_SUITE, manifest, pack);
  congestion = join(scratch, 'congestion.json');
  greedy = join(scratch, 'greedy.json');
  greedy2 = join(scratch, 'greedy-2.json');
  writeFileSync(congestion, a.text);
  writeFileSync(greedy, b.text);
  writeFileSync(greedy2, b.text);
  bundle = join(scratch, 'bundle');
  const created = runCli(['bundle', 'create', '--pack', pack, '--result', congestion, '--result', greedy, '--result', greedy2, '--resamples', RESAMPLES, '--out', bundle, '--json']);
  expect(created.stderr).toBe('');
  expect(created.status).toBe(0);
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function copyOfBundle(name: string): string {
  const dir = join(scratch, name);
  cpSync(bundle, dir, { recursive: true });
  return dir;
}

describe('bundle create', () => {
  it('writes the pack, results, scores, statistics and the comparison, each byte-identical to the single commands', () => {
    const index = JSON.parse(readFileSync(join(bundle, 'bundle.json'), 'utf8')) as { models: { model_id: string; trials: number }[]; comparison_outcome: string; files: { file: string }[] };
    expect(index.models.map((m) => [m.model_id, m.trials])).toEqual([
      ['congestion-aware-v1', 1],
      ['nearest-exit-greedy-v1', 2],
    ]);
    expect(index.files.map((f) => f.file)).toEqual(expect.arrayContaining(['pack/pack.json', 'model-1/score.json', 'model-2/trial-2.result.json', 'comparison.json']));

    const score = join(scratch, 'greedy.score.json');
    const scored = runCli(['score', '--pack', pack, '--result', greedy, '--result', greedy2, '--resamples', RESAMPLES, '--out', score]);
    expect(scored.status).toBe(0);
    expect(readFileSync(join(bundle, 'model-2', 'score.json'), 'utf8')).toBe(readFileSync(score, 'utf8'));
    expect(readFileSync(join(bundle, 'model-2', 'score.txt'), 'utf8')).toBe(scored.stdout);

    const stats = join(scratch, 'congestion.stats.json');
    expect(runCli(['statistics', 'aggregate', '--suite', TINY_SUITE, '--result', congestion, '--resamples', RESAMPLES, '--out', stats]).status).toBe(0);
    expect(readFileSync(join(bundle, 'model-1', 'statistics-1.json'), 'utf8')).toBe(readFileSync(stats, 'utf8'));

    const scoreA = join(scratch, 'congestion.score.json');
    expect(runCli(['score', '--pack', pack, '--result', congestion, '--resamples', RESAMPLES, '--out', scoreA]).status).toBe(0);
    const cmp = join(scratch, 'cmp.json');
    expect(runCli(['score', 'compare', '--a', scoreA, '--b', score, '--resamples', RESAMPLES, '--out', cmp]).status).toBe(0);
    expect(readFileSync(join(bundle, 'comparison.json'), 'utf8')).toBe(readFileSync(cmp, 'utf8'));
    expect(index.comparison_outcome).toBe((JSON.parse(readFileSync(cmp, 'utf8')) as { outcome: string }).outcome);
  });

  it('never replaces a folder and leaves nothing behind on failure', () => {
    const again = runCli(['bundle', 'create', '--pack', pack, '--result', congestion, '--out', bundle, '--json']);
    expect(again.status).toBe(6);
    const bad = join(scratch, 'bad.json');
    writeFileSync(bad, readFileSync(congestion, 'utf8').replace('"steps":', '"steps": '));
    const out = join(scratch, 'never');
    const refused = runCli(['bundle', 'create', '--pack', pack, '--result', bad, '--out', out, '--json']);
    expect(refused.status).toBe(3);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(scratch).filter((f) => f.startsWith('.never'))).toEqual([]);
  });
});

describe('bundle verify', () => {
  it('authenticates the bundle', () => {
    const verified = runCli(['bundle', 'verify', bundle, '--json']);
    expect(verified.stderr).toBe('');
    expect(verified.status).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ command: 'bundle verify', verified: true, comparison_outcome: expect.any(String) });
  });

  it('names a changed, missing or extra file (exit 3)', () => {
    const changed = copyOfBundle('changed');
    appendFileSync(join(changed, 'model-1', 'score.txt'), 'x');
    expect(jsonError(runCli(['bundle', 'verify', changed, '--json']).stderr)).toMatchObject({ exit_code: 3, message: expect.stringMatching(/model-1\/score\.txt: changed/) });

    const missing = copyOfBundle('missing');
    unlinkSync(join(missing, 'comparison.txt'));
    expect(jsonError(runCli(['bundle', 'verify', missing, '--json']).stderr)).toMatchObject({ exit_code: 3, message: expect.stringMatching(/comparison\.txt: missing/) });

    const extra = copyOfBundle('extra');
    writeFileSync(join(extra, 'model-2', 'notes.txt'), 'hello');
    expect(jsonError(runCli(['bundle', 'verify', extra, '--json']).stderr)).toMatchObject({ exit_code: 3, message: expect.stringMatching(/model-2\/notes\.txt: extra file/) });
  });

  it('recomputes every artifact: a consistent index over a swapped score is a mismatch (exit 5)', () => {
    const swapped = copyOfBundle('swapped');
    // Make the index agree with a score report of another model: only recomputation can tell.
    const otherScore = readFileSync(join(swapped, 'model-1', 'score.json'));
    writeFileSync(join(swapped, 'model-2', 'score.json'), otherScore);
    const indexPath = join(swapped, 'bundle.json');
    const index = JSON.parse(readFileSync(indexPath, 'utf8')) as { files: { file: string; sha256: string }[] };
    const sha = index.files.find((f) => f.file === 'model-1/score.json')!.sha256;
    index.files.find((f) => f.file === 'model-2/score.json')!.sha256 = sha;
    writeFileSync(indexPath, JSON.stringify(index) + '\n');
    const answer = jsonError(runCli(['bundle', 'verify', swapped, '--json']).stderr);
    expect(answer).toMatchObject({ exit_code: 5, message: expect.stringMatching(/model-2\/score\.json: does not match/) });
  });
});

describe('a bundle of results read by streaming (files larger than a string can hold)', () => {
  it('creates the same bundle, byte for byte, copying each result as it is; verifies it streamed; names a changed result', async () => {
    const streamed = join(scratch, 'bundle-streamed');
    await createBundle({ packDir: pack, resultPaths: [congestion, greedy, greedy2], operationalPaths: [], resamples: Number(RESAMPLES), out: streamed, streamAbove: 0 });
    const files = (dir: string) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => !lstatSync(join(dir, f)).isDirectory()).sort();
    expect(files(streamed)).toEqual(files(bundle));
    for (const file of files(bundle)) expect(readFileSync(join(streamed, file)).equals(readFileSync(join(bundle, file))), file).toBe(true);

    expect(verifyBundle(streamed, 0).files).toBe(files(bundle).length);
    // A result edited consistently with the index (its digest updated): only the streamed replay of it can tell.
    const edited = copyOfBundle('streamed-edited');
    const resultPath = join(edited, 'model-2', 'trial-1.result.json');
    const text = readFileSync(resultPath, 'utf8').replace(/"evacuated":(\d+)/, (_m, n: string) => `"evacuated":${Number(n) + 1}`);
    writeFileSync(resultPath, text);
    const indexPath = join(edited, 'bundle.json');
    const index = JSON.parse(readFileSync(indexPath, 'utf8')) as { files: { file: string; sha256: string }[] };
    index.files.find((f) => f.file === 'model-2/trial-1.result.json')!.sha256 = createHash('sha256').update(text).digest('hex');
    writeFileSync(indexPath, canonicalJson(index as unknown as JsonValue) + '\n');
    const refusal = (streamAbove?: number): string => {
      try {
        verifyBundle(edited, streamAbove);
        return 'verified';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(refusal(0)).toMatch(/trial-1\.result\.json/);
    expect(refusal(0)).toBe(refusal());
  });
});

describe('report html', () => {
  it('writes one self-contained file, the same bytes every time, from a bundle that verifies', () => {
    const out = join(scratch, 'report.html');
    const made = runCli(['report', 'html', '--bundle', bundle, '--episode', '0', '--episode', '4', '--out', out, '--json']);
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).toContain('congestion-aware-v1 vs nearest-exit-greedy-v1');
    expect(html.match(/data-replay="/g)).toHaveLength(4);
    const again = join(scratch, 'report-2.html');
    expect(runCli(['report', 'html', '--bundle', bundle, '--episode', '0', '--episode', '4', '--out', again]).status).toBe(0);
    expect(readFileSync(again, 'utf8')).toBe(html);
  });

  it('refuses a bundle that does not verify and an episode outside the manifest', () => {
    const changed = copyOfBundle('changed-for-report');
    appendFileSync(join(changed, 'comparison.txt'), 'x');
    expect(runCli(['report', 'html', '--bundle', changed, '--out', join(scratch, 'no.html')]).status).toBe(3);
    expect(existsSync(join(scratch, 'no.html'))).toBe(false);
    const far = runCli(['report', 'html', '--bundle', bundle, '--episode', '999', '--out', join(scratch, 'no2.html'), '--json']);
    expect(jsonError(far.stderr)).toMatchObject({ exit_code: 2, message: expect.stringMatching(/episode 999/) });
  });
});

describe('the isolation level in a bundle', () => {
  it('travels with the operational record and shows on the HTML report', () => {
    const record = join(scratch, 'greedy.operational.json');
    const base = { modelId: 'nearest-exit-greedy-v1', providerId: 'local', inferenceConfigDigest: 'c'.repeat(64), trials: 2, episodes: 18, latencySeconds: '1.5', inputTokens: 0, outputTokens: 0, cost: null, retries: 0, timeouts: 0 };
    writeFileSync(record, operationalRecordText(buildOperationalRecord({ ...base, isolation: 'none' })));
    const out = join(scratch, 'bundle-isolation');
    const made = runCli(['bundle', 'create', '--pack', pack, '--result', congestion, '--result', greedy, '--result', greedy2, '--operational', record, '--resamples', RESAMPLES, '--out', out]);
    expect(made.stderr).toBe('');
    expect(runCli(['bundle', 'verify', out]).status).toBe(0);
    const html = join(scratch, 'isolation.html');
    expect(runCli(['report', 'html', '--bundle', out, '--out', html]).status).toBe(0);
    const text = readFileSync(html, 'utf8');
    expect(text.match(/data-isolation/g)).toHaveLength(1);
    expect(text).toContain('agent isolation: <b style="color:#b42318">none (the agent ran without a sandbox)</b>');
  });
});
