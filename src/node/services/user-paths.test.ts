import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { errorValue } from './dispatch.js';
import { existingPath, newOutputPath } from './user-paths.js';

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    const value = errorValue(error);
    if (!value.ok) return value.error;
  }
  throw new Error('expected a refusal');
}

describe('paths typed into the workbench', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ember-paths-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('a missing folder is said to be missing, with its path, never "malformed"', () => {
    const missing = join(dir, 'no-such-suite');
    const error = refusal(() => existingPath(missing, 'dir', 'folder'));
    expect(error).toEqual({ kind: 'usage', field: 'dir', message: `Folder: there is no folder at ${missing}: check the path (it is on the machine the workbench runs on)` });
    expect(refusal(() => existingPath(join(dir, 'gone'), 'bundleDir', 'folder')).message).toMatch(/^Bundle folder of the report: there is no folder at /);
  });

  test('a file where a folder is expected, and a relative path, are refused with a sentence', () => {
    writeFileSync(join(dir, 'f.json'), '{}');
    expect(refusal(() => existingPath(join(dir, 'f.json'), 'dir', 'folder')).message).toContain('is a file, not a folder');
    const relative = refusal(() => existingPath('suites/tiny', 'dir', 'folder'));
    expect(relative).toMatchObject({ kind: 'usage', field: 'dir' });
    expect(relative.message).toMatch(/^Folder: "suites\/tiny" is a relative path: type a full path/);
    expect(existingPath(dir + '/.', 'dir', 'folder')).toBe(dir);
  });

  test('an export needs an existing parent folder, a full path and a new name (an empty folder is taken too)', () => {
    const noParent = refusal(() => newOutputPath(join(dir, 'missing', 'out'), 'outDir', 'folder'));
    expect(noParent).toMatchObject({ kind: 'output', field: 'outDir' });
    expect(noParent.message).toBe(`New folder: the folder ${join(dir, 'missing')} does not exist: create it first, or choose a folder that exists`);
    expect(noParent.message).not.toMatch(/ENOENT/);
    mkdirSync(join(dir, 'empty'));
    expect(refusal(() => newOutputPath(join(dir, 'empty'), 'outDir', 'folder')).message).toBe(`New folder: ${join(dir, 'empty')} already exists and is never replaced: type a new folder name`);
    expect(refusal(() => newOutputPath('out', 'outFile', 'file')).message).toMatch(/^New HTML report file: "out" is a relative path/);
    expect(newOutputPath(join(dir, 'fresh'), 'outDir', 'folder')).toBe(join(dir, 'fresh'));
  });
});
