import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTinyResult, editResultText, type BuiltResult, type Editable } from '../../../test/eval/kit.js';
import { authenticateResult, type AuthenticatedEpisode } from '../../core/eval/authenticate.js';
import { buildManifest } from '../../core/eval/manifest.js';
import { resultPieces } from '../../core/eval/result-stream.js';
import { buildResult, resultText } from '../../core/eval/result.js';
import { fileDigest } from '../../core/hash.js';
import { canonicalJson, type JsonObject } from '../../core/json/canonical.js';
import { writeOutputFile } from '../files.js';
import { readTextInput } from '../inputs.js';
import { authenticateResultFile, type StreamAuthenticateOptions } from './result-reader.js';

let built: BuiltResult;
let dir: string;
let n = 0;
beforeAll(async () => {
  built = await buildTinyResult(['1', '7']);
  dir = mkdtempSync(join(tmpdir(), 'result-reader-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fileOf(text: string | Buffer): string {
  const path = join(dir, `r${n++}.json`);
  writeFileSync(path, text);
  return path;
}

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

function streamed(text: string, opts: StreamAuthenticateOptions = {}) {
  return authenticateResultFile(fileOf(text), 'result.json', built.suite, opts);
}

function whole(text: string, opts = {}) {
  return authenticateResult(text, 'result.json', built.suite, opts);
}

describe('writeOutputFile with pieces', () => {
  it('writes exactly resultText', async () => {
    const path = join(dir, 'written.json');
    await writeOutputFile(path, { pieces: () => resultPieces(built.result) }, { force: false, inputs: [] });
    expect(readFileSync(path, 'utf8')).toBe(built.text);
  });

  it('writes again through the no-hard-link fallback', async () => {
    const path = join(dir, 'fallback.json');
    const link = (): Promise<void> => Promise.reject(Object.assign(new Error('EPERM'), { code: 'EPERM' }));
    await writeOutputFile(path, { pieces: () => resultPieces(built.result) }, { force: false, inputs: [], hooks: { link } });
    expect(readFileSync(path, 'utf8')).toBe(built.text);
  });
});

describe('authenticateResultFile', () => {
  it('authenticates as the whole-text path does, whatever the read size', () => {
    const expected = whole(built.text);
    for (const chunkBytes of [1, 7, 64, 1 << 20]) {
      const seen: AuthenticatedEpisode[] = [];
      const got = streamed(built.text, { chunkBytes, onEpisode: (e) => seen.push(e), requireComplete: true, requiredManifest: buildManifest(built.suite, ['1', '7']) });
      expect(got.digest).toBe(fileDigest(built.text));
      expect(got.digest).toBe(expected.digest);
      expect(got.manifestHash).toBe(expected.manifestHash);
      expect(got.modelId).toBe('kit-model');
      expect([got.committed, got.scheduledEpisodes, got.complete]).toEqual([6, 6, true]);
      expect(seen.map((e) => e.index)).toEqual(expected.episodes.map((e) => e.index));
      seen.forEach((e, i) => {
        expect(canonicalJson(e.metrics as unknown as JsonObject)).toBe(canonicalJson(expected.episodes[i]!.metrics as unknown as JsonObject));
      });
    }
  });

  it('reads a partial result and one without episodes', () => {
    const { manifest, result } = built;
    const failures = [{ index: 2, kind: 'timeout' as const, message: 'late \u00e9' }];
    const partial = resultText(buildResult(manifest, result.manifest_hash, 'kit-model', result.episodes.filter((e) => e.index !== 2), failures));
    const got = streamed(partial, { chunkBytes: 5 });
    expect([got.committed, got.complete, got.failures]).toEqual([5, false, failures]);
    expect(got.digest).toBe(fileDigest(partial));
    const error = thrown(() => streamed(partial, { requireComplete: true }));
    expect(error.constructor).toBe(thrown(() => whole(partial, { requireComplete: true })).constructor);
    expect(error.message).toBe('result.json: incomplete: 1 of 6 scheduled episodes have no committed result (1 declared failed)');
    const empty = resultText(buildResult(manifest, result.manifest_hash, 'kit-model', [], []));
    expect(streamed(empty).committed).toBe(0);
  });

  // Every tamper of authenticate.test.ts: the same error class and message as the whole-text path.
  const tampers: [string, (v: Editable) => void][] = [
    ['a changed metric', (v) => (v.episodes[1].metrics.fire_exposure += 1)],
    ['a changed manifest field', (v) => (v.manifest.suite.suite_version = '1.1')],
    ['a changed manifest episode', (v) => (v.manifest.episodes[4].scenario_hash = 'a'.repeat(64))],
    ['another pinned version', (v) => (v.manifest.versions.metrics_version = '2.0')],
    ['a changed manifest_hash', (v) => (v.manifest_hash = 'b'.repeat(64))],
    ['an episode index out of range', (v) => v.episodes.push({ ...v.episodes[5], index: 6 })],
    ['a duplicate episode', (v) => v.episodes.splice(3, 0, v.episodes[2])],
    ['episodes out of order', (v) => v.episodes.reverse()],
    ["another episode's record", (v) => (v.episodes[1] = { ...v.episodes[0], index: 1 })],
    ["another scenario's record", (v) => (v.episodes[2] = { ...v.episodes[0], index: 2 })],
    ['a declaration for a committed episode', (v) => (v.failures = [{ index: 1, kind: 'timeout', message: 'x' }])],
    ['a declaration for an unscheduled episode', (v) => (v.failures = [{ index: 9, kind: 'timeout', message: 'x' }])],
    ['a declared "missing"', (v) => (v.failures = [{ index: 1, kind: 'missing', message: 'x' }])],
    ['a long failure message', (v) => (v.failures = [{ index: 1, kind: 'timeout', message: 'x'.repeat(2001) }])],
    ['an invalid model ID', (v) => (v.model_id = ' padded')],
    ['an unknown metric', (v) => (v.episodes[0].metrics.bonus = 1)],
    ['a missing metric', (v) => delete v.episodes[0].metrics.crowd],
    ['a float-like metric', (v) => (v.episodes[0].metrics.evacuation_rate = '0.5')],
    ['a malformed record field', (v) => (v.episodes[0].record.steps = '5')],
    ['another result version', (v) => (v.evaluation_result_version = '1.1')],
    ['a changed outcome', (v) => (v.episodes[0].record.outcomes[0][1] += 1)],
    [
      'a truncated trajectory',
      (v) => {
        v.episodes[0].record.trajectory.pop();
        v.episodes[0].record.steps -= 1;
      },
    ],
    ['a missing tail field', (v) => delete v.model_id],
  ];

  it.each(tampers)('gives the whole-text error for %s, without falling back to it', (_name, edit) => {
    const text = editResultText(built.text, edit);
    const expected = thrown(() => whole(text));
    const error = thrown(() => streamed(text, { wholeTextLimit: 0, chunkBytes: 13 }));
    expect(error.constructor).toBe(expected.constructor);
    expect(error.message).toBe(expected.message);
  });

  const structural: [string, (t: string) => string][] = [
    ['an unknown first field', (t) => editResultText(t, (v) => (v.comment = 'hi'))],
    ['indented JSON', (t) => JSON.stringify(JSON.parse(t), null, 1) + '\n'],
    ['no final LF', (t) => t.slice(0, -1)],
    ['CRLF', (t) => t.slice(0, -1) + '\r\n'],
    ['keys out of order', (t) => t.replace('{"episodes":', '{"model_id":"kit-model","episodes":').replace(',"model_id":"kit-model"}', '}')],
    ['a duplicate key', (t) => t.replace('{"episodes":', '{"model_id":"x","episodes":')],
    ['a float', (t) => t.replace('"population":3', '"population":3.0')],
    ['a space in an episode', (t) => t.replace('"population":3', '"population": 3')],
    ['a space between episodes', (t) => t.replace('},{"index":1', '}, {"index":1')],
    ['a truncated file', (t) => t.slice(0, 200)],
    ['an empty file', () => ''],
    ['a byte order mark', (t) => '\ufeff' + t],
    ['a raw non-ASCII character', (t) => t.replace('"kit-model"', '"kit-m\u00f6del"')],
  ];

  it.each(structural)('diagnoses %s as the whole-text path does, or as not canonical when too large for it', (_name, change) => {
    const text = change(built.text);
    expect(text).not.toBe(built.text);
    const path = fileOf(text);
    // The whole-text path as evaluation verify ran it: the file read as a text input, then authenticated.
    const expected = thrown(() => authenticateResult(readTextInput(path, 'evaluation result'), path, built.suite));
    const error = thrown(() => authenticateResultFile(path, path, built.suite));
    expect(error.constructor).toBe(expected.constructor);
    expect(error.message).toBe(expected.message);
    const large = thrown(() => streamed(text, { wholeTextLimit: 0 }));
    expect(large.constructor).toBe(expected.constructor);
    expect(large.message).toMatch(/^result\.json: not (canonical JSON plus one LF|valid JSON)/);
  });

  it('reports a missing file as the text reader does', () => {
    const error = thrown(() => authenticateResultFile(join(dir, 'absent.json'), 'absent.json', built.suite));
    expect(error.message).toContain('evaluation result does not exist');
  });
});
