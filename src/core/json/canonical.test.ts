import { describe, expect, it } from 'vitest';
import { canonicalJson, indentedJson } from './canonical.js';
import { digestOf, fileDigest, sha256Hex } from '../hash.js';

// Expected texts from Python 3.11:
// json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
const VECTORS: [unknown, string][] = [
  [
    { b: 1, a: [1, 2, { z: null, y: true, x: false }], c: 'h\u00e9llo "q" \\ \n\t\r\b\f \u0001 \u007f' },
    '{"a":[1,2,{"x":false,"y":true,"z":null}],"b":1,"c":"h\\u00e9llo \\"q\\" \\\\ \\n\\t\\r\\b\\f \\u0001 \\u007f"}',
  ],
  [{ emoji: '\u{1F525} fire', '\u00e9': 'k', e: 'k', E: 'K', '': 0 }, '{"":0,"E":"K","e":"k","emoji":"\\ud83d\\udd25 fire","\\u00e9":"k"}'],
  [[-9007199254740991, 9007199254740991, 0, -1], '[-9007199254740991,9007199254740991,0,-1]'],
  ['\ud800 lone', '"\\ud800 lone"'],
  // Python sorts keys by code point: U+FFFF before U+1F525 (UTF-16 order would differ).
  [{ '\u{1F525}': 1, '\uffff': 2 }, '{"\\uffff":2,"\\ud83d\\udd25":1}'],
];

describe('canonical JSON', () => {
  it.each(VECTORS)('equals Python json.dumps for %j', (value, expected) => {
    expect(canonicalJson(value as never)).toBe(expected);
  });

  it('writes the indented manifest form like json.dumps(indent=2) plus LF', () => {
    expect(indentedJson({ b: [1, { a: [] }], a: {} })).toBe('{\n  "a": {},\n  "b": [\n    1,\n    {\n      "a": []\n    }\n  ]\n}\n');
  });

  it('refuses floats, non-safe integers and non-JSON types', () => {
    expect(() => canonicalJson(1.5)).toThrow(/not an integer/);
    expect(() => canonicalJson({ a: [2 ** 53] })).toThrow(/\$\.a\[0\]/);
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalJson({ f: (() => 1) as never })).toThrow(TypeError);
  });

  it('leaves out undefined object values and writes -0 as 0', () => {
    expect(canonicalJson({ a: undefined, b: -0 })).toBe('{"b":0}');
  });
});

describe('digests', () => {
  it('match Python hashlib.sha256', () => {
    // hashlib.sha256(b'{"a":1}').hexdigest()
    expect(sha256Hex('{"a":1}')).toBe('015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862');
    expect(digestOf({ a: 1 })).toBe(sha256Hex('{"a":1}'));
  });

  it('hash a file without its final LF', () => {
    expect(fileDigest('{"a":1}\n')).toBe(sha256Hex('{"a":1}'));
    expect(fileDigest('{"a":1}')).toBe(sha256Hex('{"a":1}'));
  });
});
