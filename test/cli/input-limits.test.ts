// Inputs without bounds must not crash a command (issue: 5,000 nested arrays
// overflowed the stack, exit 1; a 200 MB string field aborted V8, exit 134).
// Both are exit 3 now, fast, and the huge one in bounded memory: the size is
// checked before the file is read (docs/formats.md "Input size limits").
import { spawnSync } from 'node:child_process';
import { accessSync, closeSync, constants, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/core/json/strict-parse.js';
import { INPUT_SIZE_LIMITS, MAX_RESULT_STRING_BYTES } from '../../src/node/inputs.js';
import { cliArgv, jsonError, runCli } from './run-cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'ember-cli-limits-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const DATA_CAP = 192 * 1024 * 1024;

/**
 * prlimit, when this machine has it and this Node starts at all under the
 * 192 MiB data cap: Node 24's V8 reserves more address space than that
 * before it runs a line (it needs 512 to 768 MiB), so there the
 * bounded-memory half of these tests cannot be run and is skipped.
 */
function prlimitPath(): string | undefined {
  for (const path of ['/usr/bin/prlimit', '/bin/prlimit']) {
    try {
      accessSync(path, constants.X_OK);
    } catch {
      continue;
    }
    return spawnSync(path, [`--data=${DATA_CAP}`, '--', process.execPath, '-e', '0']).status === 0 ? path : undefined;
  }
  return undefined;
}

describe('input bounds', () => {
  it('5,000 nested arrays: exit 3 naming the depth limit, fast', () => {
    const path = join(scratch, 'deep.json');
    writeFileSync(path, `{"schema_version": "1.0", "title": ${'['.repeat(5000)}${']'.repeat(5000)}}\n`);
    const started = Date.now();
    const result = runCli(['scenario', 'validate', path, '--json']);
    expect(result.status, result.stderr).toBe(3);
    const error = jsonError(result.stderr);
    expect(error.message).toMatch(new RegExp(`^${path}: not valid JSON: \\$\\.title\\[0\\].*: nested deeper than ${MAX_JSON_DEPTH} arrays and objects at line 1 column `));
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('a 200 MB string field: exit 3 naming the file, its size and the limit, in bounded memory', () => {
    const path = join(scratch, 'huge.json');
    const fd = openSync(path, 'w');
    writeSync(fd, '{"schema_version": "1.0", "title": "');
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    for (let i = 0; i < 200; i++) writeSync(fd, chunk);
    writeSync(fd, '"}\n');
    closeSync(fd);
    const size = '{"schema_version": "1.0", "title": "'.length + 200 * 1024 * 1024 + 3;
    const limit = INPUT_SIZE_LIMITS['scenario file'];
    const message = `${path}: scenario file is ${size} bytes, more than ${limit} bytes (64 MiB), the limit for a scenario file`;

    const started = Date.now();
    const result = runCli(['scenario', 'validate', path, '--json']);
    expect(result.status, result.stderr).toBe(3);
    expect(jsonError(result.stderr).message).toBe(message);
    expect(Date.now() - started).toBeLessThan(20_000);

    // Bounded memory: under a 192 MiB data limit (less than the file) the command still answers exit 3.
    const prlimit = prlimitPath();
    if (prlimit === undefined) return;
    const capped = spawnSync(prlimit, [`--data=${DATA_CAP}`, '--', process.execPath, ...cliArgv(['scenario', 'validate', path, '--json'])], {
      encoding: 'utf8',
    });
    expect(capped.status, capped.stderr).toBe(3);
    expect(jsonError(capped.stderr).message).toBe(message);
    rmSync(path);
  });

  it('every other kind of input is bounded too: a run record over its limit', () => {
    // A sparse file: its size is what is checked, nothing of it is read.
    const path = join(scratch, 'record.json');
    const fd = openSync(path, 'w');
    writeSync(fd, ' ', INPUT_SIZE_LIMITS['run record']);
    closeSync(fd);
    const result = runCli(['replay', 'verify', '--scenario', join(import.meta.dirname, 'fixtures', 'corridor.json'), '--record', path, '--json']);
    expect(result.status, result.stderr).toBe(3);
    expect(jsonError(result.stderr).message).toBe(`${path}: run record is ${INPUT_SIZE_LIMITS['run record'] + 1} bytes, more than 268435456 bytes (256 MiB), the limit for a run record`);
    rmSync(path);
  });

  it('a result with a 300 MB string field: archive import, score and evaluation verify refuse it with exit 3, in bounded memory', () => {
    // Written in pieces, never held: only the string limit (1 MiB) can refuse it, since a result may be GBs.
    const path = join(scratch, 'huge-result.json');
    const head = '{"episodes":[],"evaluation_result_version":"1.0","failures":[],"manifest":{},"manifest_hash":"0","model_id":"';
    const fd = openSync(path, 'w');
    writeSync(fd, head);
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    for (let i = 0; i < 300; i++) writeSync(fd, chunk);
    writeSync(fd, '"}\n');
    closeSync(fd);
    const message = `${path}: evaluation result has a string of more than ${MAX_RESULT_STRING_BYTES} bytes (1 MiB) (from byte ${head.length - 1}), the most one string of it may hold: it was not made by emberbench`;
    const suite = join(import.meta.dirname, '..', '..', 'scenarios', 'public', 'v1');
    const commands = [
      ['archive', 'import', path, '--archive', join(scratch, 'archive.sqlite'), '--json'],
      ['score', '--suite', suite, '--result', path, '--out', join(scratch, 'score.json'), '--json'],
      ['evaluation', 'verify', '--suite', suite, '--result', path, '--json'],
    ];
    for (const args of commands) {
      const result = runCli(args);
      expect(result.status, result.stderr).toBe(3);
      expect(jsonError(result.stderr).message).toBe(message);
    }

    // Bounded memory: under a 192 MiB data limit (less than the file) the import still answers exit 3.
    const prlimit = prlimitPath();
    if (prlimit === undefined) return;
    const capped = spawnSync(prlimit, [`--data=${DATA_CAP}`, '--', process.execPath, ...cliArgv(commands[0]!)], { encoding: 'utf8' });
    expect(capped.status, capped.stderr).toBe(3);
    expect(jsonError(capped.stderr).message).toBe(message);
    rmSync(path);
  }, 300_000);
});
