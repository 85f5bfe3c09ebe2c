import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EpisodeCgroup, processCpuSeconds, processPrivateBytes, processTree, tmpfsUsedBytes, Watchdog, type LimitBreach } from './sandbox-limits.js';

const dir = mkdtempSync(join(tmpdir(), 'ember-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const linux = process.platform === 'linux';

describe('an episode cgroup (on a folder standing in for cgroupfs)', () => {
  it('is created with its caps, reads CPU time and OOM kills, and takes a process', () => {
    const cgroup = EpisodeCgroup.create(dir, { memoryBytes: 128 * 1024 * 1024, cpuSeconds: 2, maxProcesses: 40 })!;
    expect(cgroup).toBeDefined();
    expect(readFileSync(join(cgroup.folder, 'memory.max'), 'utf8')).toBe(String(128 * 1024 * 1024));
    expect(readFileSync(join(cgroup.folder, 'pids.max'), 'utf8')).toBe('40');
    expect(readFileSync(join(cgroup.folder, 'memory.swap.max'), 'utf8')).toBe('0');
    writeFileSync(join(cgroup.folder, 'cpu.stat'), 'usage_usec 2500000\nuser_usec 2000000\nsystem_usec 500000\n');
    expect(cgroup.cpuSeconds()).toBe(2.5);
    writeFileSync(join(cgroup.folder, 'memory.events'), 'low 0\nhigh 0\nmax 3\noom 1\noom_kill 0\n');
    expect(cgroup.oomKilled()).toBe(false);
    writeFileSync(join(cgroup.folder, 'memory.events'), 'low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n');
    expect(cgroup.oomKilled()).toBe(true);
    expect(cgroup.adopt(12345)).toBe(true);
    expect(readFileSync(join(cgroup.folder, 'cgroup.procs'), 'utf8')).toBe('12345');
  });

  it('is not created where the parent cannot hold it', () => {
    expect(EpisodeCgroup.create(join(dir, 'missing', 'deeper'), { memoryBytes: 1, cpuSeconds: undefined, maxProcesses: 1 })).toBeUndefined();
  });
});

describe.skipIf(!linux)('the watchdog', () => {
  it('sees a process tree, its CPU time and private memory', () => {
    expect(processTree(process.pid)[0]).toBe(process.pid);
    expect(processCpuSeconds(process.pid)).toBeGreaterThan(0);
    expect(processPrivateBytes(process.pid)).toBeGreaterThan(1024 * 1024);
    expect(processCpuSeconds(2 ** 22 + 7)).toBe(0);
    // The host's own /tmp is not a sandbox's: never counted.
    expect(tmpfsUsedBytes('/tmp', '/tmp')).toBe(0);
  });

  it('kills over the memory cap and over the process cap, summing the whole tree', async () => {
    const watch = async (limits: { memoryBytes: number; maxProcesses: number }): Promise<LimitBreach> => {
      // A shell with two sleeping children: three processes.
      const child = spawn('/bin/sh', ['-c', 'sleep 60 & sleep 60 & wait'], { stdio: 'ignore' });
      try {
        return await new Promise<LimitBreach>((resolve) => {
          const dog = new Watchdog({ limits: { ...limits, cpuSeconds: undefined }, pid: child.pid!, ownProcesses: 0, tmpfs: () => [], onBreach: resolve });
          setTimeout(() => dog.stop(), 60_000).unref();
        });
      } finally {
        for (const pid of processTree(child.pid!).reverse()) process.kill(pid, 'SIGKILL');
      }
    };
    expect(await watch({ memoryBytes: 1, maxProcesses: 100 })).toBe('memory');
    expect(await watch({ memoryBytes: 2 ** 40, maxProcesses: 2 })).toBe('processes');
  }, 90_000);
});
