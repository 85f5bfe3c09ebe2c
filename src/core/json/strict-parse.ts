/**
 * A strict JSON parser for benchmark inputs.
 *
 * `JSON.parse` keeps the last of two duplicate keys and accepts `1.0`, `1e2`
 * and `-0` as numbers; a benchmark artifact must fail closed on all of
 * them. This parser accepts RFC 8259 JSON and additionally rejects duplicate
 * keys and every number that is not a canonical integer within +-(2^53 - 1)
 * (no artifact of the benchmark holds a float).
 *
 * Nesting is limited to {@link MAX_JSON_DEPTH} arrays and objects: the parser
 * recurses once per level, and an unbounded input (5,000 nested arrays) would
 * otherwise overflow the call stack, a crash instead of a precise error. No
 * artifact of the benchmark nests deeper than about 8 levels.
 */

import { ValidationError } from '../errors.js';
import type { JsonObject, JsonValue } from './canonical.js';
import { decimalTextOfJsonNumber } from './decimal-text.js';

export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
  constructor(
    readonly reason: string,
    readonly position: number,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} at line ${line} column ${column}`);
  }
}

/** The deepest nesting of arrays and objects accepted (documented in docs/formats.md). */
export const MAX_JSON_DEPTH = 256;

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const INTEGER = /^-?(0|[1-9][0-9]*)$/;
const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/** A path of a deep value, cut to a readable length. */
function shortPath(path: string): string {
  return path.length > 64 ? `${path.slice(0, 60)}...` : path;
}

/**
 * What a number that is not a canonical integer becomes: an error (every
 * benchmark artifact), or its exact value as decimal text (files people
 * write by hand, such as an agent configuration: `"temperature": 0.7`).
 */
export type NonIntegerNumbers = 'reject' | 'decimal-text';

class Parser {
  private pos = 0;
  private depth = 0;
  constructor(
    private readonly text: string,
    private readonly nonIntegers: NonIntegerNumbers = 'reject',
  ) {}

  fail(reason: string, at = this.pos): never {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at && i < this.text.length; i++) {
      if (this.text.charCodeAt(i) === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    throw new JsonSyntaxError(reason, at, line, at - lineStart + 1);
  }

  skipWs(): void {
    while (this.pos < this.text.length && WS.has(this.text.charCodeAt(this.pos))) this.pos++;
  }

  parseDocument(): JsonValue {
    this.skipWs();
    const value = this.parseValue('$');
    this.skipWs();
    if (this.pos !== this.text.length) this.fail('unexpected text after the JSON value');
    return value;
  }

  parseValue(path: string): JsonValue {
    const ch = this.text[this.pos];
    switch (ch) {
      case '{':
      case '[': {
        if (this.depth >= MAX_JSON_DEPTH) this.fail(`${shortPath(path)}: nested deeper than ${MAX_JSON_DEPTH} arrays and objects`);
        this.depth++;
        const value = ch === '{' ? this.parseObject(path) : this.parseArray(path);
        this.depth--;
        return value;
      }
      case '"':
        return this.parseString();
      case 't':
        return this.literal('true', true);
      case 'f':
        return this.literal('false', false);
      case 'n':
        return this.literal('null', null);
      case undefined:
        return this.fail('unexpected end of input');
      default:
        if (ch === '-' || (ch >= '0' && ch <= '9')) return this.parseNumber(path);
        return this.fail(`unexpected character ${JSON.stringify(ch)}`);
    }
  }

  literal<T extends JsonValue>(word: string, value: T): T {
    if (this.text.startsWith(word, this.pos)) {
      this.pos += word.length;
      return value;
    }
    return this.fail('invalid literal');
  }

  parseNumber(path: string): number | string {
    const start = this.pos;
    while (this.pos < this.text.length && /[-+0-9.eE]/.test(this.text[this.pos]!)) this.pos++;
    const token = this.text.slice(start, this.pos);
    if (!NUMBER.test(token)) this.fail(`invalid number ${token}`, start);
    if (this.nonIntegers === 'decimal-text' && !INTEGER.test(token)) {
      const text = decimalTextOfJsonNumber(token);
      if (text === undefined) this.fail(`${path}: number ${token} has an exponent beyond +-400`, start);
      return text;
    }
    if (!INTEGER.test(token) || token === '-0') {
      this.fail(`${path}: non-canonical number ${token} (only integers are allowed)`, start);
    }
    const value = Number(token);
    if (!Number.isSafeInteger(value)) this.fail(`${path}: integer ${token} is outside +-(2^53 - 1)`, start);
    return value;
  }

  parseString(): string {
    const start = this.pos;
    this.pos++; // opening quote
    let out = '';
    let chunkStart = this.pos;
    for (;;) {
      if (this.pos >= this.text.length) this.fail('unterminated string', start);
      const code = this.text.charCodeAt(this.pos);
      if (code === 0x22) {
        out += this.text.slice(chunkStart, this.pos);
        this.pos++;
        return out;
      }
      if (code < 0x20) this.fail('control character in string');
      if (code !== 0x5c) {
        this.pos++;
        continue;
      }
      out += this.text.slice(chunkStart, this.pos);
      const esc = this.text[this.pos + 1];
      switch (esc) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          const hex = this.text.slice(this.pos + 2, this.pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('invalid \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          this.pos += 4;
          break;
        }
        default:
          this.fail('invalid escape');
      }
      this.pos += 2;
      chunkStart = this.pos;
    }
  }

  parseArray(path: string): JsonValue[] {
    this.pos++;
    const out: JsonValue[] = [];
    this.skipWs();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipWs();
      out.push(this.parseValue(`${path}[${out.length}]`));
      this.skipWs();
      const ch = this.text[this.pos];
      if (ch === ',') {
        this.pos++;
        continue;
      }
      if (ch === ']') {
        this.pos++;
        return out;
      }
      this.fail("expected ',' or ']'");
    }
  }

  parseObject(path: string): JsonObject {
    this.pos++;
    const out: JsonObject = {};
    this.skipWs();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipWs();
      if (this.text[this.pos] !== '"') this.fail('expected a string key');
      const keyAt = this.pos;
      const key = this.parseString();
      if (Object.prototype.hasOwnProperty.call(out, key)) {
        this.fail(`${path}: duplicate key ${JSON.stringify(key)}`, keyAt);
      }
      this.skipWs();
      if (this.text[this.pos] !== ':') this.fail("expected ':'");
      this.pos++;
      this.skipWs();
      const value = this.parseValue(`${path}.${key}`);
      // `__proto__` must become an ordinary own key, never the prototype.
      if (key === '__proto__') {
        Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      } else {
        out[key] = value;
      }
      this.skipWs();
      const ch = this.text[this.pos];
      if (ch === ',') {
        this.pos++;
        continue;
      }
      if (ch === '}') {
        this.pos++;
        return out;
      }
      this.fail("expected ',' or '}'");
    }
  }
}

/** Parses JSON text strictly; throws {@link JsonSyntaxError} with a line and column. */
export function parseStrictJson(text: string, nonIntegers: NonIntegerNumbers = 'reject'): JsonValue {
  return new Parser(text, nonIntegers).parseDocument();
}

/**
 * Parses the text of an input file strictly; a syntax error becomes a
 * ValidationError (exit 3) that names the source: `a.json: not valid JSON: ...`.
 */
export function parseJsonInput(text: string, source: string, nonIntegers: NonIntegerNumbers = 'reject'): JsonValue {
  try {
    return parseStrictJson(text, nonIntegers);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new ValidationError(`${source}: not valid JSON: ${error.message}`);
    throw error;
  }
}
