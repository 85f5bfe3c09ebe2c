// Hostile agents against the sandbox (docs/agents.md "Sandbox"): a JS module
// agent and a Python command agent try to read the manifest, a scenario,
// /etc/passwd and a file beside their folder, write outside their temporary
// folder, see a variable they were not given, connect to a listener this
// test opens on 127.0.0.1, leave a child that ignores SIGTERM, and allocate
// or compute past the caps. Every attempt must fail or be contained, and the
// episode's outcome must show it. Skipped (with the reason in its name) where
// bubblewrap is not available.
import { copyFileSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../src/node/agents/sandbox.js';
import { AGENTS } from '../cli/run-cli.js';
import { COMMAND as COMMAND_OF, episode as episodeOf, FIXTURE, hostileRoot, marker, MODULE as MODULE_OF, reportOf, run, sleepers, type HostileRoot } from './hostile-kit.js';

const probe = probeSandbox();
const sandboxed = probe.isolation === 'sandboxed';

async function noSleeperAfter(marker: string): Promise<number[]> {
  // The kernel ends the sandbox's PID namespace right after its first process; allow it a moment.
  for (let i = 0; i < 30 && sleepers(marker).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  return sleepers(marker);
}

let hostile: HostileRoot;
let root: string;
let server: Server;
let port = 0;
let connections = 0;

beforeAll(async () => {
  hostile = hostileRoot();
  root = hostile.root;
  server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  hostile.remove();
});

const episode = (agent: readonly string[], extra: readonly string[] = []): string[] => episodeOf(hostile, agent, extra);

function targets(): NodeJS.ProcessEnv {
  return {
    HOSTILE_TARGETS: JSON.stringify({
      manifest: join(root, 'work', 'manifest.json'),
      scenario: join(root, 'work', 'scenario.json'),
      beside: join(root, 'beside.txt'),
      writeOutside: join(root, 'pwned'),
      port,
    }),
    HOSTILE_SECRET: 'the operator token',
  };
}

const MODULE = (name: string): string[] => MODULE_OF(hostile, name);
const COMMAND = (mode: string): string[] => COMMAND_OF(hostile, mode);

function expectContained(report: Record<string, unknown>): void {
  expect(report.targets_visible).toBe(true);
  for (const key of ['manifest', 'scenario', 'passwd', 'beside']) expect(report[key], key).toBe('ENOENT');
  // Under a folder of the host's /tmp the write may land in the agent's private /tmp (where bubblewrap
  // made the mount point of its folder): contained all the same, as long as the host never sees it.
  expect(['ENOENT', 'EROFS', 'OK written', 'OK undefined']).toContain(report.write_outside);
  expect(report.write_own_folder).toBe('EROFS');
  expect(report.write_tmp).toBe('OK fine');
  expect(report.secret_env).toBe('absent');
  expect(['ECONNREFUSED', 'ENETUNREACH', 'TIMEOUT']).toContain(report.connect);
  expect(existsSync(join(root, 'pwned'))).toBe(false);
  expect(existsSync(join(root, 'agent', 'pwned'))).toBe(false);
}

describe.skipIf(!sandboxed)(sandboxed ? 'hostile agents in the bubblewrap sandbox' : `hostile agents (SKIPPED: no sandbox here: ${probe.reason})`, () => {
  it('a module agent reads, writes, sees and reaches nothing it is not given: not a descriptor the evaluator inherited, not /proc/sys, not /sys', async () => {
    const before = connections;
    const report = reportOf(await run(episode(MODULE('makeSpy'), ['--agent-env', 'HOSTILE_TARGETS']), { env: targets(), fd240: hostile.manifest }));
    expectContained(report);
    expect(report.fd240).toBe('ENOENT');
    expect(['EACCES', 'EROFS', 'EPERM']).toContain(report.core_pattern);
    expect(['EACCES', 'EROFS', 'EPERM', 'ENOENT']).toContain(report.sysrq);
    expect(report.sys).toBe('ENOENT');
    // Never root, no groups, no capabilities, the syscall filter on (as the agent itself sees it; hostile-host.test.ts looks from outside).
    const status = report.status as string[];
    if (process.getuid?.() === 0) expect(status).toEqual(expect.arrayContaining(['Uid: 65534 65534 65534 65534', 'Gid: 65534 65534 65534 65534', 'Groups:']));
    expect(status).toEqual(expect.arrayContaining(['CapEff: 0000000000000000', 'Seccomp: 2']));
    expect(connections).toBe(before);
  });

  it('a command agent reads, writes, sees and reaches nothing it is not given, not a descriptor the evaluator inherited', async () => {
    const before = connections;
    const report = reportOf(await run(episode(COMMAND('spy'), ['--agent-env', 'HOSTILE_TARGETS']), { env: targets(), fd240: hostile.manifest }));
    expectContained(report);
    expect([report.fd240, report.proc_fd240]).toEqual(['EBADF', 'ENOENT']);
    expect(['EACCES', 'EROFS', 'EPERM']).toContain(report.core_pattern);
    expect(connections).toBe(before);
  });

  it('--agent-network lets the agent reach the listener (so the check above can fail)', async () => {
    const before = connections;
    const report = reportOf(await run(episode(MODULE('makeSpy'), ['--agent-env', 'HOSTILE_TARGETS', '--agent-network']), { env: targets() }));
    expect(report.connect).toBe('OK connected');
    expect(report.manifest).toBe('ENOENT');
    await new Promise((r) => setTimeout(r, 100));
    expect(connections).toBe(before + 1);
  });

  for (const [kind, agent] of [
    ['module', () => MODULE('makeForker')],
    ['command', () => COMMAND('fork')],
  ] as const) {
    it(`no process of a ${kind} agent outlives the episode, not even one that ignores SIGTERM`, async () => {
      const mark = marker();
      const result = await run(episode(agent(), ['--agent-env', 'HOSTILE_MARKER']), { env: { HOSTILE_MARKER: mark } });
      expect(result.status, result.stderr).toBe(0);
      expect(await noSleeperAfter(mark)).toEqual([]);
    });
  }

  it('the memory cap stops a module agent and a command agent, and the message names it', async () => {
    for (const agent of [MODULE('makeHog'), COMMAND('hog')]) {
      const result = await run(episode(agent, ['--agent-memory', '256M']));
      expect(result.status, result.stderr).toBe(4);
      expect(result.stderr).toContain('exceeded the memory cap of 256 MiB (--agent-memory)');
    }
    // Outside the JS heap the allocation usually fails in the agent, which lives on to report it; on a busy
    // machine V8 may abort on its own first. Either way the episode ends and the cap is named.
    const buffers = await run(episode(MODULE('makeBufferHog'), ['--agent-memory', '256M']));
    expect(buffers.status, buffers.stderr).toBe(4);
    expect(buffers.stderr).toMatch(/(Array buffer allocation failed \(the agent ran into|exceeded) the memory cap of 256 MiB \(--agent-memory\)/);
  });

  it('the CPU-time cap stops an agent long before its act deadline, and the message names it', async () => {
    const started = Date.now();
    const result = await run(episode(MODULE('makeBurner'), ['--agent-cpu-seconds', '1', '--act-timeout-ms', '120000']));
    expect(result.status, result.stderr).toBe(4);
    expect(result.stderr).toContain('exceeded the CPU-time cap of 1 s per episode (--agent-cpu-seconds)');
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});

describe('containment checks that do not need the sandbox', () => {
  it('refuses a module that resolves through a symbolic link to outside --agent-path', async () => {
    const links = join(root, 'links');
    mkdirSync(join(root, 'outside'), { recursive: true });
    mkdirSync(links, { recursive: true });
    copyFileSync(join(FIXTURE, 'hostile.mjs'), join(root, 'outside', 'evil.mjs'));
    symlinkSync(join(root, 'outside', 'evil.mjs'), join(links, 'evil.mjs'));
    const result = await run(episode(['--agent', 'evil:makeForker', '--agent-path', links]));
    expect(result.status).toBe(4);
    expect(result.stderr).toContain('outside the --agent-path folders');
  });

  it('without a sandbox: one warning on stderr, isolation none; --require-isolation refuses (exit 4)', async () => {
    const off = { EMBER_AGENT_SANDBOX: 'off' };
    const human = await run(episode(['--agent', 'cli_agents:makeStay', '--agent-path', AGENTS]).filter((a) => a !== '--json'), { env: off });
    expect(human.status, human.stderr).toBe(0);
    const warnings = human.stderr.split('\n').filter((line) => line.startsWith('emberbench: warning: agents run without a sandbox (isolation: none)'));
    expect(warnings).toHaveLength(1);
    const refused = await run(episode(['--agent', 'cli_agents:makeStay', '--agent-path', AGENTS], ['--require-isolation']), { env: off });
    expect(refused.status).toBe(4);
    expect(refused.stderr).toContain('--require-isolation: no agent sandbox is available: EMBER_AGENT_SANDBOX=off');
  });

  it.skipIf(!sandboxed)('unsandboxed, the SIGTERM-proof child does outlive the episode (the check above can fail)', async () => {
    const mark = marker();
    const result = await run(episode(MODULE('makeForker'), ['--agent-env', 'HOSTILE_MARKER']), { env: { HOSTILE_MARKER: mark, EMBER_AGENT_SANDBOX: 'off' } });
    expect(result.status, result.stderr).toBe(0);
    const left = sleepers(mark);
    for (const pid of left) process.kill(pid, 'SIGKILL');
    expect(left.length).toBe(1);
  });
});
