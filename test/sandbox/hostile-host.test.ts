// The red-team suite of issue 19 (docs/agents.md "Sandbox"): attacks on the
// host itself, with the evaluator as root (as in CI) and, where the machine
// allows, as an ordinary user. Each attack must fail or be contained:
// never root as seen from outside, no syscall that reaches past the sandbox,
// exactly the agent's own files, limits over the whole process tree
// (memory with /dev/shm, CPU across children, a fork bomb), and a module
// host channel that garbage cannot break. Sizes are scaled down (a 128 MiB
// cap) so the suite stays cheap; deadlines are generous for a loaded machine.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../src/node/agents/sandbox.js';
import { ROOT } from '../cli/run-cli.js';
import { TINY_SUITE } from '../eval/kit.js';
import { agentMessage, COMMAND, episode, hostileRoot, marker, MODULE, PYTHON, reportOf, run, sleepers, type HostileRoot } from './hostile-kit.js';

const probe = probeSandbox();
const sandboxed = probe.isolation === 'sandboxed';
const asRoot = process.getuid?.() === 0;

let hostile: HostileRoot;
beforeAll(() => {
  hostile = hostileRoot();
});
afterAll(() => hostile.remove());

function status(pid: number): Record<string, string> | undefined {
  try {
    const out: Record<string, string> = {};
    for (const line of readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')) {
      const [key, value] = line.split(':\t');
      if (key !== undefined && value !== undefined) out[key] = value.trim();
    }
    return out;
  } catch {
    return undefined;
  }
}

/** Live processes whose command line names something under `path`. */
function running(path: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(join(path, 'hostile.py'))) out.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** The processes between the CLI (excluded) and `pid` (included): the launcher, bubblewrap, its init, the agent. */
function chainUpTo(pid: number, cli: number): number[] {
  const out: number[] = [];
  for (let at = pid; at !== cli && at > 1 && out.length < 20; ) {
    out.push(at);
    at = Number(status(at)?.PPid ?? 0);
  }
  return out;
}

