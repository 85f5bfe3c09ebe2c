import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, MAX_JSON_DEPTH, parseJsonInput, parseStrictJson } from './strict-parse.js';
import { ValidationError } from '../errors.js';

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

  it(`accepts ${MAX_JSON_DEPTH} nested levels and rejects one more, without recursing past the limit`, () => {
    const ok = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    expect(() => parseStrictJson(ok)).not.toThrow();
    const deep = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1);
    expect(errorOf(deep).reason).toBe(`$${'[0]'.repeat(19)}[0...: nested deeper than ${MAX_JSON_DEPTH} arrays and objects`);
    expect(errorOf(deep).column).toBe(MAX_JSON_DEPTH + 1);
    expect(errorOf('{"a":'.repeat(300) + '1' + '}'.repeat(300)).reason).toBe(`$${'.a'.repeat(29)}....: nested deeper than 256 arrays and objects`);
    // Far past any stack: still a syntax error, never a RangeError.
    const huge = '['.repeat(100_000);
    expect(errorOf(huge).reason).toContain('nested deeper than');
    expect(() => parseJsonInput(huge, 'deep.json')).toThrow(ValidationError);
  });
});
