/**
 * The agent sandbox's syscall filter (docs/agents.md "Sandbox"): a classic
 * BPF program for seccomp, generated here (no native build step) and handed
 * to bubblewrap with `--seccomp FD`, which installs it just before it starts
 * the agent. It refuses what no agent needs and what would let one reach
 * past the sandbox: debugging other processes, mounting, new namespaces,
 * kernel keyrings, eBPF, perf, userfaultfd, kexec, kernel modules, swap,
 * reboot, clock changes, file handles, io_uring and the like. Everything
 * else is allowed (an allowlist would break ordinary interpreters).
 *
 * Denied calls fail with EPERM, except clone3 (ENOSYS, so glibc falls back
 * to clone, whose flags the filter can see) and io_uring_setup (ENOSYS, so
 * libuv falls back to its thread pool). clone itself is refused only with a
 * namespace flag. A call from another architecture (x32 on x86_64, or a
 * foreign arch) kills the process: its numbers mean other calls.
 */

/** The architectures the filter knows, by Node's `process.arch`. */
export type SeccompArch = 'x64' | 'arm64';

/** AUDIT_ARCH_* values (linux/audit.h). */
const AUDIT_ARCH: Readonly<Record<SeccompArch, number>> = { x64: 0xc000003e, arm64: 0xc00000b7 };

/** The syscalls an agent may not make, with their numbers per architecture (asm/unistd_64.h, asm-generic/unistd.h). */
export const DENIED_SYSCALLS: Readonly<Record<string, Readonly<Partial<Record<SeccompArch, number>>>>> = {
  ptrace: { x64: 101, arm64: 117 },
  process_vm_readv: { x64: 310, arm64: 270 },
  process_vm_writev: { x64: 311, arm64: 271 },
  pidfd_getfd: { x64: 438, arm64: 438 },
  kcmp: { x64: 312, arm64: 272 },
  mount: { x64: 165, arm64: 40 },
  umount2: { x64: 166, arm64: 39 },
  pivot_root: { x64: 155, arm64: 41 },
  chroot: { x64: 161, arm64: 51 },
  open_tree: { x64: 428, arm64: 428 },
  move_mount: { x64: 429, arm64: 429 },
  fsopen: { x64: 430, arm64: 430 },
  fsconfig: { x64: 431, arm64: 431 },
  fsmount: { x64: 432, arm64: 432 },
  fspick: { x64: 433, arm64: 433 },
  mount_setattr: { x64: 442, arm64: 442 },
  unshare: { x64: 272, arm64: 97 },
  setns: { x64: 308, arm64: 268 },
  keyctl: { x64: 250, arm64: 219 },
  add_key: { x64: 248, arm64: 217 },
  request_key: { x64: 249, arm64: 218 },
  bpf: { x64: 321, arm64: 280 },
  perf_event_open: { x64: 298, arm64: 241 },
  userfaultfd: { x64: 323, arm64: 282 },
  kexec_load: { x64: 246, arm64: 104 },
  kexec_file_load: { x64: 320, arm64: 294 },
  init_module: { x64: 175, arm64: 105 },
  finit_module: { x64: 313, arm64: 273 },
  delete_module: { x64: 176, arm64: 106 },
  swapon: { x64: 167, arm64: 224 },
  swapoff: { x64: 168, arm64: 225 },
  reboot: { x64: 169, arm64: 142 },
  acct: { x64: 163, arm64: 89 },
  quotactl: { x64: 179, arm64: 60 },
  quotactl_fd: { x64: 443, arm64: 443 },
  name_to_handle_at: { x64: 303, arm64: 264 },
  open_by_handle_at: { x64: 304, arm64: 265 },
  fanotify_init: { x64: 300, arm64: 262 },
  lookup_dcookie: { x64: 212, arm64: 18 },
  syslog: { x64: 103, arm64: 116 },
  settimeofday: { x64: 164, arm64: 170 },
  clock_settime: { x64: 227, arm64: 112 },
  adjtimex: { x64: 159, arm64: 171 },
  clock_adjtime: { x64: 305, arm64: 266 },
  vhangup: { x64: 153, arm64: 58 },
  io_uring_enter: { x64: 426, arm64: 426 },
  io_uring_register: { x64: 427, arm64: 427 },
  // x86_64 only: port I/O and calls the kernel no longer has.
  iopl: { x64: 172 },
  ioperm: { x64: 173 },
  uselib: { x64: 134 },
  _sysctl: { x64: 156 },
  create_module: { x64: 174 },
  get_kernel_syms: { x64: 177 },
  query_module: { x64: 178 },
  nfsservctl: { x64: 180 },
};

/** Calls answered with ENOSYS: the caller falls back to something the filter can judge or that needs no kernel help. */
export const NOSYS_SYSCALLS: Readonly<Record<string, Readonly<Record<SeccompArch, number>>>> = {
  clone3: { x64: 435, arm64: 435 },
  io_uring_setup: { x64: 425, arm64: 425 },
};

const CLONE_NR: Readonly<Record<SeccompArch, number>> = { x64: 56, arm64: 220 };

/** CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET | NEWTIME (linux/sched.h). */
export const CLONE_NAMESPACE_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x00000080;

