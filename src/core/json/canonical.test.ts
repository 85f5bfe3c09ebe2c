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

  it('takes typed interfaces without a cast, and refuses what is not JSON-shaped at compile time', () => {
    interface Cell {
      readonly row: number;
      readonly note?: string;
    }
    interface Board {
      readonly name: string;
      readonly cells: readonly Cell[];
      readonly pairs: readonly (readonly [number, number])[];
      readonly next: Board | null;
      readonly counts: Readonly<Record<string, number>>;
    }
    const board: Board = { name: 'b', cells: [{ row: 1 }, { row: 2, note: 'x' }], pairs: [[1, 2]], next: null, counts: { z: 1, a: 2 } };
    expect(canonicalJson(board)).toBe('{"cells":[{"row":1},{"note":"x","row":2}],"counts":{"a":2,"z":1},"name":"b","next":null,"pairs":[[1,2]]}');
    expect(indentedJson([board.cells[0]!])).toBe('[\n  {\n    "row": 1\n  }\n]\n');
    expect(digestOf(board)).toBe(sha256Hex(canonicalJson(board)));

    // Each line below must fail to compile (tsconfig.test.json checks these files); at run time they throw.
    interface WithMethod {
      readonly n: number;
      total(): number;
    }
    const withMethod: WithMethod = { n: 1, total: () => 1 };
    // @ts-expect-error a function is not JSON
    expect(() => canonicalJson(withMethod)).toThrow(TypeError);
    const holes: readonly (number | undefined)[] = [1, undefined];
    // @ts-expect-error undefined inside an array has no JSON form
    expect(() => canonicalJson(holes)).toThrow(TypeError);
    // @ts-expect-error a bigint is not JSON
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
    const opaque: { readonly value: unknown } = { value: Symbol('s') };
    // @ts-expect-error an unknown field may hold anything
    expect(() => canonicalJson(opaque)).toThrow(TypeError);
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
