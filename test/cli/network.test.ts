// Network policy (cli-v1.0.md "Configuration, determinism and network
// policy"): every command runs in a process preloaded with a module that
// ends the process on any socket connect, DNS lookup, fetch or HTTP request.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_MODULES } from '../../src/cli/registry.js';
import { buildCommandTree, type CommandNode } from '../../src/cli/tree.js';
import { buildOperationalRecord, operationalRecordText } from '../../src/core/scoring/operational.js';
import { Rational } from '../../src/core/stats/rational.js';
import { AGENTS, CORRIDOR, NO_NETWORK, SUITE, runCli, startCli } from './run-cli.js';

const preload = ['--import', pathToFileURL(NO_NETWORK).href];

/** A small generator configuration (as test/cli/generated.test.ts). */
const GENERATOR_CONFIG = {
  generator_config_version: '1.0',
  suite_id: 'net-gen',
  suite_version: '1.0',
  visibility: 'public',
  seed_role: 'evaluation',
  families: [{ family: 'single_exit_low_density', count: 1, rows: [8, 10], cols: [10, 14], people: [4, 8], spread_permille: [100, 180], max_steps: [40, 50] }],
};
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
    ['dns.lookup of a name', "(await import('node:dns')).lookup('localhost', () => {})"],
    ['net.connect to a numeric string port', "(await import('node:net')).connect('9', '127.0.0.1')"],
  ];
  for (const [name, code] of probes) {
    it(`stops ${name} with exit 97`, () => {
      const result = spawnSync(process.execPath, [...preload, '--input-type=module', '-e', code], { encoding: 'utf8' });
      expect(result.status).toBe(97);
      expect(result.stderr).toMatch(/^network access denied: /);
    });
  }
});