/** x86_64's x32 ABI marks its syscall numbers with this bit. */
const X32_SYSCALL_BIT = 0x40000000;

export const EPERM = 1;
export const ENOSYS = 38;

export const SECCOMP_RET_KILL_PROCESS = 0x80000000;
export const SECCOMP_RET_ERRNO = 0x00050000;
export const SECCOMP_RET_ALLOW = 0x7fff0000;

// Classic BPF opcodes (linux/filter.h).
export const BPF_LD_W_ABS = 0x20;
export const BPF_JEQ_K = 0x15;
export const BPF_JSET_K = 0x45;
export const BPF_RET_K = 0x06;

/** Offsets in struct seccomp_data: nr, arch, then args[0] (its low 32 bits on a little-endian machine). */
export const DATA_NR = 0;
export const DATA_ARCH = 4;
export const DATA_ARG0_LOW = 16;

export interface BpfInstruction {
  readonly code: number;
  readonly jt: number;
  readonly jf: number;
  readonly k: number;
}

/** The architecture of this process, or undefined when the filter does not know it. */
export function seccompArch(arch: string = process.arch): SeccompArch | undefined {
  return arch === 'x64' || arch === 'arm64' ? arch : undefined;
}

/**
 * The filter's instructions for one architecture. Layout: the arch check,
 * the syscall number, one JEQ per denied number (jumping to a shared
 * return), then ALLOW, the clone flag check, and the returns.
 */
export function seccompInstructions(arch: SeccompArch): BpfInstruction[] {
  const denied = Object.values(DENIED_SYSCALLS).flatMap((numbers) => (numbers[arch] === undefined ? [] : [numbers[arch]!]));
  const nosys = Object.values(NOSYS_SYSCALLS).map((numbers) => numbers[arch]);
  const head: BpfInstruction[] = [
    { code: BPF_LD_W_ABS, jt: 0, jf: 0, k: DATA_ARCH },
    { code: BPF_JEQ_K, jt: 1, jf: 0, k: AUDIT_ARCH[arch] },
    { code: BPF_RET_K, jt: 0, jf: 0, k: SECCOMP_RET_KILL_PROCESS },
    { code: BPF_LD_W_ABS, jt: 0, jf: 0, k: DATA_NR },
  ];
  if (arch === 'x64') head.push({ code: BPF_JSET_K, jt: 0, jf: 1, k: X32_SYSCALL_BIT }, { code: BPF_RET_K, jt: 0, jf: 0, k: SECCOMP_RET_KILL_PROCESS });
  // The tests, in order: denied numbers, ENOSYS numbers, clone. Then the tail.
  const tests = denied.length + nosys.length + 1;
  // Tail, relative to the first instruction after the tests: 0 ALLOW, 1 load arg0, 2 JSET flags, 3 ALLOW, 4 EPERM, 5 ENOSYS.
  const CLONE = 1;
  const DENY = 4;
  const NOSYS = 5;
  const body: BpfInstruction[] = [];
  const jumpTo = (target: number): number => tests - body.length - 1 + target;
  for (const nr of denied) body.push({ code: BPF_JEQ_K, jt: jumpTo(DENY), jf: 0, k: nr });
  for (const nr of nosys) body.push({ code: BPF_JEQ_K, jt: jumpTo(NOSYS), jf: 0, k: nr });
  body.push({ code: BPF_JEQ_K, jt: jumpTo(CLONE), jf: 0, k: CLONE_NR[arch] });
  const tail: BpfInstruction[] = [
    { code: BPF_RET_K, jt: 0, jf: 0, k: SECCOMP_RET_ALLOW },
    { code: BPF_LD_W_ABS, jt: 0, jf: 0, k: DATA_ARG0_LOW },
    { code: BPF_JSET_K, jt: 1, jf: 0, k: CLONE_NAMESPACE_FLAGS },
    { code: BPF_RET_K, jt: 0, jf: 0, k: SECCOMP_RET_ALLOW },
    { code: BPF_RET_K, jt: 0, jf: 0, k: SECCOMP_RET_ERRNO | EPERM },
    { code: BPF_RET_K, jt: 0, jf: 0, k: SECCOMP_RET_ERRNO | ENOSYS },
  ];
  for (const instruction of body) {
    // Classic BPF jumps are 8-bit: the list above must stay short enough.
    if (instruction.jt > 255) throw new RangeError(`seccomp filter: jump of ${instruction.jt} instructions does not fit classic BPF`);
  }
  return [...head, ...body, ...tail];
}

/** The program as bubblewrap reads it: struct sock_filter[] in this machine's (little-endian) byte order. */
export function seccompProgram(arch: SeccompArch): Buffer {
  const instructions = seccompInstructions(arch);
  const bytes = Buffer.alloc(instructions.length * 8);
  instructions.forEach((instruction, i) => {
    bytes.writeUInt16LE(instruction.code, i * 8);
    bytes.writeUInt8(instruction.jt, i * 8 + 2);
    bytes.writeUInt8(instruction.jf, i * 8 + 3);
    bytes.writeUInt32LE(instruction.k >>> 0, i * 8 + 4);
  });
  return bytes;
}
