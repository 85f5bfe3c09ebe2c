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

function sortedKeys(obj: object): string[] {
  const keys = Object.keys(obj);
  // ASCII keys (every key this benchmark writes) sort the same either way;
  // the default sort is much faster than a comparator.
  return keys.every((k) => !/[^\x00-\x7f]/.test(k)) ? keys.sort() : keys.sort(compareCodePoints);
}

function writeValue(value: unknown, parts: string[], path: string): void {
  if (value === null) {
    parts.push('null');
    return;
  }
  switch (typeof value) {
    case 'boolean':
      parts.push(value ? 'true' : 'false');
      return;
    case 'number':
      if (!Number.isSafeInteger(value)) {
        throw new TypeError(`canonical JSON: ${path} is not an integer within +-(2^53 - 1): ${value}`);
      }
      // -0 is written as 0, as Python writes int(-0).
      parts.push(String(value === 0 ? 0 : value));
      return;
    case 'string':
      parts.push(canonicalString(value));
      return;
    case 'object': {
      if (Array.isArray(value)) {
        parts.push('[');
        for (let i = 0; i < value.length; i++) {
          if (i > 0) parts.push(',');
          writeValue(value[i], parts, `${path}[${i}]`);
        }
        parts.push(']');
        return;
      }
      const obj = value as Record<string, unknown>;
      parts.push('{');
      let first = true;
      for (const key of sortedKeys(obj)) {
        const item = obj[key];
        if (item === undefined) continue;
        if (!first) parts.push(',');
        first = false;
        parts.push(canonicalString(key), ':');
        writeValue(item, parts, `${path}.${key}`);
      }
      parts.push('}');
      return;
    }
    default:
      throw new TypeError(`canonical JSON: ${path} has type ${typeof value}`);
  }
}

/** The canonical JSON text of a value (ASCII, no trailing newline). Keys whose value is `undefined` are left out. */
export function canonicalJson(value: CanonicalInput): string {
  const parts: string[] = [];
  writeValue(value, parts, '$');
  return parts.join('');
}

/**
 * The manifest file form: canonical key order and escapes, 2-space indent,
 * as Python's `json.dumps(v, sort_keys=True, indent=2, ensure_ascii=True)`,
 * plus one LF.
 */
export function indentedJson(value: CanonicalInput): string {
  return writeIndented(value, '', '$') + '\n';
}

function writeIndented(value: unknown, indent: string, path: string): string {
  if (value === null || typeof value !== 'object') {
    const parts: string[] = [];
    writeValue(value, parts, path);
    return parts.join('');
  }
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
