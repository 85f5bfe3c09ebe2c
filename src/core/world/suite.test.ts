import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../hash.js';
import { ValidationError } from '../errors.js';
import { indentedJson, type JsonObject } from '../json/canonical.js';
import { parseScenarioText } from './scenario.js';
import { buildSuiteManifest, loadSuite } from './suite.js';

const read = (name: string) => readFileSync(new URL(`../../../test/fixtures/world/${name}`, import.meta.url), 'utf8');
const MIXED = read('mixed.json');
const EXAMPLE = JSON.stringify(JSON.parse(read('example.json')));

// python3: hashlib.sha256(json.dumps(m, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
// and, for the file, of json.dumps(m, sort_keys=True, indent=2) + "\n".
const PY_SUITE_HASH = '0717e0406535fccc2b9c37fa742e2a37ac117e01297368b11c67db99df21055e';
const PY_MANIFEST_FILE_SHA = 'dd11138b43676ad70950d4dbeb7c21d0b2bc4d28cb13cd0c44ed5ace8cc7fad4';

function manifestText(): string {
  return buildSuiteManifest({
    suiteId: 'test-suite',
    suiteVersion: '1.0',
    visibility: 'public',
    seedRole: 'development',
    scenarios: [
      { scenario: parseScenarioText(EXAMPLE, 'example') },
      { scenario: parseScenarioText(MIXED, 'mixed'), primaryFamily: 'route_invalidation' },
    ],
  });
}

function files(): Map<string, string> {
  return new Map([
    ['v1-pub-01-single-exit-sparse.json', EXAMPLE],
    ['test-mixed.json', MIXED],
  ]);
}

/** The manifest value, edited, written back as a canonical manifest file. */
function editedManifest(edit: (m: JsonObject) => void): string {
  const value = JSON.parse(manifestText()) as JsonObject;
  edit(value);
  return indentedJson(value);
}

const entry = (m: JsonObject, i: number) => (m['scenarios'] as JsonObject[])[i]!;

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as Error).message;
  }
  throw new Error('expected a ValidationError');
}

