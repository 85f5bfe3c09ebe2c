import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../core/errors.js';
import { parseScenarioText } from '../core/world/scenario.js';
import { buildSuiteManifest } from '../core/world/suite.js';
import { INPUT_SIZE_LIMITS, MAX_TEXT_INPUT_BYTES, describeBytes, loadScenarioFile, loadSuiteDir, readBytesInput, readTextInput } from './inputs.js';

const MIXED = readFileSync(new URL('../../test/fixtures/world/mixed.json', import.meta.url), 'utf8');
const HALL = readFileSync(new URL('../../test/fixtures/world/large-hall.json', import.meta.url), 'utf8');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ember-inputs-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as Error).message;
  }
  throw new Error('expected a ValidationError');
}

/** A valid two-scenario suite in `dir/suite`; returns its path. */
function writeSuite(): string {
  const suite = join(dir, 'suite');
  mkdirSync(suite);
  writeFileSync(join(suite, 'test-mixed.json'), MIXED);
  writeFileSync(join(suite, 'test-large-hall.json'), HALL);
  const manifest = buildSuiteManifest({
    suiteId: 'test-suite',
    suiteVersion: '1.0',
    visibility: 'public',
    seedRole: 'development',
    scenarios: [{ scenario: parseScenarioText(MIXED, 'm') }, { scenario: parseScenarioText(HALL, 'h') }],
  });
  writeFileSync(join(suite, 'manifest.json'), manifest);
  return suite;
}

describe('readTextInput', () => {
  it('reads UTF-8 text', () => {
    const path = join(dir, 'a.json');
    writeFileSync(path, '{"title":"caf\u00e9"}\n');
    expect(readTextInput(path, 'scenario file')).toBe('{"title":"caf\u00e9"}\n');
  });

  it('names the path of a missing file or a directory', () => {
    expect(messageOf(() => readTextInput(join(dir, 'nope.json'), 'scenario file'))).toBe(`${join(dir, 'nope.json')}: scenario file does not exist`);
    expect(messageOf(() => readTextInput(dir, 'scenario file'))).toBe(`${dir}: scenario file is a directory, not a file`);
  });

  it('rejects a byte order mark and invalid UTF-8', () => {
    const bom = join(dir, 'bom.json');
    writeFileSync(bom, Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]));
    expect(messageOf(() => readTextInput(bom, 'scenario file'))).toBe(`${bom}: scenario file starts with a UTF-8 byte order mark; save it without one`);
    const latin1 = join(dir, 'latin1.json');
    writeFileSync(latin1, Buffer.from([0x22, 0xe9, 0x22]));
    expect(messageOf(() => readTextInput(latin1, 'scenario file'))).toBe(`${latin1}: scenario file is not valid UTF-8`);
  });
});

describe('input size limits', () => {
  it('refuses a file over the limit of its kind before reading it, naming the file, size and limit', () => {
    const path = join(dir, 'a.json');
    writeFileSync(path, '0123456789A');
    expect(readBytesInput(path, 'scenario file', 11).toString()).toBe('0123456789A');
    expect(messageOf(() => readBytesInput(path, 'scenario file', 10))).toBe(`${path}: scenario file is 11 bytes, more than 10 bytes, the limit for a scenario file`);
    expect(readBytesInput(path, 'run record').length).toBe(11);
  });

  it('stops reading a pipe one byte past the limit', () => {
    // /dev/zero never ends and has no size: only the bounded read can stop it.
    expect(messageOf(() => readBytesInput('/dev/zero', 'run record', 3 * 1024 * 1024))).toBe(
      '/dev/zero: run record is more than 3145728 bytes (3 MiB), the limit for a run record',
    );
  });

  it('has a limit for every kind, results far above what one text can hold', () => {
    // Key files, signature files and run settings are small by nature; every artifact kind may be large.
    const small = new Set(['signing key', 'signature file', 'run settings']);
    for (const [kind, limit] of Object.entries(INPUT_SIZE_LIMITS)) expect(limit, kind).toBeGreaterThanOrEqual(small.has(kind) ? 64 * 1024 : 64 * 1024 * 1024);
    expect(INPUT_SIZE_LIMITS['evaluation result']).toBeGreaterThan(MAX_TEXT_INPUT_BYTES);
    expect(describeBytes(INPUT_SIZE_LIMITS['evaluation result'])).toBe('68719476736 bytes (64 GiB)');
  });
});

describe('loadScenarioFile', () => {
  it('loads a scenario and names the file in errors', () => {
    const path = join(dir, 'mixed.json');
    writeFileSync(path, MIXED);
    expect(loadScenarioFile(path).scenarioId).toBe('test-mixed');
    writeFileSync(path, MIXED.replace('"spread_probability": "0.35"', '"spread_probability": 0.35'));
    expect(messageOf(() => loadScenarioFile(path))).toMatch(new RegExp(`^${path}: not valid JSON: \\$\\.fire\\.spread_probability: non-canonical number 0\\.35`));
  });
});

describe('loadSuiteDir', () => {
  it('loads a suite directory, with or without a trailing slash', () => {
    const path = writeSuite();
    const suite = loadSuiteDir(path);
    expect(suite.entries.map((e) => e.scenarioId)).toEqual(['test-mixed', 'test-large-hall']);
    expect(loadSuiteDir(path + '/').hash).toBe(suite.hash);
  });

  it('rejects a subdirectory and a symbolic link as non-regular entries', () => {
    const path = writeSuite();
    mkdirSync(join(path, 'extra'));
    expect(messageOf(() => loadSuiteDir(path))).toBe(
      `${path}/extra: not a regular file (a suite directory holds only manifest.json and the scenario files it lists)`,
    );
    rmSync(join(path, 'extra'), { recursive: true });
    symlinkSync(join(path, 'test-mixed.json'), join(path, 'link.json'));
    expect(messageOf(() => loadSuiteDir(path))).toMatch(/\/link\.json: not a regular file/);
  });

  it('rejects an unlisted file, a missing listed file and a missing manifest', () => {
    const path = writeSuite();
    writeFileSync(join(path, '.DS_Store'), '');
    expect(messageOf(() => loadSuiteDir(path))).toBe(
      `${path}/.DS_Store: unlisted file (a suite directory holds only manifest.json and the files it lists)`,
    );
    rmSync(join(path, '.DS_Store'));
    rmSync(join(path, 'test-large-hall.json'));
    expect(messageOf(() => loadSuiteDir(path))).toBe(`${path}/test-large-hall.json: missing (listed in manifest.json scenarios[1])`);
    rmSync(join(path, 'manifest.json'));
    expect(messageOf(() => loadSuiteDir(path))).toBe(`${path}/manifest.json: suite manifest does not exist`);
  });

  it('rejects a missing directory and a file given as the directory', () => {
    expect(messageOf(() => loadSuiteDir(join(dir, 'none')))).toBe(`${join(dir, 'none')}: suite directory does not exist`);
    const file = join(dir, 'file');
    writeFileSync(file, '');
    expect(messageOf(() => loadSuiteDir(file))).toBe(`${file}: suite is not a directory`);
  });
});
