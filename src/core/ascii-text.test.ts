import { afterEach, describe, expect, it, vi } from 'vitest';
import { asciiText } from './ascii-text.js';

const printable = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, k) => 0x20 + (k % 95));

describe('asciiText', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('gives the string of ASCII bytes, short, long and views', () => {
    const bytes = printable(30_000);
    const expected = Array.from(bytes, (code) => String.fromCharCode(code)).join('');
    expect(asciiText(bytes)).toBe(expected);
    expect(asciiText(bytes.subarray(7, 9))).toBe(expected.slice(7, 9));
    expect(asciiText(new Uint8Array(0))).toBe('');
  });

  it('gives the same strings where there is no TextDecoder (in chunks of char codes)', async () => {
    vi.stubGlobal('TextDecoder', undefined);
    vi.resetModules();
    const bare = await import('./ascii-text.js');
    expect(bare.asciiText).not.toBe(asciiText);
    for (const n of [0, 1, 8191, 8192, 8193, 30_000]) expect(bare.asciiText(printable(n))).toBe(asciiText(printable(n)));
  });
});
