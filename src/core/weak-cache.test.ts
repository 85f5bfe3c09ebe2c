import { describe, expect, it } from 'vitest';
import { WeakCache } from './weak-cache.js';

describe('WeakCache', () => {
  it('derives a value once per key object and shares it', () => {
    let made = 0;
    const cache = new WeakCache((key: { n: number }) => ({ twice: key.n * 2, serial: ++made }));
    const a = { n: 1 };
    const b = { n: 1 };
    expect(cache.get(a)).toEqual({ twice: 2, serial: 1 });
    expect(cache.get(a)).toBe(cache.get(a));
    // An equal object is another key.
    expect(cache.get(b).serial).toBe(2);
    expect(made).toBe(2);
  });
});
