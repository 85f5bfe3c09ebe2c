import { keccakF1600 } from './st-keccak.js';
import { BootstrapStream } from '../src/core/stats/stream.js';
class Fast {
  private s = new Int32Array(50); private seed = new Int32Array(10); private out = new Int32Array(16); private off = 16; private counter = 0;
  constructor(seed32: Uint8Array) { const dv = new DataView(seed32.buffer, seed32.byteOffset, 32); for (let i = 0; i < 8; i++) this.seed[i] = dv.getInt32(4 * i, true); }
  private refill() {
    const s = this.s; s.fill(0); s.set(this.seed.subarray(0, 8));
    // uint64_be(counter) at bytes 32..39: counter < 2^53
    const hi = Math.floor(this.counter / 4294967296), lo = this.counter >>> 0;
    s[8] = bswap(hi); s[9] = bswap(lo);
    s[10] ^= 0x1f; s[33] ^= 0x80000000 | 0;
    keccakF1600(s); this.out.set(s.subarray(0, 16)); this.off = 0; this.counter++;
  }
  uniform(n: number): number {
    for (;;) {
      if (this.off >= 16) this.refill();
      const hi = bswap(this.out[this.off]!) >>> 0, lo = bswap(this.out[this.off + 1]!) >>> 0; this.off += 2;
      // reject v >= 2^64 - (2^64 mod n); for n < 2^21 numbers are exact
      const r = rem(n);
      if (hi === 0xffffffff && r !== 0 && lo >= 4294967296 - r) continue;
      return ((hi % n) * 4294967296 + lo) % n;
    }
  }
}
const remCache = new Map<number, number>();
function rem(n: number) { let r = remCache.get(n); if (r === undefined) { r = Number((1n << 64n) % BigInt(n)); remCache.set(n, r); } return r; }
function bswap(x: number) { return ((x & 0xff) << 24) | ((x & 0xff00) << 8) | ((x >>> 8) & 0xff00) | (x >>> 24); }
const seed = new Uint8Array(32); for (let i = 0; i < 32; i++) seed[i] = i * 13 + 1;
const a = new BootstrapStream(seed), b = new Fast(seed);
for (let i = 0; i < 100000; i++) { const n = 1 + (i % 37) * 1000 + (i % 3); if (a.uniform(n) !== b.uniform(n)) { console.log('DIFF', i); break; } }
console.log('checked');
const c = process.cpuUsage(); const t = performance.now();
let x = 0; for (let i = 0; i < 6000000; i++) x += b.uniform(30);
const d = process.cpuUsage(c); console.log('6M draws cpu', (d.user + d.system) / 1000, 'wall', performance.now() - t, x);
