// Determinism (cli-v1.0.md): the same command with the same input files
// gives byte-identical output files and stdout from any current directory
// and under any environment variables. Relative paths resolve against the
// current directory and nothing else is taken from it.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENTS, CORRIDOR, runCli } from './run-cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'ember-cli-determinism-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function workspace(name: string): string {
  const dir = join(scratch, name, 'deeper');
  mkdirSync(dir, { recursive: true });
  copyFileSync(CORRIDOR, join(dir, 'scenario.json'));
  return dir;
}

const envA: NodeJS.ProcessEnv = { ...process.env, TZ: 'UTC', LANG: 'C', LC_ALL: 'C' };
const envB: NodeJS.ProcessEnv = {
  ...process.env,
  TZ: 'Pacific/Chatham',
  LANG: 'tr_TR.UTF-8',
  LC_ALL: 'tr_TR.UTF-8',
  PYTHONHASHSEED: '12345',
  EMBER_SEED: '99',
  EMBERBENCH_CONFIG: join(scratch, 'nonexistent.json'),
  HOME: scratch,
};

describe('episode run is byte-identical across working directories and environments', () => {
  for (const agent of ['builtin:random-legal-v1', 'builtin:congestion-aware-v1', 'cli_agents:makeStay']) {
    it(agent, () => {
      const tag = agent.replace(/[^a-z]/g, '');
      const dirA = workspace(`a-${tag}`);
      const dirB = workspace(`b-${tag}-other`);
      const args = ['episode', 'run', '--scenario', 'scenario.json', '--seed', '18446744073709551615', '--agent', agent, '--agent-path', AGENTS, '--out', 'record.json', '--json'];
      const a = runCli(args, { cwd: dirA, env: envA });
      // The order of options does not matter either.
      const reordered = ['episode', 'run', '--json', '--out', 'record.json', '--agent-path', AGENTS, '--agent', agent, '--seed', '18446744073709551615', '--scenario', 'scenario.json'];
      const b = runCli(reordered, { cwd: dirB, env: envB });
      expect(a.stderr).toBe('');
      expect(b.stderr).toBe('');
      expect(a.status).toBe(0);
      expect(b.status).toBe(0);
      expect(b.stdout).toBe(a.stdout);
      const recordA = readFileSync(join(dirA, 'record.json'));
      expect(readFileSync(join(dirB, 'record.json')).equals(recordA)).toBe(true);
      expect(readdirSync(dirA).sort()).toEqual(['record.json', 'scenario.json']);
      expect(readdirSync(dirB).sort()).toEqual(['record.json', 'scenario.json']);
      // No path of either workspace reaches the record or the report.
      for (const text of [recordA.toString('utf8'), a.stdout]) {
        expect(text).not.toContain(scratch);
        expect(text).not.toContain('deeper');
      }
    });
  }

  it('replay verify and version print the same bytes in both places', () => {
    const dirA = workspace('verify-a');
    const dirB = workspace('verify-b');
    const run = runCli(['episode', 'run', '--scenario', 'scenario.json', '--seed', '7', '--agent', 'builtin:nearest-exit-greedy-v1', '--out', 'r.json'], { cwd: dirA });
    expect(run.status).toBe(0);
    copyFileSync(join(dirA, 'r.json'), join(dirB, 'r.json'));
    for (const args of [['replay', 'verify', '--scenario', 'scenario.json', '--record', 'r.json', '--json'], ['version', '--json'], ['version']]) {
      const a = runCli(args, { cwd: dirA, env: envA });
      const b = runCli(args, { cwd: dirB, env: envB });
      expect(a.status).toBe(0);
      expect(b.stdout).toBe(a.stdout);
    }
  });
});
