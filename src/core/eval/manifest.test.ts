import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MismatchError, UsageError, ValidationError } from '../errors.js';
import { canonicalJson, indentedJson, type JsonObject } from '../json/canonical.js';
import { BENCHMARK_VERSIONS } from '../versions.js';
import type { Suite } from '../world/suite.js';
import { loadSuiteDir } from '../../node/inputs.js';
import {
  buildManifest,
  checkManifestTargetsSuite,
  manifestHash,
  manifestText,
  parseManifestText,
  requireSameManifest,
  type EvaluationManifest,
} from './manifest.js';

const TINY = join(import.meta.dirname, '../../../test/fixtures/suites/tiny');
const SEEDS = ['7', '1', '18446744073709551615'];
// python3: sha256(json.dumps(json.load(manifest file), sort_keys=True, separators=(",", ":"), ensure_ascii=True))
const PYTHON_MANIFEST_HASH = '2cd181bec4e22c945f33213ae763d9d1784eb5b10062c355fc68c57bb8b4dbab';

const suite: Suite = loadSuiteDir(TINY);

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

/** The manifest text after `edit` on a deep copy of its value (re-serialized in manifest form). */
function editedText(manifest: EvaluationManifest, edit: (value: Record<string, unknown>) => void): string {
  const value = JSON.parse(canonicalJson(manifest as unknown as JsonObject)) as Record<string, unknown>;
  edit(value);
  return indentedJson(value as JsonObject);
}

describe('buildManifest', () => {
  const manifest = buildManifest(suite, SEEDS);

  it('is scenario-major with the seeds in the given order', () => {
    expect(manifest.seeds).toEqual(SEEDS);
    expect(manifest.episodes.map((e) => [e.index, e.scenario_id, e.seed])).toEqual([
      [0, 'tiny-corridor', '7'],
      [1, 'tiny-corridor', '1'],
      [2, 'tiny-corridor', '18446744073709551615'],
      [3, 'tiny-trap', '7'],
      [4, 'tiny-trap', '1'],
      [5, 'tiny-trap', '18446744073709551615'],
      [6, 'tiny-two-exits', '7'],
      [7, 'tiny-two-exits', '1'],
      [8, 'tiny-two-exits', '18446744073709551615'],
    ]);
    expect(manifest.episodes[3]).toMatchObject({ scenario_hash: suite.entries[1]!.scenarioHash, primary_family: 'single_exit_low_density' });
    expect(manifest.suite).toEqual({
      schema_version: '1.0',
      seed_role: 'development',
      suite_hash: suite.hash,
      suite_id: 'tiny-eval',
      suite_version: '1.0',
      visibility: 'public',
    });
    expect(manifest.versions).toEqual(BENCHMARK_VERSIONS);
  });

  it('has the hash Python computes from the file', () => {
    expect(manifestHash(manifest)).toBe(PYTHON_MANIFEST_HASH);
  });

  it('another seed order is another manifest', () => {
    expect(manifestHash(buildManifest(suite, ['1', '7', '18446744073709551615']))).not.toBe(PYTHON_MANIFEST_HASH);
  });

  it.each([
    ['a duplicate seed', ['123457', '987651', '123457'], 'position 3 duplicates'],
    ['a seed above 2^64 - 1', ['18446744073709551616'], 'position 1 must be'],
    ['a leading zero', ['123457', '0987'], 'position 2 must be'],
    ['a sign', ['-4242'], 'position 1 must be'],
  ])('rejects %s as a usage error without echoing the seed', (_name, seeds, message) => {
    const error = thrown(() => buildManifest(suite, seeds));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain(message);
    for (const seed of seeds) expect(error.message).not.toContain(seed.replace(/^[-0]/, ''));
  });

  it('rejects an empty seed list as a usage error', () => {
    expect(thrown(() => buildManifest(suite, []))).toBeInstanceOf(UsageError);
  });
});

describe('manifest file', () => {
  const manifest = buildManifest(suite, SEEDS);
  const text = manifestText(manifest);

  it('is 2-space indented canonical JSON plus LF and round-trips', () => {
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.split('\n')[1]).toBe('  "benchmark_revision": 2,');
    const parsed = parseManifestText(text, 'm.json');
    expect(manifestText(parsed)).toBe(text);
    expect(manifestHash(parsed)).toBe(PYTHON_MANIFEST_HASH);
  });

  it.each([
    ['compact JSON', () => canonicalJson(manifest as unknown as JsonObject) + '\n', 'canonical manifest form'],
    ['no final LF', () => text.slice(0, -1), 'canonical manifest form'],
    ['not JSON', () => '{', 'not valid JSON'],
    ['an unknown field', () => editedText(manifest, (v) => (v.extra = 1)), 'unknown field "extra"'],
    ['another version', () => editedText(manifest, (v) => ((v.versions as Record<string, string>).simulator_version = '9.9')), 'versions.simulator_version'],
    ['another revision', () => editedText(manifest, (v) => (v.benchmark_revision = 1)), 'benchmark_revision'],
    ['duplicate seeds', () => editedText(manifest, (v) => ((v.seeds as string[])[1] = '7')), 'must be distinct'],
    ['a malformed seed', () => editedText(manifest, (v) => ((v.seeds as string[])[0] = '007')), 'seeds[0]'],
    ['a wrong index', () => editedText(manifest, (v) => ((v.episodes as { index: number }[])[4]!.index = 5)), 'episodes[4].index'],
    ['episodes out of seed order', () => editedText(manifest, (v) => ((v.episodes as { seed: string }[])[0]!.seed = '1')), 'seed order'],
    ['a missing episode', () => editedText(manifest, (v) => (v.episodes as unknown[]).pop()), 'every scenario once per seed'],
    ['a short suite hash', () => editedText(manifest, (v) => ((v.suite as Record<string, string>).suite_hash = 'abc')), 'suite.suite_hash'],
  ])('rejects %s (exit 3)', (_name, make, message) => {
    const error = thrown(() => parseManifestText(make(), 'm.json'));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain('m.json');
    expect(error.message).toContain(message);
  });
});

describe('checkManifestTargetsSuite and requireSameManifest', () => {
  const manifest = buildManifest(suite, SEEDS);

  it('accepts the manifest of the suite', () => {
    expect(() => checkManifestTargetsSuite(manifest, suite, 'm.json')).not.toThrow();
  });

  it('rejects a manifest of another suite identity', () => {
    const other = parseManifestText(editedText(manifest, (v) => ((v.suite as Record<string, string>).suite_id = 'other-suite')), 'm.json');
    const error = thrown(() => checkManifestTargetsSuite(other, suite, 'm.json'));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain('targets suite other-suite');
  });

  it('rejects episodes that do not match the suite', () => {
    const hash = 'f'.repeat(64);
    const other = parseManifestText(editedText(manifest, (v) => ((v.episodes as { scenario_hash: string }[])[2]!.scenario_hash = hash)), 'm.json');
    const error = thrown(() => checkManifestTargetsSuite(other, suite, 'm.json'));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain('episodes do not match');
  });

  it('requires the same manifest exactly (exit 5)', () => {
    expect(() => requireSameManifest(manifest, buildManifest(suite, SEEDS), 'r.json')).not.toThrow();
    const error = thrown(() => requireSameManifest(manifest, buildManifest(suite, ['7', '1']), 'r.json'));
    expect(error).toBeInstanceOf(MismatchError);
    expect(error.message).toContain(PYTHON_MANIFEST_HASH);
  });
});
