#!/usr/bin/env python3
"""Generates src/core/hash/keccak-wasm.ts: the bootstrap stream's blocks in WebAssembly.

Run from the repository root:  python3 scripts/gen-keccak-wasm.py > src/core/hash/keccak-wasm.ts

Why: the bootstrap stream (stream.ts) costs one Keccak-f[1600] permutation
per 64-byte block, and a 3,000-episode bootstrap reads ~750,000 blocks.
JavaScript has no 64-bit integer operations, so the JS permutation
(keccak.ts) does each 64-bit step as two 32-bit ones and needs about 1 us
per block; WebAssembly has i64 xor, and, rotl, and runs it several times
faster. The modules are written here byte by byte (no toolchain needed):
a plain one (about 1 KB: the 24 rounds are a loop, so that browsers may
compile it synchronously) with blocks(), and one that adds pairs(), which
computes two blocks at once in the two 64-bit lanes of 128-bit SIMD values
(about 1.4 times the plain throughput), used where it compiles.

Exported: memory, and blocks(counterLow, counterHigh, count). Memory layout:
  [0, 200)    the template state: 25 lanes, little-endian (the absorbed
              block: seed bytes, 0x1F at byte 40, 0x80 at byte 135); lane 4
              (bytes 32..39) is replaced by each block's counter
  [200, 392)  the 24 round constants (written by the loader)
  [512, ...)  output: block i (counter + i) at 512 + 64 i, as 8 uint64
              values v_k = the big-endian reading of output bytes 8k..8k+7,
              each stored little-endian (so a Uint32Array sees low, high)
blocks() computes `count` blocks for counters counter .. counter + count - 1;
pairs(counterLow, counterHigh, pairs) computes 2 * pairs blocks, the same way.
"""

from keccak_constants import R, round_constants


