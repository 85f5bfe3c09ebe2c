// A pack build SIGKILLed between reserving its output folder and publishing it
// (issue 26) leaves the placeholder naming its owner; a retry clears it, with a
// notice, and builds the pack. A placeholder of a live process is refused naming it.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildManifest, manifestText } from '../../src/core/eval/manifest.js';
import { loadSuiteDir } from '../../src/node/inputs.js';
import { OWNER_MARK } from '../../src/node/output-placeholder.js';
import { TINY_SUITE } from '../eval/kit.js';
import { FIXTURES, ROOT, cliArgv, jsonError, runCli } from './run-cli.js';

const STALL = join(FIXTURES, 'stall-pack-write.mjs');

let scratch: string;
let manifestPath: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-cli-placeholder-'));
  manifestPath = join(scratch, 'manifest.json');
  writeFileSync(manifestPath, manifestText(buildManifest(loadSuiteDir(TINY_SUITE), ['3'])));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Starts a pack build that stalls writing pack.json; resolves once it is stalled there. */
async function stalledBuild(out: string): Promise<ReturnType<typeof spawn>> {
  const child = spawn(process.execPath, cliArgv(['pack', 'build', '--suite', TINY_SUITE, '--manifest', manifestPath, '--out', out], { nodeArgs: ['--import', STALL] }), { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  await new Promise<void>((done, fail) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('stalled\n')) done();
    });
    child.on('exit', (code) => fail(new Error(`pack build ended (${code}) before it stalled: ${stderr}`)));
  });
  return child;
}

describe('the placeholder of an output folder', () => {
  it('left by a SIGKILLed pack build: a retry clears it (with a notice) and builds the pack', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(scratch, 'killed-'));
    const out = join(dir, 'pack');
    const child = await stalledBuild(out);
    expect(readdirSync(out)).toEqual([OWNER_MARK]);
    expect(JSON.parse(readFileSync(join(out, OWNER_MARK), 'utf8'))).toMatchObject({ pid: child.pid });
    child.kill('SIGKILL');
    await new Promise((done) => child.on('close', done));
    // The placeholder and the dead build's temporary folder are left.
    expect(readdirSync(dir).length).toBe(2);

    const retry = runCli(['pack', 'build', '--suite', TINY_SUITE, '--manifest', manifestPath, '--out', out]);
    expect(retry.status).toBe(0);
    expect(retry.stderr).toContain(`emberbench: cleared the output placeholder ${out} left by a process that is no longer running on this host (pid ${child.pid} on host`);
    expect(readdirSync(out).sort()).toEqual(['manifest.json', 'pack.json', 'suite']);
    // The dead build's temporary folder went with its placeholder.
    expect(readdirSync(dir)).toEqual(['pack']);
    expect(runCli(['pack', 'verify', out]).status).toBe(0);
  });

  it('of a live build is refused naming it (exit 6) and left alone; --json shows no notice', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(scratch, 'live-'));
    const out = join(dir, 'pack');
    const child = await stalledBuild(out);
    try {
      const second = runCli(['pack', 'build', '--suite', TINY_SUITE, '--manifest', manifestPath, '--out', out, '--json']);
      expect(second.status).toBe(6);
      expect(jsonError(second.stderr).message).toContain(`output directory ${out} is being written by another process (pid ${child.pid} on host`);
      expect(readdirSync(out)).toEqual([OWNER_MARK]);
    } finally {
      child.kill('SIGKILL');
      await new Promise((done) => child.on('close', done));
    }
    const retry = runCli(['pack', 'build', '--suite', TINY_SUITE, '--manifest', manifestPath, '--out', out, '--json']);
    expect(retry.stderr).toBe('');
    expect(retry.status).toBe(0);
  });

  it('an empty folder, or a placeholder from another host, is never cleared', () => {
    const dir = mkdtempSync(join(scratch, 'other-'));
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const onEmpty = runCli(['pack', 'build', '--suite', TINY_SUITE, '--manifest', manifestPath, '--out', empty, '--json']);
    expect(onEmpty.status).toBe(6);
    expect(jsonError(onEmpty.stderr).message).toBe(`output directory exists (a pack is always built into a new directory): ${empty}`);
    const foreign = join(dir, 'foreign');
    mkdirSync(foreign);
    const mark = { ember_lock: '1', pid: 1, host: 'elsewhere', boot_id: 'b', pid_ns: 'p', start_ticks: '1', started_at: '2026-12-02T00:00:00.000Z', nonce: 'n' };
    writeFileSync(join(foreign, OWNER_MARK), JSON.stringify(mark) + '\n');
    const onForeign = runCli(['pack', 'build', '--suite', TINY_SUITE, '--manifest', manifestPath, '--out', foreign, '--json']);
    expect(onForeign.status).toBe(6);
    expect(jsonError(onForeign.stderr).message).toBe(
      `output directory ${foreign} was reserved by a process on another host or container (pid 1 on host elsewhere, started 2026-12-02T00:00:00.000Z); if no emberbench process there writes it any more, remove ${foreign} and run again`,
    );
    expect(readdirSync(empty)).toEqual([]);
    expect(readdirSync(foreign)).toEqual([OWNER_MARK]);
  });
});