describe.skipIf(!sandboxed)(sandboxed ? 'hostile agents against the host' : `hostile agents against the host (SKIPPED: no sandbox here: ${probe.reason})`, () => {
  it.skipIf(!asRoot)('under a root evaluator every process of the sandbox is uid/gid 65534 with no groups and no capabilities, seen from outside', async () => {
    const mark = marker();
    const go = join(hostile.agent, `go-${mark}`);
    let cli = 0;
    let finished = false;
    // The agent holds its first act until `go` exists, so its processes can be looked at before the episode ends.
    const done = run(episode(hostile, MODULE(hostile, 'makeHeldForker'), ['--agent-env', 'HOSTILE_MARKER', '--agent-env', 'HOSTILE_GO', '--act-timeout-ms', '300000']), {
      env: { HOSTILE_MARKER: mark, HOSTILE_GO: go },
      started: (pid) => (cli = pid),
    }).finally(() => (finished = true));
    let chain: number[] = [];
    while (chain.length === 0 && !finished) {
      await new Promise((r) => setTimeout(r, 100));
      const found = sleepers(mark);
      if (found.length > 0) chain = chainUpTo(found[0]!, cli);
    }
    writeFileSync(go, '');
    const seen = chain.map((pid) => status(pid)).filter((s) => s !== undefined);
    const result = await done;
    expect(result.status, result.stderr).toBe(0);
    // bash (exec'd into bwrap), bwrap's init, the module host and the SIGTERM-proof sleep at least.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    for (const s of seen) {
      expect([s.Name, s.Uid, s.Gid, s.Groups, s.CapEff, s.CapPrm]).toEqual([s.Name, '65534\t65534\t65534\t65534', '65534\t65534\t65534\t65534', '', '0000000000000000', '0000000000000000']);
    }
  }, 300_000);

  it('ptrace of the sandbox init, unshare, mount and keyctl fail with EPERM; ordinary agents still run', async () => {
    const report = reportOf(await run(episode(hostile, COMMAND(hostile, 'syscalls'))));
    expect(report).toEqual({ ptrace_init: 'EPERM', unshare_user: 'EPERM', unshare_net: 'EPERM', mount: 'EPERM', keyctl: 'EPERM' });
  });

  it('a program or script in /tmp brings no host folder; --agent-path X/bin does not make X readable', async () => {
    const loose = join('/tmp', `ember-hostile-loose-${process.pid}.py`);
    const neighbour = join('/tmp', `ember-hostile-neighbour-${process.pid}.txt`);
    copyFileSync(join(hostile.agent, 'hostile.py'), loose);
    writeFileSync(neighbour, 'a neighbour in /tmp\n');
    const targets = (beside: string): NodeJS.ProcessEnv => ({ HOSTILE_TARGETS: JSON.stringify({ manifest: hostile.manifest, scenario: hostile.scenario, beside, writeOutside: join(hostile.root, 'pwned'), port: 9 }) });
    try {
      const fromTmp = reportOf(await run(episode(hostile, ['--agent-command', `${PYTHON} ${loose} spy`], ['--agent-env', 'HOSTILE_TARGETS']), { env: targets(neighbour) }));
      expect([fromTmp.beside, fromTmp.manifest]).toEqual(['ENOENT', 'ENOENT']);
    } finally {
      rmSync(loose, { force: true });
      rmSync(neighbour, { force: true });
    }
    // X/bin/agent with --agent-path X/bin: X/beside.txt stays out of reach.
    const x = mkdtempSync(join(hostile.root, 'x-'));
    chmodSync(x, 0o755);
    mkdirSync(join(x, 'bin'));
    writeFileSync(join(x, 'beside.txt'), 'in X, not in X/bin\n');
    writeFileSync(join(x, 'bin', 'agent'), `#!${PYTHON}\nimport runpy, sys\nsys.argv = ['hostile.py', 'spy']\nrunpy.run_path(${JSON.stringify(join(x, 'bin', 'hostile.py'))}, run_name='__main__')\n`);
    copyFileSync(join(hostile.agent, 'hostile.py'), join(x, 'bin', 'hostile.py'));
    chmodSync(join(x, 'bin', 'agent'), 0o755);
    const fromBin = reportOf(await run(episode(hostile, ['--agent-command', join(x, 'bin', 'agent'), '--agent-path', join(x, 'bin')], ['--agent-env', 'HOSTILE_TARGETS']), { env: targets(join(x, 'beside.txt')) }));
    expect(fromBin.beside).toBe('ENOENT');
  });

  it('/dev/shm is in memory and counted against the memory cap', async () => {
    const message = agentMessage(await run(episode(hostile, MODULE(hostile, 'makeShmFiller'), ['--agent-memory', '128M', '--agent-env', 'HOSTILE_SHM_MB', '--act-timeout-ms', '120000']), { env: { HOSTILE_SHM_MB: '384' } }));
    // Either the watchdog (or cgroup) kills the tree, or the tmpfs is full first and the agent reports it.
    expect(message).toMatch(/exceeded the memory cap of 128 MiB \(--agent-memory\)|"error":"ENOSPC"/);
    if (message.includes('ENOSPC')) expect(Number(/"shm_written_mb":(\d+)/.exec(message)![1])).toBeLessThanOrEqual(128);
  });

  it('4 children each under the memory cap but over it together are stopped, and the message names the cap', async () => {
    const result = await run(episode(hostile, COMMAND(hostile, 'children-hog 40 4'), ['--agent-memory', '128M', '--act-timeout-ms', '120000']));
    expect(agentMessage(result)).toContain('exceeded the memory cap of 128 MiB (--agent-memory)');
  });

  it('CPU time counts across children: 4 children of 0.4 s each exceed a 1 s cap', async () => {
    const result = await run(episode(hostile, COMMAND(hostile, 'children-burn 0.4 4'), ['--agent-cpu-seconds', '1', '--act-timeout-ms', '120000']));
    expect(agentMessage(result)).toContain('exceeded the CPU-time cap of 1 s per episode (--agent-cpu-seconds)');
  });

  it('garbage or a line over the cap on the module host channel fails the episode; --continue-on-failure goes on', async () => {
    const manifest = join(hostile.work, 'tiny-manifest.json');
    expect((await run(['evaluation', 'manifest', '--suite', TINY_SUITE, '--seed', '1', '--out', manifest])).status).toBe(0);
    for (const [exportName, kind] of [
      ['garbageChannelAct', 'model_error'],
      ['hugeChannelLineAct', 'invalid_output'],
    ] as const) {
      const out = join(hostile.work, `channel-${exportName}.json`);
      const agent = ['--agent', `misbehaving:${exportName}`, '--agent-path', join(ROOT, 'test', 'fixtures', 'agents'), '--act-timeout-ms', '120000'];
      const result = await run(['evaluation', 'run', '--suite', TINY_SUITE, '--manifest', manifest, '--model-id', 'm', ...agent, '--continue-on-failure', '--out', out, '--json']);
      expect(result.status, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ completed_episodes: 0, failed_episodes: 3 });
      const failures = (JSON.parse(readFileSync(out, 'utf8')) as { failures: { kind: string }[] }).failures;
      expect(failures.map((f) => f.kind)).toEqual([kind, kind, kind]);
    }
  });

  it('a fork bomb is capped by --agent-max-processes and leaves nothing behind', async () => {
    const message = agentMessage(await run(episode(hostile, COMMAND(hostile, 'forkbomb'), ['--agent-max-processes', '40', '--act-timeout-ms', '120000'])));
    if (message.includes('REPORT')) {
      const report = JSON.parse(/REPORT (\{.*?\})/.exec(message)![1]!) as { forked: number; error: string };
      expect(report.error).toBe('EAGAIN');
      expect(report.forked).toBeLessThan(40);
    } else {
      expect(message).toContain('exceeded the process cap of 40 (--agent-max-processes)');
    }
    // The sandbox's PID namespace took every child with it.
    for (let i = 0; i < 100 && running(hostile.agent).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(running(hostile.agent)).toEqual([]);
  });
});

