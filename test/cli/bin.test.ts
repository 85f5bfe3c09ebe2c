// The npm bin: bin/emberbench.js runs the compiled CLI in dist/.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './run-cli.js';

const BIN = join(ROOT, 'bin', 'emberbench.js');
const hasDist = existsSync(join(ROOT, 'dist', 'cli', 'main.js'));

describe('bin/emberbench.js', () => {
  it.skipIf(!hasDist)('runs the built CLI: same bytes as the source entry', () => {
    const bin = spawnSync(process.execPath, [BIN, 'version', '--json'], { cwd: tmpdir(), encoding: 'utf8' });
    expect(bin.stderr).toBe('');
    expect(bin.status).toBe(0);
    expect(bin.stdout).toBe(runCli(['version', '--json']).stdout);
    const usage = spawnSync(process.execPath, [BIN, 'nope', '--json'], { cwd: tmpdir(), encoding: 'utf8' });
    expect(usage.status).toBe(2);
    expect(usage.stdout).toBe('');
  });

  it('says to run npm run build when dist is missing, and exits 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ember-bin-'));
    try {
      mkdirSync(join(dir, 'bin'));
      copyFileSync(BIN, join(dir, 'bin', 'emberbench.js'));
      const result = spawnSync(process.execPath, [join(dir, 'bin', 'emberbench.js'), 'version'], { encoding: 'utf8' });
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe('emberbench: dist/cli/main.js is missing; run `npm run build` first\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
