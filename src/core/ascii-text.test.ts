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

  it('uses a decoder the platform supplies', async () => {
    vi.resetModules();
    const fresh = await import('./ascii-text.js');
    const faster = vi.fn((bytes: Uint8Array) => String.fromCharCode(...bytes));
    fresh.useAsciiDecoder(faster);
    expect(fresh.asciiText(Uint8Array.of(0x41, 0x42))).toBe('AB');
    expect(faster).toHaveBeenCalledOnce();
  });
});
