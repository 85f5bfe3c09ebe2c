// Ctrl+C during a long computation (issue 26): the statistics bootstrap
// yields to the event loop between slices of work, so SIGINT exits 130 at
// once, with nothing left behind, instead of after the computation (a
// million resamples on the tiny suite take minutes). Progress is shown on
// stderr only when it is a terminal, never with --json.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyResultText } from '../kits/stats-results.js';
import { loadSuiteDir } from '../../src/node/inputs.js';
import { interruptAtProgress, type Interrupted } from './interrupt-kit.js';
import { FIXTURES, ROOT, startCli } from './run-cli.js';

const TINY_SUITE = join(ROOT, 'test', 'fixtures', 'suites', 'tiny');
const TERMINAL = join(FIXTURES, 'stderr-terminal.mjs');

let scratch: string;
let resultPath: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-cli-interrupt-'));
  resultPath = join(scratch, 'greedy.json');
  writeFileSync(resultPath, await tinyResultText(loadSuiteDir(TINY_SUITE), { modelId: 'greedy', agent: 'nearest-exit-greedy-v1', seeds: ['1', '2', '3'], failed: [4] }));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Starts a million-resample bootstrap, waits until its progress shows the bootstrap running, sends SIGINT. */
function interruptBootstrap(outDir: string, command: readonly string[]): Promise<Interrupted> {
  return interruptAtProgress([...command, '--resamples', '1000000', '--out', join(outDir, 'stats.json')], 'bootstrap resamples');
}

describe('SIGINT during a long computation', () => {
  it('statistics aggregate --resamples 1000000: exits 130 promptly, shows progress on a terminal, leaves no output', { timeout: 180_000 }, async () => {
    const delays: number[] = [];
    for (let run = 0; run < 3; run++) {
      const outDir = mkdtempSync(join(scratch, 'out-'));
      const result = await interruptBootstrap(outDir, ['statistics', 'aggregate', '--suite', TINY_SUITE, '--result', resultPath]);
      expect(result.code).toBe(130);
      expect(result.stdout).toBe('');
      // The progress line (carriage returns, no escape codes), blanked, then the error line.
      expect(result.stderr).toMatch(/^\rbootstrap resamples: \d+\/1000000 \(\d+%\)[^\n]*\r *\remberbench: error: interrupted\n$/);
      expect(result.stderr).not.toContain('\u001b');
      expect(readdirSync(outDir)).toEqual([]);
      delays.push(result.delayMs);
    }
    delays.sort((a, b) => a - b);
    // The measured figure, for the record (the uninterrupted run takes minutes).
    console.log(`SIGINT to exit during a million-resample bootstrap: median ${delays[1]!.toFixed(0)} ms (runs: ${delays.map((d) => d.toFixed(0)).join(', ')} ms)`);
    // Generous for a loaded machine; without the yields the delay is the whole computation (minutes).
    for (const delay of delays) expect(delay).toBeLessThan(5_000);
  });

  it('statistics compare goes the same way and --json shows no progress even on a terminal', { timeout: 120_000 }, async () => {
    const outDir = mkdtempSync(join(scratch, 'out-'));
    const child = startCli(
      ['statistics', 'compare', '--suite', TINY_SUITE, '--a', resultPath, '--b', resultPath, '--resamples', '1000', '--out', join(outDir, 'paired.json'), '--json'],
      { nodeArgs: ['--import', TERMINAL] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ command: 'statistics compare', resamples: 1000 });
  });
});
