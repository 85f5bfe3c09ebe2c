/**
 * Field readers for strict artifact loaders: each checks one value's type
 * and range and throws a ValidationError naming the source and field path
 * (`result.json: episodes[3].index: must be an integer`).
 */

import { ValidationError } from '../errors.js';
import type { JsonObject, JsonValue } from './canonical.js';

export class FieldReader {
  constructor(readonly source: string) {}

  fail(path: string, problem: string): never {
    throw new ValidationError(`${this.source}: ${path}: ${problem}`);
  }

  /** An object with exactly the required keys plus any of the optional ones. */
  object(value: JsonValue | undefined, path: string, required: readonly string[], optional: readonly string[] = []): JsonObject {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) this.fail(path, 'must be an object');
    for (const key of required) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) this.fail(path, `missing field "${key}"`);
    }
    for (const key of Object.keys(value)) {
      if (!required.includes(key) && !optional.includes(key)) this.fail(path, `unknown field "${key}"`);
    }
    return value;
  }

  array(value: JsonValue | undefined, path: string): JsonValue[] {
    if (!Array.isArray(value)) this.fail(path, 'must be an array');
    return value;
  }

  string(value: JsonValue | undefined, path: string, pattern?: RegExp): string {
    if (typeof value !== 'string') this.fail(path, 'must be a string');
    if (pattern && !pattern.test(value)) this.fail(path, `must match ${pattern.source}`);
    return value;
  }

  literal<T extends string>(value: JsonValue | undefined, path: string, allowed: readonly T[]): T {
    if (typeof value !== 'string' || !allowed.includes(value as T)) {
      this.fail(path, `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`);
    }
    return value as T;
  }

  integer(value: JsonValue | undefined, path: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) this.fail(path, 'must be an integer');
    if (value < min || value > max) this.fail(path, `must be between ${min} and ${max}`);
    return value;
  }

  boolean(value: JsonValue | undefined, path: string): boolean {
    if (typeof value !== 'boolean') this.fail(path, 'must be true or false');
    return value;
  }

  nullable<T>(value: JsonValue | undefined, path: string, read: (v: JsonValue, p: string) => T): T | null {
    return value === null ? null : read(value as JsonValue, path);
  }
}
