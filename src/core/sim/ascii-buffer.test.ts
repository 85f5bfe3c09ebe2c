import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalString } from '../json/canonical.js';
import { AsciiBuffer, OffShape, QuotedRepeats } from './ascii-buffer.js';

function written(write: (out: AsciiBuffer) => void): string {
  const out = new AsciiBuffer();
  try {
    write(out);
    return out.text();
  } finally {
    out.release();
  }
}

describe('AsciiBuffer', () => {
  it('writes integers and pairs as canonical JSON does, at every width', () => {
    const integer = fc.oneof(fc.integer({ min: 0, max: 1100 }), fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), fc.constantFrom(9, 10, 99, 100, 999, 1000, 1e9 - 1, 1e9, -0, Number.MAX_SAFE_INTEGER));
    fc.assert(
      fc.property(fc.array(fc.tuple(integer, integer), { maxLength: 40 }), (list) => {
        expect(written((out) => out.pairs(list))).toBe(canonicalJson(list));
        for (const [value] of list) expect(written((out) => out.integer(value))).toBe(canonicalJson(value));
      }),
      { numRuns: 500, seed: 7 },
    );
  });

  it('quotes strings as canonicalString does, short and long', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 100 }), fc.string({ maxLength: 300 }), fc.stringMatching(/^[.NESW]{0,200}$/)), (text) => {
        expect(written((out) => out.quoted(text))).toBe(canonicalString(text));
      }),
      { numRuns: 500, seed: 8 },
    );
  });

  it('repeats a value from where it was written, across growth of the buffer', () => {
    const long = 'NESW.'.repeat(30_000);
    const text = written((out) => {
      const repeats = new QuotedRepeats();
      for (const value of ['ab', 'ab', long, long, 'ab', long]) repeats.write(out, value);
    });
    expect(text).toBe(['ab', 'ab', long, long, 'ab', long].map(canonicalString).join(''));
  });

  it('refuses what is off the shape with OffShape', () => {
    for (const bad of [1.5, Number.NaN, '1', null]) expect(() => written((out) => out.integer(bad))).toThrow(OffShape);
    for (const bad of [[[1]], [[1, 2, 3]], [null], 'x', [[1, 0.5]]]) expect(() => written((out) => out.pairs(bad))).toThrow(OffShape);
    expect(() => written((out) => out.quoted(3))).toThrow(OffShape);
  });

  it('hands its buffer to the next one when released, and starts empty', () => {
    const first = new AsciiBuffer();
    first.ascii('x'.repeat(100_000));
    first.release();
    const second = new AsciiBuffer();
    expect(second.length).toBe(0);
    second.ascii('ok');
    expect(second.text()).toBe('ok');
    second.release();
  });

  it('gives detached bytes to the caller: the next buffer does not reuse them', () => {
    const first = new AsciiBuffer(10);
    first.ascii('kept');
    const bytes = first.detach();
    expect(first.length).toBe(0);
    const second = new AsciiBuffer();
    second.ascii('next!');
    expect(second.text()).toBe('next!');
    second.release();
    expect(new TextDecoder().decode(bytes)).toBe('kept');
  });

  it('writes the same past its capacity, whether it was a hint too small or a spare too small', () => {
    const long = '.NESW'.repeat(40_000);
    for (const capacity of [0, 1, 1 << 16, 150_000, 1 << 20]) {
      const out = new AsciiBuffer(capacity);
      out.quoted(long);
      out.pairs([[1, 2], [300, 4000]]);
      expect(out.text()).toBe(canonicalString(long) + '[[1,2],[300,4000]]');
      out.release(); // the next one is handed this buffer, or a larger one when its hint asks for more
    }
  });
});
