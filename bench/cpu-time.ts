/**
 * CPU time of repeated runs (process.cpuUsage: user + system of the whole
 * process), beside their wall time. The bench machines are shared, and a
 * busy neighbour stretches wall time but not the CPU time a run consumes.
 */

export interface Timing {
  /** Median CPU seconds per run. */
  readonly cpu: number;
  /** The least CPU seconds of a run: what the code costs with the least interference from a busy machine. */
  readonly bestCpu: number;
  /** Median wall seconds per run. */
  readonly wall: number;
}

function median(values: number[]): number {
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)]!;
}

/**
 * Medians of `runs` runs after `warmups` runs (the JIT compiles the hot
 * paths in the first runs), and after at least `warmupCpuSeconds` of CPU
 * time: a short episode needs more runs than a long one before the
 * optimising compiler is done with it.
 */
export async function timeCpu(fn: () => unknown, runs = 21, warmups = 30, warmupCpuSeconds = 0): Promise<Timing> {
  const warmupStart = process.cpuUsage();
  for (let i = 0; i < warmups || cpuSecondsSince(warmupStart) < warmupCpuSeconds; i++) await fn();
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < runs; i++) {
    const startWall = process.hrtime.bigint();
    const startCpu = process.cpuUsage();
    await fn();
    const used = process.cpuUsage(startCpu);
    cpu.push((used.user + used.system) / 1e6);
    wall.push(Number(process.hrtime.bigint() - startWall) / 1e9);
  }
  return { cpu: median(cpu), bestCpu: Math.min(...cpu), wall: median(wall) };
}

function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}
