// Progress of a long command (pack verify here, in-process through main):
// shown on stderr only when it is a terminal, never with --json, and never
// changing stdout.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildManifest, manifestText } from '../core/eval/manifest.js';
import { buildPack } from '../node/pack.js';
import { loadSuiteDir } from '../node/inputs.js';
import type { CliIO } from './io.js';
import { main } from './main.js';

const TINY_SUITE = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'suites', 'tiny');

let scratch: string;
let pack: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-progress-'));
  // Enough episodes (about a second of recomputation) for several progress slices.
  const seeds = Array.from({ length: 600 }, (_, k) => String(k));
  const manifest = join(scratch, 'manifest.json');
  writeFileSync(manifest, manifestText(buildManifest(loadSuiteDir(TINY_SUITE), seeds)));
  pack = join(scratch, 'pack');
  await buildPack(TINY_SUITE, manifest, pack);
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function verify(extra: readonly string[], stderrIsTerminal: boolean): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), stderrIsTerminal };
  const code = await main(['pack', 'verify', pack, ...extra], io);
  return { code, out: out.join(''), err: err.join('') };
}

describe('progress of pack verify', () => {
  it('shows one line rewritten in place on a terminal, blanked at the end', { timeout: 120_000 }, async () => {
    const run = await verify([], true);
    expect(run.code).toBe(0);
    expect(run.err).toMatch(/^\rrecomputing pack episodes: \d+\/1800 \(\d+%\)[^\n]*\r *\r$/);
    expect(run.err).not.toContain('\u001b');
    expect(run.out).toContain('episode_count: 1800');
  });

  it('shows nothing when stderr is not a terminal', { timeout: 120_000 }, async () => {
    const run = await verify([], false);
    expect(run.code).toBe(0);
    expect(run.err).toBe('');
  });

  it('shows nothing with --json, even on a terminal, and stdout is the same JSON', { timeout: 120_000 }, async () => {
    const onTerminal = await verify(['--json'], true);
    const offTerminal = await verify(['--json'], false);
    expect(onTerminal.err).toBe('');
    expect(onTerminal.code).toBe(0);
    expect(onTerminal.out).toBe(offTerminal.out);
    expect(JSON.parse(onTerminal.out)).toMatchObject({ command: 'pack verify', verified: true, episode_count: 1800 });
  });
});
