import { keccakP } from '@noble/hashes/sha3.js';
import { createHash } from 'node:crypto';
import { keccakF1600 } from './st-keccak.js';
const a = new Int32Array(50); const b = new Uint32Array(50);
function cpu(name: string, f: () => void) {
  const c = process.cpuUsage(); const t = performance.now(); f(); const d = process.cpuUsage(c);
  console.log(name, 'cpu ms', ((d.user + d.system) / 1000).toFixed(0), 'wall ms', (performance.now() - t).toFixed(0));
}
for (let r = 0; r < 2; r++) {
cpu('unrolled', () => { for (let i = 0; i < 750000; i++) { a[0] ^= i; keccakF1600(a); } });
cpu('noble', () => { for (let i = 0; i < 750000; i++) { b[0] ^= i; keccakP(b); } });
const inp = new Uint8Array(40);
cpu('native', () => { for (let i = 0; i < 750000; i++) { inp[39] = i & 255; createHash('shake256', { outputLength: 64 }).update(inp).digest(); } });
}
