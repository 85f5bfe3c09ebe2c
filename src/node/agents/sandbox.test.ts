import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentError } from '../../core/errors.js';
import { blockedFor, commandFolders, containedAgentModule, installationFolder, isInside, isSharedFolder } from './sandbox.js';
import { agentEnvironment, exceededCap, sandboxLaunch, withMemoryCapNote } from './sandbox-launch.js';
import { DEFAULT_AGENT_SANDBOX_OPTIONS, type AgentSandboxOptions } from './sandbox-options.js';

const dir = mkdtempSync(join(tmpdir(), 'ember-sandbox-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const options = (over: Partial<AgentSandboxOptions> = {}): AgentSandboxOptions => ({ ...DEFAULT_AGENT_SANDBOX_OPTIONS, ...over });

describe('what an agent may read', () => {
  it('isInside compares whole path segments', () => {
    expect(isInside('/a/b/c', '/a/b')).toBe(true);
    expect(isInside('/a/b', '/a/b')).toBe(true);
    expect(isInside('/a/bc', '/a/b')).toBe(false);
  });

  it('an interpreter is bound by its installation folder, never the home folder, system paths not at all', () => {
    expect(installationFolder('/usr/bin/python3')).toBeUndefined();
    expect(installationFolder('/opt/py/3.12/bin/python3')).toBe('/opt/py/3.12');
    expect(installationFolder(join(homedir(), '.pyenv', 'versions', '3.12.1', 'bin', 'python3'))).toBe(join(homedir(), '.pyenv', 'versions', '3.12.1'));
    expect(installationFolder(join(homedir(), '.pyenv', 'shims', 'python3'))).toBe(join(homedir(), '.pyenv'));
    // ~/bin/tool: the parent would be the home itself; the bin folder only.
    expect(installationFolder(join(homedir(), 'bin', 'tool'))).toBe(join(homedir(), 'bin'));
    // A program directly in a shared folder brings no folder with it: the file alone.
    expect(installationFolder(join(homedir(), 'tool'))).toBe(join(homedir(), 'tool'));
    expect(installationFolder('/tmp/agent')).toBe('/tmp/agent');
    expect(installationFolder('/agent')).toBe('/agent');
  });

  it('a shared folder is /, the home and its ancestors, and any world-writable or sticky folder', () => {
    for (const shared of ['/', homedir(), '/tmp']) expect(isSharedFolder(shared), shared).toBe(true);
    const own = join(dir, 'own');
    mkdirSync(own);
    expect(isSharedFolder(own)).toBe(false);
    chmodSync(own, 0o1777);
    expect(isSharedFolder(own)).toBe(true);
  });

  it('a program or script in /tmp or / brings the file alone; a program inside --agent-path brings no parent', () => {
    const script = join('/tmp', `ember-sandbox-test-${process.pid}.py`);
    writeFileSync(script, '');
    try {
      expect(commandFolders('/usr/bin/python3', [script], [])).toEqual([script]);
      expect(commandFolders(script, [], [])).toEqual([script]);
    } finally {
      rmSync(script, { force: true });
    }
    const x = join(dir, 'x');
    mkdirSync(join(x, 'bin'), { recursive: true });
    writeFileSync(join(x, 'bin', 'agent'), '');
    // Before: the program's "installation" (the parent of bin/) made X readable.
    expect(commandFolders(join(x, 'bin', 'agent'), [], [join(x, 'bin')])).toEqual([join(x, 'bin')]);
  });

  it('finds the first folder a uid cannot search, or the file it cannot read', () => {
    const locked = join(dir, 'locked');
    mkdirSync(join(locked, 'inner'), { recursive: true });
    writeFileSync(join(locked, 'inner', 'file'), '');
    chmodSync(dir, 0o755);
    chmodSync(locked, 0o700);
    chmodSync(join(locked, 'inner', 'file'), 0o644);
    expect(blockedFor(join(locked, 'inner', 'file'), 65534, 65534)).toBe(locked);
    chmodSync(locked, 0o755);
    expect(blockedFor(join(locked, 'inner', 'file'), 65534, 65534)).toBeUndefined();
    chmodSync(join(locked, 'inner', 'file'), 0o600);
    expect(blockedFor(join(locked, 'inner', 'file'), 65534, 65534)).toBe(join(locked, 'inner', 'file'));
    expect(blockedFor(join(locked, 'missing'), 65534, 65534)).toBeUndefined();
  });

  it('a command reads its --agent-path folders, or else the folder of its script', () => {
    const agent = join(dir, 'cmd-agent');
    mkdirSync(agent);
    writeFileSync(join(agent, 'agent.py'), '');
    expect(commandFolders('/usr/bin/python3', [join(agent, 'agent.py'), 'good'], [])).toEqual([agent]);
    expect(commandFolders('/usr/bin/python3', [join(agent, 'agent.py')], [dir])).toEqual([dir]);
    expect(commandFolders('/usr/bin/python3', ['-c', 'print(1)'], [])).toEqual([]);
  });

  it('resolves symbolic links before the containment check', () => {
    const inside = join(dir, 'links');
    mkdirSync(join(dir, 'outside'));
    mkdirSync(inside);
    writeFileSync(join(dir, 'outside', 'evil.mjs'), '');
    writeFileSync(join(inside, 'good.mjs'), '');
    symlinkSync(join(dir, 'outside', 'evil.mjs'), join(inside, 'evil.mjs'));
    expect(containedAgentModule(join(inside, 'good.mjs'), [inside], 'good')).toEqual({ file: join(inside, 'good.mjs'), folders: [inside] });
    expect(() => containedAgentModule(join(inside, 'evil.mjs'), [inside], 'evil')).toThrow(AgentError);
    expect(() => containedAgentModule(join(inside, 'evil.mjs'), [inside], 'evil')).toThrow(
      `cannot import agent module evil: ${join(inside, 'evil.mjs')} resolves to ${join(dir, 'outside', 'evil.mjs')}, outside the --agent-path folders (${inside}); symbolic links must stay inside them`,
    );
  });
});

describe('environment and launch', () => {
  it('passes only the allowlist and the --agent-env names; HOME and TMPDIR are the private tmp', () => {
    process.env.EMBER_SANDBOX_TEST_SECRET = 'secret';
    process.env.EMBER_SANDBOX_TEST_GIVEN = 'given';
    try {
      const env = agentEnvironment(options({ env: ['EMBER_SANDBOX_TEST_GIVEN'] }), '/tmp');
      expect(env.EMBER_SANDBOX_TEST_SECRET).toBeUndefined();
      expect(env.EMBER_SANDBOX_TEST_GIVEN).toBe('given');
      expect([env.HOME, env.TMPDIR]).toEqual(['/tmp', '/tmp']);
      expect(env.PATH).toBe(process.env.PATH);
      expect(Object.keys(env).every((k) => ['PATH', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'LC_NUMERIC', 'TZ', 'TERM', 'HOME', 'TMPDIR', 'EMBER_SANDBOX_TEST_GIVEN'].includes(k))).toBe(true);
    } finally {
      delete process.env.EMBER_SANDBOX_TEST_SECRET;
      delete process.env.EMBER_SANDBOX_TEST_GIVEN;
    }
  });

  it('without a sandbox: a private temporary folder, removed by cleanup, the launcher and the caps through prlimit when present', () => {
    const launch = sandboxLaunch({ isolation: 'none', options: options({ cpuSeconds: 5 }), readOnly: [] }, '/usr/bin/true', ['x']);
    const all = [launch.command, ...launch.args];
    expect(all.slice(-2)).toEqual(['/usr/bin/true', 'x']);
    if (all.some((a) => a.endsWith('prlimit'))) expect(all.slice(-6)).toEqual([expect.stringMatching(/prlimit$/), `--data=${4 * 1024 ** 3}`, '--cpu=5:6', '--', '/usr/bin/true', 'x']);
    // On Linux the bash launcher comes first: control descriptor 3, closed before the agent starts.
    if (process.platform === 'linux') expect([launch.command.endsWith('bash'), ...launch.args.slice(3, 5), launch.controlFd]).toEqual([true, '3', '0', 3]);
    expect(launch.sandboxed).toBe(false);
    expect(launch.env.HOME).toBe(launch.env.TMPDIR);
    launch.cleanup();
  });
});

describe('exceeded caps', () => {
  const capped = options({ memoryBytes: 256 * 1024 * 1024, cpuSeconds: 2 });
  it('names the CPU cap from SIGXCPU, directly or as bubblewrap reports it', () => {
    expect(exceededCap(capped, { code: null, signal: 'SIGXCPU' }, '')).toBe('the CPU-time cap of 2 s per episode (--agent-cpu-seconds)');
    expect(exceededCap(capped, { code: 152, signal: null }, '')).toBe('the CPU-time cap of 2 s per episode (--agent-cpu-seconds)');
    expect(exceededCap(options(), { code: 152, signal: null }, '')).toBeUndefined();
  });

  it('names the cap the watchdog or the cgroup saw over the whole tree, whatever the exit', () => {
    const killed = { code: null, signal: 'SIGKILL' };
    expect(exceededCap(capped, killed, '', 'memory')).toBe('the memory cap of 256 MiB (--agent-memory)');
    expect(exceededCap(capped, killed, '', 'cpu')).toBe('the CPU-time cap of 2 s per episode (--agent-cpu-seconds)');
    expect(exceededCap(capped, killed, '', 'processes')).toBe('the process cap of 256 (--agent-max-processes)');
    expect(exceededCap(capped, killed, '')).toBeUndefined();
  });

  it('names the memory cap from an out-of-memory report of a failed process', () => {
    const cap = 'the memory cap of 256 MiB (--agent-memory)';
    expect(exceededCap(capped, { code: 134, signal: null }, 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory')).toBe(cap);
    expect(exceededCap(capped, { code: 1, signal: null }, 'Traceback (most recent call last):\nMemoryError')).toBe(cap);
    expect(exceededCap(capped, { code: 0, signal: null }, 'MemoryError')).toBeUndefined();
    expect(exceededCap(capped, { code: 1, signal: null }, 'ValueError')).toBeUndefined();
  });

  it('names the memory cap in an allocation failure the agent reported itself', () => {
    expect(withMemoryCapNote('RangeError: Array buffer allocation failed', capped)).toBe(
      'RangeError: Array buffer allocation failed (the agent ran into the memory cap of 256 MiB (--agent-memory))',
    );
    expect(withMemoryCapNote('Error: boom', capped)).toBe('Error: boom');
    expect(withMemoryCapNote('RangeError: Array buffer allocation failed', undefined)).toBe('RangeError: Array buffer allocation failed');
  });
});