it('lets local IPC through: a Unix socket and the lookup of an IP literal ask no network', () => {
  const code = [
    "const net = await import('node:net'); const dns = await import('node:dns');",
    "const path = (await import('node:path')).join((await import('node:os')).tmpdir(), `ember-guard-${process.pid}.sock`);",
    'const server = net.createServer((s) => s.end()); await new Promise((r) => server.listen(path, r));',
    "await new Promise((r, j) => net.connect(path).on('connect', r).on('error', j));",
    "await new Promise((r, j) => dns.lookup('127.0.0.1', (e) => (e ? j(e) : r())));",
    "server.close(); process.stdout.write('ok');",
  ].join('\n');
  const result = spawnSync(process.execPath, [...preload, '--input-type=module', '-e', code], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  expect([result.status, result.stdout]).toEqual([0, 'ok']);
});

describe('every command runs without the network', () => {
  const at = (name: string): string => join(scratch, name);
  const record = at('record.json');
  const covered = new Set<string>();
  // In order: later commands read what earlier ones wrote.
  const commands: [string, string[]][] = [
    ['help', ['--help']],
    ['command help', ['episode', 'run', '--help']],
    ['version', ['version', '--json']],
    ['scenario validate', ['scenario', 'validate', CORRIDOR, '--json']],
    ['suite validate', ['suite', 'validate', SUITE, '--json']],
    ['generated create', ['generated', 'create', '--config', at('generator.json'), '--batch-seed', '11', '--out', at('generated'), '--json']],
    ['generated validate', ['generated', 'validate', at('generated'), '--json']],
    ['episode run (builtin)', ['episode', 'run', '--scenario', CORRIDOR, '--seed', '5', '--agent', 'builtin:congestion-aware-v1', '--out', record, '--json']],
    ['replay verify', ['replay', 'verify', '--scenario', CORRIDOR, '--record', record, '--json']],
    [
      'episode run (module agent)',
      ['episode', 'run', '--scenario', CORRIDOR, '--seed', '5', '--agent', 'cli_agents:makeStay', '--agent-path', AGENTS, '--out', at('stay.json'), '--json'],
    ],
    ['evaluation manifest', ['evaluation', 'manifest', '--suite', SUITE, '--seed', '1', '--seed', '2', '--out', at('manifest.json'), '--json']],
    ['evaluation run (builtin)', ['evaluation', 'run', '--suite', SUITE, '--manifest', at('manifest.json'), '--model-id', 'congestion', '--agent', 'builtin:congestion-aware-v1', '--out', at('a.json'), '--json']],
    [
      'evaluation run (module agent)',
      ['evaluation', 'run', '--suite', SUITE, '--manifest', at('manifest.json'), '--model-id', 'stay', '--agent', 'cli_agents:makeStay', '--agent-path', AGENTS, '--out', at('b.json'), '--json'],
    ],
    ['evaluation run (shard 1/2)', ['evaluation', 'run', '--suite', SUITE, '--manifest', at('manifest.json'), '--model-id', 'congestion', '--agent', 'builtin:congestion-aware-v1', '--shard', '1/2', '--out', at('s1.json'), '--json']],
    ['evaluation run (shard 2/2)', ['evaluation', 'run', '--suite', SUITE, '--manifest', at('manifest.json'), '--model-id', 'congestion', '--agent', 'builtin:congestion-aware-v1', '--shard', '2/2', '--out', at('s2.json'), '--json']],
    ['evaluation merge', ['evaluation', 'merge', at('s1.json'), at('s2.json'), '--suite', SUITE, '--manifest', at('manifest.json'), '--out', at('merged.json'), '--json']],
    ['evaluation verify', ['evaluation', 'verify', '--suite', SUITE, '--result', at('a.json'), '--manifest', at('manifest.json'), '--json']],
    ['statistics aggregate', ['statistics', 'aggregate', '--suite', SUITE, '--result', at('a.json'), '--out', at('aggregate.json'), '--json']],
    ['statistics compare', ['statistics', 'compare', '--suite', SUITE, '--a', at('a.json'), '--b', at('b.json'), '--out', at('paired.json'), '--json']],
    ['pack build', ['pack', 'build', '--suite', SUITE, '--manifest', at('manifest.json'), '--out', at('pack'), '--json']],
    ['pack verify', ['pack', 'verify', '--pack', at('pack'), '--json']],
    ['score', ['score', '--pack', at('pack'), '--result', at('a.json'), '--out', at('score-a.json'), '--json']],
    ['score (second report)', ['score', '--pack', at('pack'), '--result', at('b.json'), '--out', at('score-b.json'), '--json']],
    ['score compare', ['score', 'compare', '--a', at('score-a.json'), '--b', at('score-b.json'), '--out', at('compare.json'), '--json']],
    ['leaderboard', ['leaderboard', '--report', at('score-a.json'), '--report', at('score-b.json'), '--json']],
    ['scoring table', ['scoring', 'table', '--json']],
    ['operational validate', ['operational', 'validate', '--record', at('operational.json'), '--report', at('score-a.json'), '--json']],
    ['bundle create', ['bundle', 'create', '--pack', at('pack'), '--result', at('a.json'), '--out', at('bundle'), '--json']],
    ['bundle verify', ['bundle', 'verify', at('bundle'), '--json']],
    ['report html', ['report', 'html', '--bundle', at('bundle'), '--out', at('report.html'), '--json']],
    ['archive import', ['archive', 'import', at('a.json'), '--archive', at('archive.sqlite'), '--suite', SUITE, '--json']],
    ['archive list', ['archive', 'list', '--archive', at('archive.sqlite'), '--json']],
    ['archive export', ['archive', 'export', '1', '--archive', at('archive.sqlite'), '--out', at('exported'), '--json']],
    ['archive check', ['archive', 'check', '--archive', at('archive.sqlite'), '--json']],
    ['archive delete', ['archive', 'delete', '--archive', at('archive.sqlite'), '--trial', '1', '--json']],
    ['keys create', ['keys', 'create', '--out', at('key.json'), '--json']],
    ['keys show', ['keys', 'show', at('key.json'), '--json']],
    ['result sign', ['result', 'sign', '--result', at('a.json'), '--key', at('key.json'), '--signed-at', '2026-01-01T00:00:00Z', '--json']],
    ['result verify', ['result', 'verify', '--result', at('a.json'), '--json']],
    ['bundle sign', ['bundle', 'sign', '--bundle', at('bundle'), '--key', at('key.json'), '--signed-at', '2026-01-01T00:00:00Z', '--json']],
    ['shard plan', ['shard', 'plan', '--backend', 'slurm', '--shards', '2', '--run-dir', at('run'), '--out', at('plan'), '--json']],
    // The plan's prepare step puts run.json into the run folder; status then lists the (missing) shards.
    ['evaluation status', ['evaluation', 'status', '--run-dir', at('run'), '--json']],
  ];
  // `serve` runs until stopped: a test of its own below starts it, asks it for its page and stops it.

  beforeAll(() => {
    writeFileSync(at('generator.json'), JSON.stringify(GENERATOR_CONFIG));
    const operational = buildOperationalRecord({
      modelId: 'congestion',
      providerId: 'local',
      inferenceConfigDigest: 'b'.repeat(64),
      trials: 1,
      episodes: 4,
      latencySeconds: '2.5',
      inputTokens: 0,
      outputTokens: 0,
      cost: { amount: Rational.parse('9/2'), unit: 'USD' },
      retries: 0,
      timeouts: 0,
    });
    writeFileSync(at('operational.json'), operationalRecordText(operational));
  });

  for (const [name, args] of commands) {
    it(name, () => {
      if (name === 'evaluation status') {
        mkdirSync(at('run'), { recursive: true });
        copyFileSync(at('plan/run.json'), at('run/run.json'));
      }
      const result = runCli(args, { nodeArgs: preload });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      const words = args.filter((a) => /^[a-z]+$/.test(a)).slice(0, 2).join(' ');
      covered.add(words);
    });
  }

  it('serve (listens on 127.0.0.1, answers, stops on SIGTERM, never connects out)', async () => {
    const child = startCli(['serve', '--no-open', '--port', '0', '--archive', at('serve.sqlite')], { nodeArgs: preload });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        // The whole line: a chunk may end inside the token.
        const found = /(http:\/\/127\.0\.0\.1:[0-9]+\/\S*)\r?\n/.exec(stdout);
        if (found) resolve(found[1]!);
      });
      void exited.then((code) => reject(new Error(`serve exited (${code}) before printing its URL: ${stderr}`)));
    });
    // An inbound request from this (unguarded) process; the server itself must connect nowhere.
    // The launch URL trades its token for a cookie: a redirect.
    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(302);
    child.kill('SIGTERM');
    const code = await exited;
    expect(stderr).not.toMatch(/network access denied/);
    expect([0, 130]).toContain(code);
    covered.add('serve');
  });

  it('wrote the records', () => {
    expect(readFileSync(record, 'utf8').endsWith('\n')).toBe(true);
    expect(readFileSync(at('stay.json'), 'utf8').endsWith('\n')).toBe(true);
  });

  it('covered every command of the command tree', () => {
    const missing: string[] = [];
    const visit = (node: CommandNode): void => {
      if (node.command && !covered.has(node.path.join(' '))) missing.push(node.path.join(' '));
      for (const child of node.children.values()) visit(child);
    };
    visit(buildCommandTree(COMMAND_MODULES));
    expect(missing).toEqual([]);
  });
});
