import { beforeAll, describe, expect, it } from 'vitest';
import { buildTinyResult, type BuiltResult } from '../../../test/eval/kit.js';
import { fileDigest } from '../hash.js';
import { StreamingFileDigest, resultPieces, streamedResultDigest } from './result-stream.js';
import { buildResult, resultDigest, resultText, type EvaluationResult, type FailureDeclaration } from './result.js';

let built: BuiltResult;
beforeAll(async () => {
  built = await buildTinyResult(['1', '7']);
});

function variants(): [string, EvaluationResult][] {
  const { manifest, result } = built;
  const hash = result.manifest_hash;
  const failures: FailureDeclaration[] = [
    { index: 2, kind: 'timeout', message: 'act took longer than 300 ms' },
    { index: 3, kind: 'invalid_output', message: 'caf\u00e9 "quoted" \\ \u{1f525}' },
  ];
  const kept = result.episodes.filter((e) => e.index !== 2 && e.index !== 3);
  // More failure text than one failure piece holds (pieces are about 1 MiB).
  const many = Array.from({ length: 700 }, (_, k): FailureDeclaration => ({ index: k, kind: 'model_error', message: `m${k} ${'x'.repeat(1990)}` }));
  return [
    ['a complete result', result],
    ['episodes and failures', buildResult(manifest, hash, 'kit-model', kept, failures)],
    ['no episodes', buildResult(manifest, hash, 'kit-model', [], failures)],
    ['nothing committed', buildResult(manifest, hash, 'model \u00e9', [], [])],
    ['failures over several pieces', buildResult(manifest, hash, 'kit-model', [], many)],
  ];
}

describe('resultPieces', () => {
  it('joins to exactly resultText, with the same digest, for every shape', () => {
    for (const [name, result] of variants()) {
      const pieces = [...resultPieces(result)];
      const text = resultText(result);
      expect(pieces.join(''), name).toBe(text);
      expect(streamedResultDigest(result), name).toBe(resultDigest(text));
    }
  });

  it('yields one piece per episode, so no piece holds the whole result', () => {
    const pieces = [...resultPieces(built.result)];
    const longest = Math.max(...pieces.map((p) => p.length));
    expect(pieces.length).toBeGreaterThanOrEqual(built.result.episodes.length + 2);
    expect(longest).toBeLessThan(built.text.length / 2);
    const many = variants().find(([name]) => name === 'failures over several pieces')![1];
    expect([...resultPieces(many)].length).toBeGreaterThan(3);
  });
});

describe('StreamingFileDigest', () => {
  it('equals fileDigest however the text is split, the final LF left out', () => {
    const texts = ['', '\n', 'a', 'a\n', 'a\n\n', '\nab\ncd\n', built.text];
    for (const text of texts) {
      for (const size of [1, 2, 3, 7, 1000]) {
        const digest = new StreamingFileDigest();
        for (let k = 0; k < text.length; k += size) digest.update(text.slice(k, k + size));
        expect(digest.hex(), `${JSON.stringify(text.slice(0, 10))} by ${size}`).toBe(fileDigest(text));
      }
    }
  });

  it('takes the UTF-8 bytes of the text in pieces too, with the same digest', () => {
    const encoder = new TextEncoder();
    for (const text of ['', '\n', 'a\n\n', '\nab\ncd\n', 'é\n', built.text]) {
      const bytes = encoder.encode(text);
      for (const size of [1, 2, 7, 1000]) {
        const digest = new StreamingFileDigest();
        for (let k = 0; k < bytes.length; k += size) digest.update(bytes.subarray(k, k + size));
        expect(digest.hex(), `${JSON.stringify(text.slice(0, 10))} by ${size} bytes`).toBe(fileDigest(text));
      }
    }
  });
});
