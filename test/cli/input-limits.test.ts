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
import { INPUT_SIZE_LIMITS } from '../../src/node/inputs.js';
import { cliArgv, jsonError, runCli } from './run-cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'ember-cli-limits-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function prlimitPath(): string | undefined {
  for (const path of ['/usr/bin/prlimit', '/bin/prlimit']) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // Next.
    }
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
    const capped = spawnSync(prlimit, [`--data=${192 * 1024 * 1024}`, '--', process.execPath, ...cliArgv(['scenario', 'validate', path, '--json'])], {
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
});
