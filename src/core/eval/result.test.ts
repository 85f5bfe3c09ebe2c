import { beforeAll, describe, expect, it } from 'vitest';
import { buildTinyResult, type BuiltResult } from '../../../test/eval/kit.js';
import { ValidationError } from '../errors.js';
import { canonicalJson, type JsonObject } from '../json/canonical.js';
import { manifestHash } from './manifest.js';
import {
  DECLARED_FAILURE_KINDS,
  MAX_FAILURE_MESSAGE_LENGTH,
  buildResult,
  clipFailureMessage,
  parseResultText,
  resultDigest,
  resultText,
} from './result.js';

let built: BuiltResult;
beforeAll(async () => {
  built = await buildTinyResult(['3', '4']);
});

describe('result format', () => {
  it('is canonical JSON plus one LF with exactly the result keys', () => {
    expect(built.text.endsWith('}\n')).toBe(true);
    expect(built.text.indexOf('\n')).toBe(built.text.length - 1);
    const value = JSON.parse(built.text) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['episodes', 'evaluation_result_version', 'failures', 'manifest', 'manifest_hash', 'model_id']);
    expect(value.evaluation_result_version).toBe('1.0');
    expect(value.manifest_hash).toBe(manifestHash(built.manifest));
    expect(Object.keys((value.episodes as object[])[0]!)).toEqual(['index', 'metrics', 'record']);
    expect(canonicalJson(value as JsonObject) + '\n').toBe(built.text);
  });

  it('sorts episodes and failures by index whatever order they were committed in', () => {
    const { manifest, result } = built;
    const hash = manifestHash(manifest);
    const failures = [
      { index: 5, kind: 'timeout' as const, message: 'b' },
      { index: 2, kind: 'model_error' as const, message: 'a' },
    ];
    const kept = result.episodes.filter((e) => e.index !== 2 && e.index !== 5);
    const forward = buildResult(manifest, hash, 'm', kept, failures);
    const backward = buildResult(manifest, hash, 'm', [...kept].reverse(), [...failures].reverse());
    expect(resultText(backward)).toBe(resultText(forward));
    expect(forward.episodes.map((e) => e.index)).toEqual([0, 1, 3, 4]);
    expect(forward.failures.map((f) => f.index)).toEqual([2, 5]);
  });

  it('round-trips through the strict reader', () => {
    const parsed = parseResultText(built.text, 'r.json');
    expect(resultText(parsed)).toBe(built.text);
    expect(resultDigest(built.text)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reports the first wrong field with its path', () => {
    const text = built.text.replace('"termination_reason":"', '"termination_reason":"x');
    expect(() => parseResultText(text, 'r.json')).toThrow(ValidationError);
    expect(() => parseResultText(text, 'r.json')).toThrow(/^r\.json: episodes\[0\]\.record: termination_reason: /);
  });

  it('declares only invalid_output, model_error and timeout', () => {
    expect(DECLARED_FAILURE_KINDS).toEqual(['invalid_output', 'model_error', 'timeout']);
  });
});

describe('clipFailureMessage', () => {
  it('keeps a short message and makes it one line', () => {
    expect(clipFailureMessage('act raised\nError: boom\r\nat x')).toBe('act raised Error: boom at x');
  });

  it('clips a long message to the limit', () => {
    const clipped = clipFailureMessage('x'.repeat(5000));
    expect(clipped.length).toBe(MAX_FAILURE_MESSAGE_LENGTH);
    expect(clipped.endsWith('...')).toBe(true);
  });

  it('never splits a surrogate pair', () => {
    const message = 'x'.repeat(MAX_FAILURE_MESSAGE_LENGTH - 4) + '\u{1f600}'.repeat(10);
    const clipped = clipFailureMessage(message);
    expect(clipped.length).toBeLessThanOrEqual(MAX_FAILURE_MESSAGE_LENGTH);
    expect(clipped).toBe('x'.repeat(MAX_FAILURE_MESSAGE_LENGTH - 4) + '...');
  });
});
