/**
 * Canonical JSON: the byte form of every hashed artifact.
 *
 * Equal to Python's `json.dumps(v, sort_keys=True, separators=(",", ":"),
 * ensure_ascii=True)` on the same value: keys sorted by code point (which is
 * UTF-16 code-unit order for every key this benchmark writes: they are ASCII),
 * no whitespace, every character outside printable ASCII escaped as a
 * lowercase `\uXXXX` (astral characters as their surrogate pair), and
 * integers only. Floats are refused: artifacts carry decimal strings or
 * exact fractions instead.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** A value canonical JSON accepts: JSON values, plus readonly arrays and objects. */
export type CanonicalInput =
  | null
  | boolean
  | number
  | string
  | readonly CanonicalInput[]
  | { readonly [key: string]: CanonicalInput | undefined };

type JsonScalar = null | boolean | number | string;

/**
 * What canonical JSON accepts of a type `T`, for `value: T & CanonicalShape<T>`:
 * the typed records, results and reports are interfaces, which have no index
 * signature and so are not a {@link CanonicalInput}; this checks them field
 * by field instead. A part that is not JSON-shaped becomes `never`, so a
 * function, a bigint, a Map, an `unknown` field or `undefined` inside an
 * array fails at compile time. (Floats cannot be told from integers by
 * type: canonicalJson refuses them at run time.)
 */
export type CanonicalShape<T> = T extends JsonScalar
  ? JsonScalar
  : T extends CanonicalInput
    ? CanonicalInput
    : T extends readonly unknown[]
      ? { readonly [I in keyof T]: undefined extends T[I] ? never : CanonicalShape<T[I]> }
      : T extends (...args: never) => unknown
        ? never
        : T extends object
          ? { readonly [K in keyof T]: K extends symbol ? never : CanonicalShape<T[K]> | (undefined extends T[K] ? undefined : never) }
          : never;

const SHORT_ESCAPES: Record<number, string> = {
  0x08: '\\b',
  0x09: '\\t',
  0x0a: '\\n',
  0x0c: '\\f',
  0x0d: '\\r',
  0x22: '\\"',
  0x5c: '\\\\',
};

// Printable ASCII other than `"` and `\` passes through unchanged.
const NEEDS_ESCAPE = /[^\x20-\x21\x23-\x5b\x5d-\x7e]/;

/** Whether canonicalString writes `text` as it is between two quotes (printable ASCII without `"` or `\`). */
export function isPlainString(text: string): boolean {
  return !NEEDS_ESCAPE.test(text);
}

export function canonicalString(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return `"${text}"`;
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x20 && code <= 0x7e && code !== 0x22 && code !== 0x5c) {
      out += text[i];
    } else {
      out += SHORT_ESCAPES[code] ?? `\\u${code.toString(16).padStart(4, '0')}`;
    }
  }
  return out + '"';
}

/** Compares strings by Unicode code point, as Python's `sorted` does. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (0xd800-0xdfff) encode code points above 0xffff, which sort
    // after every BMP character; plain UTF-16 order would put them before 0xe000.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

function sortedKeys(obj: object): string[] {
  const keys = Object.keys(obj);
  // Objects built by the library usually list their keys already in order;
  // checking that is much cheaper than sorting.
  let ascii = true;
  let sorted = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (ascii && !isAscii(key)) ascii = false;
    if (i > 0 && sorted && keys[i - 1]! >= key) sorted = false;
  }
  // For ASCII keys (every key this benchmark writes) UTF-16 order is code-point order.
  if (ascii) return sorted ? keys : keys.sort();
  return keys.sort(compareCodePoints);
}

function writeValue(value: unknown, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isSafeInteger(value)) {
        throw new TypeError(`canonical JSON: ${path} is not an integer within +-(2^53 - 1): ${value}`);
      }
      // -0 is written as 0, as Python writes int(-0).
      return value === 0 ? '0' : String(value);
    case 'string':
      return canonicalString(value);
    case 'object': {
      if (Array.isArray(value)) {
        if (value.length === 0) return '[]';
        let out = '[' + writeValue(value[0], path);
        for (let i = 1; i < value.length; i++) out += ',' + writeValue(value[i], path);
        return out + ']';
      }
      const obj = value as Record<string, unknown>;
      let out = '{';
      let first = true;
      for (const key of sortedKeys(obj)) {
        const item = obj[key];
        if (item === undefined) continue;
        out += (first ? '' : ',') + canonicalString(key) + ':' + writeValue(item, path);
        first = false;
      }
      return out + '}';
    }
    default:
      throw new TypeError(`canonical JSON: ${path} has type ${typeof value}`);
  }
}

/** The canonical JSON text of a value (ASCII, no trailing newline). Keys whose value is `undefined` are left out. */
export function canonicalJson<T>(value: T & CanonicalShape<T>): string {
  try {
    return writeValue(value, '$');
  } catch (error) {
    // The fast path does not track where it is; find the offending path for the message.
    if (error instanceof TypeError) throw new TypeError(error.message.replace(' $ ', ` ${offendingPath(value, '$') ?? '$'} `));
    throw error;
  }
}

/** The path of the first value canonical JSON refuses, for error messages. */
function offendingPath(value: unknown, path: string): string | null {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return null;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? null : path;
  if (typeof value !== 'object') return path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = offendingPath(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    const found = offendingPath(item, `${path}.${key}`);
    if (found) return found;
  }
  return null;
}

/**
 * The manifest file form: canonical key order and escapes, 2-space indent,
 * as Python's `json.dumps(v, sort_keys=True, indent=2, ensure_ascii=True)`,
 * plus one LF.
 */
export function indentedJson<T>(value: T & CanonicalShape<T>): string {
  return writeIndented(value, '', '$') + '\n';
}

function writeIndented(value: unknown, indent: string, path: string): string {
  if (value === null || typeof value !== 'object') return writeValue(value, path);
  const inner = indent + '  ';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((item, i) => inner + writeIndented(item, inner, `${path}[${i}]`));
    return `[\n${items.join(',\n')}\n${indent}]`;
  }
  const obj = value as Record<string, unknown>;
  const keys = sortedKeys(obj).filter((k) => obj[k] !== undefined);
  if (keys.length === 0) return '{}';
  const items = keys.map((k) => `${inner}${canonicalString(k)}: ${writeIndented(obj[k], inner, `${path}.${k}`)}`);
  return `{\n${items.join(',\n')}\n${indent}}`;
}
