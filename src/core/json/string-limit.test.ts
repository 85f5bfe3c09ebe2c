import { describe, expect, it } from 'vitest';
import { JsonStringLengthGuard } from './string-limit.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Feeds `text` in pieces of `size` bytes; the offset reported, or -1. */
function check(text: string, max: number, size: number): number {
  const guard = new JsonStringLengthGuard(max);
  const all = bytes(text);
  for (let i = 0; i < all.length; i += size) {
    const at = guard.push(all.subarray(i, i + size));
    if (at >= 0) return at;
  }
  return -1;
}

describe('JsonStringLengthGuard', () => {
  it('accepts strings up to the limit and reports the first longer one by its opening quote, in any chunking', () => {
    const text = '{"a":"12345","b":["123456"]}';
    for (const size of [1, 2, 3, 7, 100]) {
      expect(check(text, 6, size)).toBe(-1);
      expect(check(text, 5, size)).toBe(text.indexOf('"123456"'));
      expect(check(text, 4, size)).toBe(text.indexOf('"12345"'));
    }
  });

  it('counts escape sequences as written and never ends a string at an escaped quote', () => {
    const text = '{"k":"a\\"b\\\\"}'; // the value is written as 6 bytes: a \" b \\
    for (const size of [1, 2, 5, 100]) {
      expect(check(text, 6, size)).toBe(-1);
      expect(check(text, 5, size)).toBe(text.indexOf('"a'));
    }
  });

  it('stops at the first byte past the limit of a huge string', () => {
    const guard = new JsonStringLengthGuard(1000);
    expect(guard.push(bytes('{"title": "'))).toBe(-1);
    expect(guard.push(new Uint8Array(1000).fill(0x61))).toBe(-1);
    expect(guard.push(new Uint8Array(1).fill(0x61))).toBe(10);
  });
});
