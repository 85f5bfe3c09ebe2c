// Ctrl+C during `archive import` and `archive export` (issue 26). The import
// of a 3,000-episode result replays every record and runs the bootstrap
// before its one write transaction; the export reads a trial's stored
// result (hundreds of MB here), checks it against its digest and writes it.
// Each is interrupted once its progress shows the work running: it must exit
// 130 with the interrupt message, leave the archive as it was (the same
// trials, `archive check` clean, no new file beside it) and leave no export
// folder or temporary folder.
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packArtifactAsync, putPacked, utf8 } from '../../src/node/archive/artifacts.js';
import { Archive } from '../../src/node/archive/archive.js';
import { buildTinyResult, TINY_SUITE } from '../eval/kit.js';
import { rawDatabase } from '../kits/archive-kit.js';
import { expectInterruptedStderr, interruptAtProgress, type Interrupted } from './interrupt-kit.js';
import { runCli } from './run-cli.js';

/** 1,000 seeds of the tiny suite's 3 scenarios: an import that replays for many seconds (about 4 MB). */
const BIG_SEEDS = Array.from({ length: 1000 }, (_, k) => String(k));
/** The stored result the export reads and writes: far more than a few slices of work. */
const EXPORT_BYTES = 400 << 20;
/** Generous for a loaded machine; without the slices the delay is the rest of the work. */
const DEADLINE_MS = 10_000;

let scratch: string;
let archiveDir: string;
let archivePath: string;
let bigResult: string;
const delays: string[] = [];

function cli(args: readonly string[]): ReturnType<typeof runCli> {
  const run = runCli(args);
  expect(run.status, run.stderr).toBe(0);
  return run;
}

/** What `archive list --json` shows of the archive's trials. */
function trials(archive: string): unknown {
  return JSON.parse(cli(['archive', 'list', '--archive', archive, '--json']).stdout).trials;
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-interrupt-archive-'));
  const small = await buildTinyResult(['1', '7', '9'], 'nearest-exit-greedy-v1', 'small-model');
  const smallResult = join(scratch, 'small.json');
  writeFileSync(smallResult, small.text);
  const big = await buildTinyResult(BIG_SEEDS, 'nearest-exit-greedy-v1', 'big-model');
  bigResult = join(scratch, 'big.json');
  writeFileSync(bigResult, big.text);
  archiveDir = mkdtempSync(join(scratch, 'archive-'));
  archivePath = join(archiveDir, 'archive.sqlite');
  cli(['archive', 'import', smallResult, '--suite', TINY_SUITE, '--archive', archivePath, '--json']);
}, 300_000);

afterAll(() => {
  // The measured figures, for the record.
  console.log(`SIGINT to exit:\n${delays.join('\n')}`);
  rmSync(scratch, { recursive: true, force: true });
});

/** The archive's own files: the database, its writer lock, and the log files SQLite keeps beside it (a reader leaves them). */
const ARCHIVE_FILES = new Set(['archive.sqlite', 'archive.sqlite-lock', 'archive.sqlite-wal', 'archive.sqlite-shm']);

/** Anything else beside the archive: a journal (`-lock-journal`: the writer lock not closed), a half-made archive, a temporary file. */
function strayFiles(dir: string): string[] {
  return readdirSync(dir).filter((name) => !ARCHIVE_FILES.has(name));
}

function expectInterrupted(name: string, run: Interrupted, progress: string): void {
  expect(run.code, run.stderr).toBe(130);
  expect(run.stdout).toBe('');
  expectInterruptedStderr(run.stderr, progress);
  delays.push(`  ${name}: ${run.delayMs.toFixed(0)} ms`);
  expect(run.delayMs).toBeLessThan(DEADLINE_MS);
}

describe('SIGINT during an archive command', () => {
  it('archive import: exits 130 while replaying and writes nothing (same trials, check clean, no file left beside the archive)', { timeout: 180_000 }, async () => {
    const before = trials(archivePath);
    const run = await interruptAtProgress(['archive', 'import', bigResult, '--suite', TINY_SUITE, '--archive', archivePath], 'replaying episodes');
    expectInterrupted('archive import', run, 'replaying episodes');
    expect(strayFiles(archiveDir)).toEqual([]);
    expect(trials(archivePath)).toEqual(before);
    expect(JSON.parse(cli(['archive', 'check', '--archive', archivePath, '--json']).stdout)).toMatchObject({ ok: true, trials_checked: 1, damaged_trials: [] });
    // The writer lock went with the process: the next import takes it.
    const again = runCli(['archive', 'import', join(scratch, 'small.json'), '--archive', archivePath, '--json']);
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).imported).toEqual([{ duplicate: true, file: join(scratch, 'small.json'), trial: 1 }]);
  });

  it('archive export: exits 130 while writing and leaves no folder and no temporary folder', { timeout: 180_000 }, async () => {
    // A copy of the archive whose trial holds a large stored result (an
    // export copies the stored bytes after checking their digest; it does
    // not authenticate them, so any bytes serve here).
    const copyDir = mkdtempSync(join(scratch, 'archive-big-'));
    const copy = join(copyDir, 'archive.sqlite');
    copyFileSync(archivePath, copy);
    const archive = Archive.open(copy, { mode: 'write' });
    try {
      const unit = utf8(`${'{"episodes":[]}'.repeat(4096)}\n`);
      const bytes = Buffer.alloc(EXPORT_BYTES);
      for (let at = 0; at < bytes.length; at += unit.length) unit.copy(bytes, at);
      const packed = await packArtifactAsync('result', bytes);
      const db = rawDatabase(archive);
      db.transaction(() => {
        putPacked(archive, packed);
        db.prepare('UPDATE trials SET result_digest = ? WHERE trial_id = 1').run(packed.digest);
      })();
    } finally {
      archive.close();
    }
    const outDir = mkdtempSync(join(scratch, 'out-'));
    const run = await interruptAtProgress(['archive', 'export', '1', '--archive', copy, '--out', join(outDir, 'trial-1')], 'writing export');
    expectInterrupted('archive export', run, 'writing export');
    expect(readdirSync(outDir)).toEqual([]);
    expect(strayFiles(copyDir)).toEqual([]);
  });
});
