import { describe, expect, it } from 'vitest';
import { Xoshiro128ss, streamKey } from './rng.js';

// Outputs of the reference C implementation (xoshiro128starstar.c by
// Blackman and Vigna), compiled and run with these start states.
const REFERENCE = [
  {
    state: [1, 2, 3, 4] as const,
    outputs: [11520, 0, 5927040, 70819200, 2031721883, 1637235492, 1287239034, 3734860849, 3729100597, 4258142804],
  },
  {
    state: [0x9e3779b9, 0xdeadbeef, 0, 0xffffffff] as const,
    outputs: [1162347276, 2592411689, 4030867362, 4117157294, 3393882781, 909390972, 2441340183, 325242517, 2470795927, 1063898182],
  },
];

describe('xoshiro128**', () => {
  it.each(REFERENCE)('matches the reference C outputs from state $state', ({ state, outputs }) => {
    const rng = new Xoshiro128ss(state);
    expect(outputs.map(() => rng.next())).toEqual(outputs);
  });

  it('rejects an all-zero state and skips an all-zero first key block', () => {
    expect(() => new Xoshiro128ss([0, 0, 0, 0])).toThrow(RangeError);
    const key = new Uint8Array(32);
    key[16] = 1;
    expect(Xoshiro128ss.fromKey(key).next()).toBe(new Xoshiro128ss([1, 0, 0, 0]).next());
  });

  it('reads key words little-endian', () => {
    const key = new Uint8Array(32);
    key.set([1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0]);
    expect(Xoshiro128ss.fromKey(key).next()).toBe(11520);
  });

  it('draws uniform integers below the bound, rejecting the biased tail', () => {
    const rng = new Xoshiro128ss([1, 2, 3, 4]);
    // bound 3: limit = floor(2^32 / 3) * 3 = 4294967295; the outputs above are all below it.
    expect([rng.uniform(3), rng.uniform(3), rng.uniform(3)]).toEqual([11520 % 3, 0, 5927040 % 3]);
    expect(() => rng.uniform(0)).toThrow(RangeError);
  });

  it('chooses by partial Fisher-Yates in draw order', () => {
    const a = new Xoshiro128ss([1, 2, 3, 4]);
    // draws: uniform(5) -> 11520 % 5 = 0, uniform(4) -> 0 % 4 = 0
    expect(a.choose(['a', 'b', 'c', 'd', 'e'], 2)).toEqual(['a', 'b']);
    const b = new Xoshiro128ss([1, 2, 3, 4]);
    b.next();
    // draws: uniform(5) -> 0, uniform(4) -> 5927040 % 4 = 0, uniform(3) -> 70819200 % 3 = 0
    expect(b.choose([10, 20, 30, 40, 50], 3)).toEqual([10, 20, 30]);
  });

  it('keys streams by SHA-256 of canonical JSON (Python hashlib vector)', () => {
    // python3 -c 'import hashlib,json;print(hashlib.sha256(json.dumps({"scenario_hash":"ab","seed":"3","stream":"fire"},sort_keys=True,separators=(",",":")).encode()).hexdigest())'
    const hex = Array.from(streamKey('ab', '3', 'fire'), (b) => b.toString(16).padStart(2, '0')).join('');
    expect(hex).toBe(PY_FIRE_KEY);
  });
});

const PY_FIRE_KEY = '12027a356409799b68e9a51b36d25b3dfbdb8e772876d7b57cc68defe231f21d';