describe.skipIf(!sandboxed || !asRoot)('as an ordinary user', () => {
  // The evaluator itself as uid 65534 (setpriv), with a HOME and an output folder of its own under /tmp.
  let home: string;
  beforeAll(() => {
    home = mkdtempSync(join(hostile.root, 'home-'));
    chownSync(home, 65534, 65534);
  });

  it('the sandbox holds the same way: no inherited descriptor, no /proc/sys, the syscall filter', async () => {
    const cli = (args: string[]) =>
      spawnSync('/bin/bash', ['-c', 'exec 240<"$0"; exec "$@"', hostile.manifest, 'setpriv', '--reuid', '65534', '--regid', '65534', '--clear-groups', process.execPath, '--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), ...args], {
        cwd: ROOT,
        env: { ...process.env, HOME: home, HOSTILE_TARGETS: JSON.stringify({ manifest: hostile.manifest, scenario: hostile.scenario, beside: hostile.beside, writeOutside: join(hostile.root, 'pwned'), port: 9 }) },
        encoding: 'utf8',
        timeout: 300_000,
      });
    const spy = cli(['episode', 'run', '--scenario', hostile.scenario, '--seed', '5', ...COMMAND(hostile, 'spy'), '--agent-env', 'HOSTILE_TARGETS', '--out', join(home, 'spy.json'), '--json']);
    const report = reportOf({ status: spy.status, stdout: spy.stdout, stderr: spy.stderr });
    expect([report.manifest, report.beside, report.fd240, report.proc_fd240]).toEqual(['ENOENT', 'ENOENT', 'EBADF', 'ENOENT']);
    expect(['EACCES', 'EROFS', 'EPERM']).toContain(report.core_pattern);
    const calls = cli(['episode', 'run', '--scenario', hostile.scenario, '--seed', '5', ...COMMAND(hostile, 'syscalls'), '--out', join(home, 'calls.json'), '--json']);
    expect(reportOf({ status: calls.status, stdout: calls.stdout, stderr: calls.stderr })).toMatchObject({ ptrace_init: 'EPERM', unshare_user: 'EPERM', mount: 'EPERM' });
  });
});
