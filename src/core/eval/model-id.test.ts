import { describe, expect, it } from 'vitest';
import { isModelId, modelIdProblem } from './model-id.js';

// python3: chr(c).isprintable() for each code point.
const PYTHON_PRINTABLE: Readonly<Record<number, boolean>> = {
  0x20: true,
  0x41: true,
  0xe9: true,
  0x4e2d: true,
  0x1f600: true,
  0x3000: false,
  0xa0: false,
  0x2028: false,
  0x200b: false,
  0xad: false,
  0xfeff: false,
  0xe000: false,
  0x7f: false,
  0x85: false,
  0x1f: false,
  0x2060: false,
  0x061c: false,
  0x0378: false,
  0x1680: false,
};

describe('modelIdProblem', () => {
  it.each(Object.entries(PYTHON_PRINTABLE))('U+%s inside an ID is accepted exactly when Python calls it printable', (hex, printable) => {
    const id = `a${String.fromCodePoint(Number(hex))}b`;
    expect(isModelId(id)).toBe(printable);
    if (!printable) expect(modelIdProblem(id)).toMatch(/^must be printable \(found U\+[0-9A-F]{4,}\)$/);
  });

  // python3: len(s) > 0 and len(s) <= 256 and s.isprintable() and s.strip() == s
  it.each([
    ['a b', true],
    ['my-model/v1.2 (temperature 0)', true],
    ['é', true],
    ['x'.repeat(256), true],
    ['\u{1f600}'.repeat(256), true],
    ['x'.repeat(257), false],
    ['', false],
    [' a', false],
    ['a ', false],
    ['a\u3000', false],
    ['\u00a0a', false],
    ['a\tb', false],
  ])('%j -> %s', (id, valid) => {
    expect(isModelId(id)).toBe(valid);
  });

  it('names the problem', () => {
    expect(modelIdProblem('')).toBe('must not be empty');
    expect(modelIdProblem('x'.repeat(257))).toBe('must be at most 256 characters');
    expect(modelIdProblem(' a')).toBe('must not start or end with whitespace');
    expect(modelIdProblem('ok')).toBeNull();
  });
});
