// Network policy (cli-v1.0.md "Configuration, determinism and network
// policy"): every command runs in a process preloaded with a module that
// ends the process on any socket connect, DNS lookup, fetch or HTTP request.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENTS, CORRIDOR, NO_NETWORK, SUITE, runCli } from './run-cli.js';

const preload = ['--import', pathToFileURL(NO_NETWORK).href];
const scratch = mkdtempSync(join(tmpdir(), 'ember-cli-network-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the network guard itself', () => {
  const probes: [string, string][] = [
    ['fetch', "await fetch('http://127.0.0.1:9/')"],
    ['net.connect', "(await import('node:net')).connect(9, '127.0.0.1')"],
    ['named import connect', "const { connect } = await import('node:net'); connect(9, '127.0.0.1')"],
    ['dns.lookup', "(await import('node:dns')).lookup('example.org', () => {})"],
    ['dns.promises.lookup', "await (await import('node:dns')).promises.lookup('example.org')"],
    ['http.get', "(await import('node:http')).get('http://127.0.0.1:9/')"],
    ['https.request', "(await import('node:https')).request('https://127.0.0.1:9/')"],
  ];
  for (const [name, code] of probes) {
    it(`stops ${name} with exit 97`, () => {
      const result = spawnSync(process.execPath, [...preload, '--input-type=module', '-e', code], { encoding: 'utf8' });
      expect(result.status).toBe(97);
      expect(result.stderr).toMatch(/^network access denied: /);
    });
  }
});

describe('every command runs without the network', () => {
  const record = join(scratch, 'record.json');
  const commands: [string, string[]][] = [
    ['help', []],
    ['command help', ['episode', 'run', '--help']],
    ['version', ['version', '--json']],
    ['scenario validate', ['scenario', 'validate', CORRIDOR, '--json']],
    ['suite validate', ['suite', 'validate', SUITE, '--json']],
    ['episode run (builtin)', ['episode', 'run', '--scenario', CORRIDOR, '--seed', '5', '--agent', 'builtin:congestion-aware-v1', '--out', record, '--json']],
    ['replay verify', ['replay', 'verify', '--scenario', CORRIDOR, '--record', record, '--json']],
    [
      'episode run (module agent)',
      ['episode', 'run', '--scenario', CORRIDOR, '--seed', '5', '--agent', 'cli_agents:makeStay', '--agent-path', AGENTS, '--out', join(scratch, 'stay.json'), '--json'],
    ],
  ];
  for (const [name, args] of commands) {
    it(name, () => {
      const result = runCli(args, { nodeArgs: preload });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
    });
  }

  it('wrote the records', () => {
    expect(readFileSync(record, 'utf8').endsWith('\n')).toBe(true);
    expect(readFileSync(join(scratch, 'stay.json'), 'utf8').endsWith('\n')).toBe(true);
  });
});