describe('buildSuiteManifest and loadSuite', () => {
  it('builds the indented manifest file and loads it back (Python vectors)', () => {
    const text = manifestText();
    expect(sha256Hex(text)).toBe(PY_MANIFEST_FILE_SHA);
    const suite = loadSuite(text, files(), 'suites/t');
    expect(suite.hash).toBe(PY_SUITE_HASH);
    expect([suite.suiteId, suite.suiteVersion, suite.visibility, suite.seedRole, suite.schemaVersion]).toEqual([
      'test-suite',
      '1.0',
      'public',
      'development',
      '1.0',
    ]);
    expect(suite.entries.map((e) => [e.file, e.scenarioId, e.primaryFamily])).toEqual([
      ['v1-pub-01-single-exit-sparse.json', 'v1-pub-01-single-exit-sparse', 'single_exit_low_density'],
      ['test-mixed.json', 'test-mixed', 'route_invalidation'],
    ]);
    expect(suite.entries[1]!.scenarioHash).toBe(suite.entries[1]!.scenario.hash);
    expect(suite.manifest['suite_id']).toBe('test-suite');
  });

  it('refuses to build a manifest with a foreign primary family or a repeated scenario', () => {
    const s = parseScenarioText(MIXED, 'mixed');
    const base = { suiteId: 'x', suiteVersion: '1.0', visibility: 'public', seedRole: 'development' } as const;
    expect(() => buildSuiteManifest({ ...base, scenarios: [{ scenario: s, primaryFamily: 'nope' }] })).toThrow(
      'suite manifest: nope is not a family of scenario test-mixed',
    );
    expect(() => buildSuiteManifest({ ...base, scenarios: [{ scenario: s }, { scenario: s }] })).toThrow(
      'suite manifest: scenario test-mixed is listed twice',
    );
    expect(() => buildSuiteManifest({ ...base, suiteVersion: '1', scenarios: [{ scenario: s }] })).toThrow(ValidationError);
  });

  const M = 'suites/t/manifest.json';
  const cases: [string, () => unknown, string][] = [
    ['a missing file', () => loadSuite(manifestText(), new Map([['test-mixed.json', MIXED]]), 'suites/t'), 'suites/t/v1-pub-01-single-exit-sparse.json: missing (listed in manifest.json scenarios[0])'],
    ['an unlisted file', () => loadSuite(manifestText(), new Map([...files(), ['notes.txt', 'hi']]), 'suites/t'), 'suites/t/notes.txt: unlisted file (a suite directory holds only manifest.json and the files it lists)'],
    ['a hash mismatch', () => loadSuite(editedManifest((m) => (entry(m, 1)['scenario_hash'] = '0'.repeat(64))), files(), 'suites/t'), `${M}: scenarios[1].scenario_hash: does not match test-mixed.json (its scenario hash is 3da30ff66d639e26a37eb27e2dd8968589bb6d1634e9326fa7d23d60a09f66e6)`],
    ['a tampered scenario', () => loadSuite(manifestText(), new Map([...files(), ['test-mixed.json', MIXED.replace('"0.35"', '"0.36"')]]), 'suites/t'), `${M}: scenarios[1].scenario_hash: does not match test-mixed.json (its scenario hash is ${parseScenarioText(MIXED.replace('"0.35"', '"0.36"'), 'x').hash})`],
    ['a compact manifest', () => loadSuite(JSON.stringify(JSON.parse(manifestText())), files(), 'suites/t'), `${M}: $: not a canonical manifest file (2-space indented canonical JSON with one final LF)`],
    ['a manifest without its final LF', () => loadSuite(manifestText().slice(0, -1), files(), 'suites/t'), `${M}: $: not a canonical manifest file (2-space indented canonical JSON with one final LF)`],
    ['a manifest with CRLF', () => loadSuite(manifestText().replaceAll('\n', '\r\n'), files(), 'suites/t'), `${M}: $: not a canonical manifest file (2-space indented canonical JSON with one final LF)`],
    ['unsorted manifest keys', () => loadSuite(JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(manifestText())).reverse()), null, 2) + '\n', files(), 'suites/t'), `${M}: $: not a canonical manifest file (2-space indented canonical JSON with one final LF)`],
    ['a manifest that is not JSON', () => loadSuite('{', files(), 'suites/t'), `${M}: not valid JSON: expected a string key at line 1 column 2`],
    ['a duplicate entry', () => loadSuite(editedManifest((m) => (m['scenarios'] as JsonObject[]).push(entry(m, 0))), files(), 'suites/t'), `${M}: scenarios[2].scenario_id: duplicates scenarios[0]`],
    ['a wrong primary family', () => loadSuite(editedManifest((m) => (entry(m, 1)['primary_family'] = 'fast_spread')), files(), 'suites/t'), `${M}: scenarios[1].primary_family: "fast_spread" is not one of the families of test-mixed.json (multi_room_office, route_invalidation)`],
    ['a file name that is not the scenario ID', () => loadSuite(editedManifest((m) => (entry(m, 1)['file'] = 'mixed.json')), files(), 'suites/t'), `${M}: scenarios[1].file: must be "test-mixed.json" (the scenario_id plus ".json")`],
    [
      'a file whose scenario ID differs from the manifest',
      () => loadSuite(editedManifest((m) => Object.assign(entry(m, 1), { file: 'other.json', scenario_id: 'other' })), new Map([...files()].map(([k, v]) => [k === 'test-mixed.json' ? 'other.json' : k, v])), 'suites/t'),
      `${M}: scenarios[1].scenario_id: "other" but other.json has scenario_id "test-mixed"`,
    ],
    ['an invalid scenario file', () => loadSuite(manifestText(), new Map([...files(), ['test-mixed.json', MIXED.replace('"max_steps": 40', '"max_steps": 0')]]), 'suites/t'), 'suites/t/test-mixed.json: max_steps: must be an integer in [1, 10000], got 0'],
    ['no scenarios', () => loadSuite(editedManifest((m) => (m['scenarios'] = [])), new Map(), 'suites/t'), `${M}: scenarios: must list at least one scenario`],
    ['an unknown manifest field', () => loadSuite(editedManifest((m) => (m['extra'] = 1)), files(), 'suites/t'), `${M}: $: unknown field "extra"`],
    ['a missing manifest field', () => loadSuite(editedManifest((m) => delete m['seed_role']), files(), 'suites/t'), `${M}: $: missing field "seed_role"`],
    ['an unknown entry field', () => loadSuite(editedManifest((m) => (entry(m, 0)['title'] = 'x')), files(), 'suites/t'), `${M}: scenarios[0]: unknown field "title"`],
    ['a bad visibility', () => loadSuite(editedManifest((m) => (m['visibility'] = 'secret')), files(), 'suites/t'), `${M}: visibility: must be one of "public", "private"`],
    ['a bad seed role', () => loadSuite(editedManifest((m) => (m['seed_role'] = 'test')), files(), 'suites/t'), `${M}: seed_role: must be one of "development", "evaluation"`],
    ['a bad suite version', () => loadSuite(editedManifest((m) => (m['suite_version'] = '1.00')), files(), 'suites/t'), `${M}: suite_version: must match ^(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})$`],
    ['another schema version', () => loadSuite(editedManifest((m) => (m['schema_version'] = '2.0')), files(), 'suites/t'), `${M}: schema_version: must be one of "1.0"`],
    ['an upper-case hash', () => loadSuite(editedManifest((m) => (entry(m, 0)['scenario_hash'] = PY_SUITE_HASH.toUpperCase())), files(), 'suites/t'), `${M}: scenarios[0].scenario_hash: must match ^[0-9a-f]{64}$`],
  ];
  it.each(cases)('rejects %s', (_, run, message) => {
    expect(messageOf(run)).toBe(message);
  });

  it('accepts an evaluation-role private suite', () => {
    const text = editedManifest((m) => Object.assign(m, { seed_role: 'evaluation', visibility: 'private', suite_version: '2.13' }));
    const suite = loadSuite(text, files(), 'd');
    expect([suite.seedRole, suite.visibility, suite.suiteVersion]).toEqual(['evaluation', 'private', '2.13']);
    expect(suite.hash).not.toBe(PY_SUITE_HASH);
  });
});