def uleb(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def sleb(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if (n == 0 and not b & 0x40) or (n == -1 and b & 0x40):
            out.append(b)
            return bytes(out)
        out.append(b | 0x80)


def signed64(v):
    return v - (1 << 64) if v >= 1 << 63 else v


# Opcodes.
LOCAL_GET, LOCAL_SET = 0x20, 0x21
I32_CONST, I64_CONST = 0x41, 0x42
I64_LOAD, I64_STORE = 0x29, 0x37
I64_ADD, I64_AND, I64_OR, I64_XOR, I64_SHL, I64_SHR_U, I64_ROTL = 0x7C, 0x83, 0x84, 0x85, 0x86, 0x88, 0x89
I64_EXTEND_I32_U = 0xAD
I32_ADD, I32_LT_U, I32_GE_U = 0x6A, 0x49, 0x4F
BLOCK, LOOP, BR, BR_IF, END, VOID = 0x02, 0x03, 0x0C, 0x0D, 0x0B, 0x40

# Locals: params 0..2 (i32), then a0..a24, b0..b24, c0..c4, d0..d4, ctr, tmp (i64), then i, r, out (i32).
P_LO, P_HI, P_COUNT = 0, 1, 2
A = [3 + k for k in range(25)]
B = [28 + k for k in range(25)]
C = [53 + x for x in range(5)]
D = [58 + x for x in range(5)]
CTR, TMP = 63, 64
I, RND, OUT = 65, 66, 67

code = bytearray()


def op(*parts):
    for p in parts:
        code.extend(p if isinstance(p, (bytes, bytearray)) else bytes([p]))


def get(i):
    op(LOCAL_GET, uleb(i))


def put(i):
    op(LOCAL_SET, uleb(i))


def i64c(v):
    op(I64_CONST, sleb(signed64(v)))


def i32c(v):
    op(I32_CONST, sleb(v))


def bswap64_tmp():
    """TMP = bswap64(TMP)."""
    for shift, mask in ((8, 0x00FF00FF00FF00FF), (16, 0x0000FFFF0000FFFF)):
        get(TMP)
        i64c(shift)
        op(I64_SHR_U)
        i64c(mask)
        op(I64_AND)
        get(TMP)
        i64c(mask)
        op(I64_AND)
        i64c(shift)
        op(I64_SHL)
        op(I64_OR)
        put(TMP)
    get(TMP)
    i64c(32)
    op(I64_ROTL)
    put(TMP)


# ctr = (hi << 32) | lo
get(P_HI)
op(I64_EXTEND_I32_U)
i64c(32)
op(I64_SHL)
get(P_LO)
op(I64_EXTEND_I32_U)
op(I64_OR)
put(CTR)
i32c(0)
put(I)
i32c(512)
put(OUT)
op(BLOCK, VOID)
op(LOOP, VOID)
get(I)
get(P_COUNT)
op(I32_GE_U)
op(BR_IF, uleb(1))
# Load the template; lane 4 is the counter's big-endian bytes read little-endian: bswap64(ctr).
for k in range(25):
    if k == 4:
        get(CTR)
        put(TMP)
        bswap64_tmp()
        get(TMP)
        put(A[4])
        continue
    i32c(0)
    op(I64_LOAD, uleb(3), uleb(8 * k))
    put(A[k])
i32c(0)
put(RND)
op(LOOP, VOID)
# Theta.
for x in range(5):
    get(A[x])
    for y in range(1, 5):
        get(A[x + 5 * y])
        op(I64_XOR)
    put(C[x])
for x in range(5):
    get(C[(x + 4) % 5])
    get(C[(x + 1) % 5])
    i64c(1)
    op(I64_ROTL)
    op(I64_XOR)
    put(D[x])
# Rho and pi.
for x in range(5):
    for y in range(5):
        get(A[x + 5 * y])
        get(D[x])
        op(I64_XOR)
        if R[x][y]:
            i64c(R[x][y])
            op(I64_ROTL)
        put(B[y + 5 * ((2 * x + 3 * y) % 5)])
# Chi.
for y in range(5):
    for x in range(5):
        get(B[x + 5 * y])
        get(B[(x + 1) % 5 + 5 * y])
        i64c(-1)
        op(I64_XOR)
        get(B[(x + 2) % 5 + 5 * y])
        op(I64_AND)
        op(I64_XOR)
        put(A[x + 5 * y])
# Iota: a0 ^= RC[round] (at 200 + 8 round; RND holds 8 round).
get(A[0])
get(RND)
op(I64_LOAD, uleb(3), uleb(200))
op(I64_XOR)
put(A[0])
get(RND)
i32c(8)
op(I32_ADD)
put(RND)
get(RND)
i32c(192)
op(I32_LT_U)
op(BR_IF, uleb(0))
op(END)
# Store lanes 0..7 byte-swapped.
for k in range(8):
    get(A[k])
    put(TMP)
    bswap64_tmp()
    get(OUT)
    get(TMP)
    op(I64_STORE, uleb(3), uleb(8 * k))
get(OUT)
i32c(64)
op(I32_ADD)
put(OUT)
get(I)
i32c(1)
op(I32_ADD)
put(I)
get(CTR)
i64c(1)
op(I64_ADD)
put(CTR)
op(BR, uleb(0))
op(END)
op(END)
op(END)  # function body

locals_decl = uleb(2) + uleb(62) + bytes([0x7E]) + uleb(3) + bytes([0x7F])
body = locals_decl + bytes(code)
func = uleb(len(body)) + body

# ---------------------------------------------------------------------------
# pairs(counterLow, counterHigh, pairs): two blocks at once in 128-bit SIMD
# lanes (block counter + 2i in lane 0, counter + 2i + 1 in lane 1), written
# like blocks() writes them. Rotations are two shifts and an or (no 64x2
# rotate in WebAssembly SIMD), chi's ~b & c is one andnot.

SIMD = 0xFD


def simd(opcode, *imm):
    op(SIMD, uleb(opcode), *imm)


V128_LOAD64_SPLAT, I64X2_SPLAT, I64X2_EXTRACT, I64X2_REPLACE = 0x0A, 0x12, 0x1D, 0x1E
V128_ANDNOT, V128_OR, V128_XOR = 0x4F, 0x50, 0x51
I64X2_SHL, I64X2_SHR_U = 0xCB, 0xCD

code = bytearray()
# Locals: params 0..2 (i32); a0..a24, b0..b24, c0..c4, d0..d4 (v128); ctr, tmp (i64); i, r, out (i32).
VA = [3 + k for k in range(25)]
VB = [28 + k for k in range(25)]
VC = [53 + x for x in range(5)]
VD = [58 + x for x in range(5)]


def vrotl(r):
    """Rotates the v128 on the stack (kept in TMP_V) left by r in each 64-bit lane."""
    put(TMP_V)
    get(TMP_V)
    i32c(r)
    simd(I64X2_SHL)
    get(TMP_V)
    i32c(64 - r)
    simd(I64X2_SHR_U)
    simd(V128_OR)


TMP_V = 68  # one more v128 local, declared after the i32 ones
get(P_HI)
op(I64_EXTEND_I32_U)
i64c(32)
op(I64_SHL)
get(P_LO)
op(I64_EXTEND_I32_U)
op(I64_OR)
put(CTR)
i32c(0)
put(I)
i32c(512)
put(OUT)
op(BLOCK, VOID)
op(LOOP, VOID)
get(I)
get(P_COUNT)
op(I32_GE_U)
op(BR_IF, uleb(1))
for k in range(25):
    if k == 4:
        # Lane 4: bswap64(ctr) in lane 0, bswap64(ctr + 1) in lane 1.
        get(CTR)
        put(TMP)
        bswap64_tmp()
        get(TMP)
        simd(I64X2_SPLAT)
        get(CTR)
        i64c(1)
        op(I64_ADD)
        put(TMP)
        bswap64_tmp()
        get(TMP)
        simd(I64X2_REPLACE, bytes([1]))
        put(VA[4])
        continue
    i32c(0)
    simd(V128_LOAD64_SPLAT, uleb(3), uleb(8 * k))
    put(VA[k])
i32c(0)
put(RND)
op(LOOP, VOID)
for x in range(5):
    get(VA[x])
    for y in range(1, 5):
        get(VA[x + 5 * y])
        simd(V128_XOR)
    put(VC[x])
for x in range(5):
    get(VC[(x + 4) % 5])
    get(VC[(x + 1) % 5])
    vrotl(1)
    simd(V128_XOR)
    put(VD[x])
for x in range(5):
    for y in range(5):
        get(VA[x + 5 * y])
        get(VD[x])
        simd(V128_XOR)
        if R[x][y]:
            vrotl(R[x][y])
        put(VB[y + 5 * ((2 * x + 3 * y) % 5)])
for y in range(5):
    for x in range(5):
        # a = b ^ (~b1 & b2) = b ^ andnot(b2, b1)
        get(VB[x + 5 * y])
        get(VB[(x + 2) % 5 + 5 * y])
        get(VB[(x + 1) % 5 + 5 * y])
        simd(V128_ANDNOT)
        simd(V128_XOR)
        put(VA[x + 5 * y])
get(VA[0])
get(RND)
simd(V128_LOAD64_SPLAT, uleb(3), uleb(200))
simd(V128_XOR)
put(VA[0])
get(RND)
i32c(8)
op(I32_ADD)
put(RND)
get(RND)
i32c(192)
op(I32_LT_U)
op(BR_IF, uleb(0))
op(END)
for lane in range(2):
    for k in range(8):
        get(VA[k])
        simd(I64X2_EXTRACT, bytes([lane]))
        put(TMP)
        bswap64_tmp()
        get(OUT)
        get(TMP)
        op(I64_STORE, uleb(3), uleb(64 * lane + 8 * k))
get(OUT)
i32c(128)
op(I32_ADD)
put(OUT)
get(I)
i32c(1)
op(I32_ADD)
put(I)
get(CTR)
i64c(2)
op(I64_ADD)
put(CTR)
op(BR, uleb(0))
op(END)
op(END)
op(END)

V128 = 0x7B
simd_locals = uleb(4) + uleb(60) + bytes([V128]) + uleb(2) + bytes([0x7E]) + uleb(3) + bytes([0x7F]) + uleb(1) + bytes([V128])
simd_body = simd_locals + bytes(code)
simd_func = uleb(len(simd_body)) + simd_body


def section(sid, payload):
    return bytes([sid]) + uleb(len(payload)) + payload


def name(s):
    return uleb(len(s)) + s.encode()


module = b"\x00asm\x01\x00\x00\x00"
module += section(1, uleb(1) + bytes([0x60]) + uleb(3) + bytes([0x7F, 0x7F, 0x7F]) + uleb(0))
module += section(3, uleb(1) + uleb(0))
module += section(5, uleb(1) + bytes([0x00]) + uleb(1))
module += section(7, uleb(2) + name("memory") + bytes([0x02]) + uleb(0) + name("blocks") + bytes([0x00]) + uleb(0))
module += section(10, uleb(1) + func)

simd_module = b"\x00asm\x01\x00\x00\x00"
simd_module += section(1, uleb(1) + bytes([0x60]) + uleb(3) + bytes([0x7F, 0x7F, 0x7F]) + uleb(0))
simd_module += section(3, uleb(2) + uleb(0) + uleb(0))
simd_module += section(5, uleb(1) + bytes([0x00]) + uleb(1))
simd_module += section(
    7, uleb(3) + name("memory") + bytes([0x02]) + uleb(0) + name("blocks") + bytes([0x00]) + uleb(0) + name("pairs") + bytes([0x00]) + uleb(1)
)
simd_module += section(10, uleb(2) + func + simd_func)

rc = round_constants()
def byte_rows(data):
    return "\n".join("  " + ", ".join(str(b) for b in data[i : i + 24]) + "," for i in range(0, len(data), 24))

print(
    """/**
 * The bootstrap stream's blocks in WebAssembly (see stream.ts).
 *
 * GENERATED by scripts/gen-keccak-wasm.py: do not edit by hand; regenerate with
 *   python3 scripts/gen-keccak-wasm.py > src/core/hash/keccak-wasm.ts
 * The script documents the module (exports, memory layout). The bytes are
 * checked against @noble/hashes by stream.test.ts, and the JS permutation
 * (keccak.ts) stays as the fallback where WebAssembly is unavailable.
 */

/** The few WebAssembly declarations used (src/core compiles without DOM or Node types). */
type BlocksExport = (counterLow: number, counterHigh: number, count: number) => void;
interface WasmInstance {
  readonly exports: { readonly memory: { readonly buffer: ArrayBuffer }; readonly blocks: BlocksExport; readonly pairs?: BlocksExport };
}
declare const WebAssembly:
  | {
      readonly Module: new (bytes: Uint8Array) => object;
      readonly Instance: new (module: object, imports: object) => WasmInstance;
    }
  | undefined;

/** Keccak-f[1600] round constants as (low, high) 32-bit words. */
const ROUND_CONSTANTS = new Uint32Array(["""
)
print("  " + ", ".join(f"0x{c & 0xFFFFFFFF:x}, 0x{c >> 32:x}" for c in rc) + ",")
print(
    """]);

/** blocks() alone (WebAssembly 1.0). */
const MODULE_BYTES = new Uint8Array(["""
)
print(byte_rows(module))
print(
    """]);

/** blocks() and pairs(), two blocks per pass in 128-bit SIMD lanes (WebAssembly SIMD, about twice the throughput). */
const SIMD_MODULE_BYTES = new Uint8Array(["""
)
print(byte_rows(simd_module))
print(
    """]);

/** Output starts at this byte offset; the memory (one 64 KiB page) holds this many blocks. */
const OUTPUT_OFFSET = 512;
export const WASM_MAX_BLOCKS = (65536 - OUTPUT_OFFSET) / 64;

/** Blocks of the stream for one template (the absorbed block: seed, padding), computed by WebAssembly. */
export interface WasmBlocks {
  /** Writes the 200-byte template state. */
  setTemplate(bytes: Uint8Array): void;
  /**
   * Computes `count` (<= WASM_MAX_BLOCKS) blocks for counters counter ..
   * counter + count - 1 and returns their uint64 values as (low, high)
   * 32-bit words: a view of the module's memory, valid until the next call.
   */
  run(counter: number, count: number): Uint32Array;
}

/** The compiled modules (undefined: not tried yet; null: refused or no WebAssembly). */
const compiled: { simd?: object | null; plain?: object | null } = {};

function compile(bytes: Uint8Array): object | null {
  try {
    return WebAssembly === undefined ? null : new WebAssembly.Module(bytes);
  } catch {
    return null;
  }
}

/**
 * A new instance (each stream has its own memory): the SIMD module where it
 * compiles (`simd` false: never, for tests), else the plain one; null without
 * WebAssembly or on a big-endian platform. Browsers refuse to compile
 * modules over 4 KB synchronously on their main thread, the SIMD one among
 * them: there the plain one serves.
 */
export function wasmBlocks(simd = true): WasmBlocks | null {
  if (new Uint8Array(new Uint32Array([1]).buffer)[0] !== 1) return null;
  if (simd && compiled.simd === undefined) compiled.simd = compile(SIMD_MODULE_BYTES);
  if (compiled.plain === undefined) compiled.plain = compile(MODULE_BYTES);
  const module = (simd ? compiled.simd : null) ?? compiled.plain;
  if (module === null || WebAssembly === undefined) return null;
  const instance = new WebAssembly.Instance(module, {});
  const { memory, blocks, pairs } = instance.exports;
  new Uint32Array(memory.buffer, 200, 48).set(ROUND_CONSTANTS);
  const TWO_32 = 0x100000000;
  return {
    setTemplate(bytes: Uint8Array): void {
      new Uint8Array(memory.buffer, 0, 200).set(bytes);
    },
    run(counter: number, count: number): Uint32Array {
      if (!Number.isInteger(count) || count < 1 || count > WASM_MAX_BLOCKS) throw new RangeError(`cannot compute ${count} blocks at once`);
      // pairs() may compute one block more than asked (the memory has room for an even count).
      if (pairs !== undefined) pairs(counter >>> 0, Math.floor(counter / TWO_32) >>> 0, (count + 1) >> 1);
      else blocks(counter >>> 0, Math.floor(counter / TWO_32) >>> 0, count);
      return new Uint32Array(memory.buffer, OUTPUT_OFFSET, 16 * count);
    },
  };
}"""
)
