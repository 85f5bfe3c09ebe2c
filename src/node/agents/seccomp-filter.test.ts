import { describe, expect, it } from 'vitest';
import {
  BPF_JEQ_K,
  BPF_JSET_K,
  BPF_LD_W_ABS,
  BPF_RET_K,
  CLONE_NAMESPACE_FLAGS,
  DENIED_SYSCALLS,
  ENOSYS,
  EPERM,
  NOSYS_SYSCALLS,
  SECCOMP_RET_ALLOW,
  SECCOMP_RET_ERRNO,
  SECCOMP_RET_KILL_PROCESS,
  seccompArch,
  seccompInstructions,
  seccompProgram,
  type SeccompArch,
} from './seccomp-filter.js';

/** Runs the program the way the kernel does, on one struct seccomp_data (nr, arch, args[0] low word). */
function run(program: Buffer, data: { nr: number; arch: number; arg0?: number }): number {
  const word = (offset: number): number => (offset === 0 ? data.nr : offset === 4 ? data.arch : offset === 16 ? (data.arg0 ?? 0) : 0);
  let a = 0;
  for (let pc = 0; pc < program.length / 8; ) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    switch (code) {
      case BPF_LD_W_ABS:
        a = word(k);
        pc++;
        break;
      case BPF_JEQ_K:
        pc += 1 + (a === k ? jt : jf);
        break;
      case BPF_JSET_K:
        pc += 1 + ((a & k) !== 0 ? jt : jf);
        break;
      case BPF_RET_K:
        return k;
      default:
        throw new Error(`unexpected opcode ${code} at ${pc}`);
    }
  }
  throw new Error('ran off the end of the program');
}

const ARCHES: readonly [SeccompArch, number, number][] = [
  // arch, AUDIT_ARCH value, clone's number
  ['x64', 0xc000003e, 56],
  ['arm64', 0xc00000b7, 220],
];

describe('the seccomp filter', () => {
  for (const [arch, audit, clone] of ARCHES) {
    describe(arch, () => {
      const program = seccompProgram(arch);
      const call = (nr: number, arg0 = 0): number => run(program, { nr, arch: audit, arg0 });

      it('refuses every denied call with EPERM, clone3 and io_uring_setup with ENOSYS', () => {
        for (const [name, numbers] of Object.entries(DENIED_SYSCALLS)) {
          if (numbers[arch] !== undefined) expect(call(numbers[arch]!), name).toBe(SECCOMP_RET_ERRNO | EPERM);
        }
        for (const [name, numbers] of Object.entries(NOSYS_SYSCALLS)) expect(call(numbers[arch]), name).toBe(SECCOMP_RET_ERRNO | ENOSYS);
      });

      it('allows every other call, and clone without namespace flags', () => {
        const listed = new Set([...Object.values(DENIED_SYSCALLS).map((n) => n[arch]), ...Object.values(NOSYS_SYSCALLS).map((n) => n[arch])]);
        for (let nr = 0; nr < 460; nr++) if (!listed.has(nr) && nr !== clone) expect(call(nr), String(nr)).toBe(SECCOMP_RET_ALLOW);
        // fork()/pthread_create() flags: SIGCHLD, CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|...
        expect(call(clone, 17)).toBe(SECCOMP_RET_ALLOW);
        expect(call(clone, 0x3d0f00)).toBe(SECCOMP_RET_ALLOW);
      });

      it('refuses clone with any namespace flag', () => {
        for (let bit = 0; bit < 32; bit++) {
          const flag = (1 << bit) >>> 0;
          if ((CLONE_NAMESPACE_FLAGS & flag) !== 0) expect(call(clone, (flag | 17) >>> 0), flag.toString(16)).toBe(SECCOMP_RET_ERRNO | EPERM);
        }
      });

      it('kills a call from another architecture', () => {
        const other = ARCHES.find(([a]) => a !== arch)![1];
        expect(run(program, { nr: 0, arch: other })).toBe(SECCOMP_RET_KILL_PROCESS);
        expect(run(program, { nr: 0, arch: 0x40000003 })).toBe(SECCOMP_RET_KILL_PROCESS);
      });
    });
  }

  it('kills x32 calls on x86_64 (their numbers carry bit 30)', () => {
    expect(run(seccompProgram('x64'), { nr: 0x40000000 | 39, arch: 0xc000003e })).toBe(SECCOMP_RET_KILL_PROCESS);
  });

  it('is struct sock_filter[] in little-endian order, ending in returns', () => {
    const instructions = seccompInstructions('x64');
    const bytes = seccompProgram('x64');
    expect(bytes.length).toBe(instructions.length * 8);
    expect(bytes.readUInt16LE(0)).toBe(BPF_LD_W_ABS);
    expect(bytes.readUInt32LE(4)).toBe(4);
    expect(instructions.at(-1)!.code).toBe(BPF_RET_K);
  });

  it('knows x86_64 and aarch64 only', () => {
    expect(seccompArch('x64')).toBe('x64');
    expect(seccompArch('arm64')).toBe('arm64');
    expect(seccompArch('ia32')).toBeUndefined();
    expect(seccompArch('riscv64')).toBeUndefined();
  });
});
