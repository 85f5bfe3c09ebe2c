import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, parseStrictJson } from './strict-parse.js';

function errorOf(text: string): JsonSyntaxError {
  try {
    parseStrictJson(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) return error;
    throw error;
  }
  throw new Error(`parsed: ${text}`);
}

describe('strict JSON parser', () => {
  it('parses ordinary JSON like JSON.parse', () => {
    const text = '{"a": [1, -2, true, false, null, "x\\u00e9\\n\\"\\/"], "b": {"c": {}}, "d": []}';
    expect(parseStrictJson(text)).toEqual(JSON.parse(text));
  });

  it('rejects duplicate keys with their path', () => {
    const error = errorOf('{"a": {"b": 1, "b": 2}}');
    expect(error.reason).toBe('$.a: duplicate key "b"');
    expect(error.line).toBe(1);
  });

  it.each(['1.0', '1e2', '-0', '01', '0.5', '9007199254740992'])('rejects the non-canonical or unsafe number %s', (num) => {
    expect(() => parseStrictJson(`{"n": ${num}}`)).toThrow(/\$\.n|invalid number/);
  });

  it.each([
    ['', 'unexpected end of input'],
    ['{"a":1,}', 'expected a string key'],
    ['[1 2]', "expected ',' or ']'"],
    ['"a\tb"', 'control character in string'],
    ['"\\x"', 'invalid escape'],
    ['{"a":1} x', 'unexpected text after the JSON value'],
    ['NaN', 'unexpected character'],
    ['tru', 'invalid literal'],
  ])('rejects %j (%s)', (text, reason) => {
    expect(errorOf(text).reason).toContain(reason);
  });

  it('reports line and column', () => {
    const error = errorOf('{\n  "a": 1,\n  "a": 2\n}');
    expect([error.line, error.column]).toEqual([3, 3]);
  });

  it('keeps __proto__ as an ordinary key', () => {
    const value = parseStrictJson('{"__proto__": {"polluted": 1}}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });
});
