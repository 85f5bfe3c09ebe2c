import { describe, expect, it } from 'vitest';
import { buildManifest, manifestHash, manifestText } from '../../src/core/eval/manifest.js';
import { fileDigest } from '../../src/core/hash.js';
import { loadSuiteDir } from '../../src/node/inputs.js';

// The hash recorded in docs/evaluation.md: the public suite with the
// development seeds 0, 1, 2. It changes only when the suite, the seed order or
// a benchmark-defining version changes.
const PUBLIC_MANIFEST_HASH = '7003d836459f7d9571fbf364267f57a3e9ab85475119e499486ba8e1b090375e';

describe('the public development manifest', () => {
  const suite = loadSuiteDir('scenarios/public/v1');

  it('has the documented hash', () => {
    const manifest = buildManifest(suite, ['0', '1', '2']);
    expect(manifestHash(manifest)).toBe(PUBLIC_MANIFEST_HASH);
    expect(manifest.episodes).toHaveLength(30);
  });

  it('depends on the seed order', () => {
    expect(manifestHash(buildManifest(suite, ['2', '1', '0']))).not.toBe(PUBLIC_MANIFEST_HASH);
  });

  it('hashes the canonical JSON, not the indented file', () => {
    const text = manifestText(buildManifest(suite, ['0', '1', '2']));
    expect(fileDigest(text)).not.toBe(PUBLIC_MANIFEST_HASH);
    expect(text.startsWith('{\n  "benchmark_revision": 2,')).toBe(true);
  });
});
