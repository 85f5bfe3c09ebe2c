import { keccakP, shake256 } from '@noble/hashes/sha3.js';
import { createHash } from 'node:crypto';
const s = new Uint32Array(50);
let t = performance.now();
for (let i = 0; i < 750000; i++) { s[0] ^= i; keccakP(s); }
console.log('keccakP', performance.now() - t);
t = performance.now();
const inp = new Uint8Array(40);
for (let i = 0; i < 750000; i++) { inp[39] = i & 255; createHash('shake256', { outputLength: 64 }).update(inp).digest(); }
console.log('node shake', performance.now() - t);
// verify single-permutation construction equals shake256
const seed = new Uint8Array(40); for (let i = 0; i < 40; i++) seed[i] = i * 7;
const ref = shake256(seed, { dkLen: 64 });
const st = new Uint32Array(50); const b = new Uint8Array(st.buffer);
b.set(seed); b[40] ^= 0x1f; b[135] ^= 0x80; keccakP(st);
console.log(Buffer.from(b.slice(0, 64)).equals(Buffer.from(ref)));
