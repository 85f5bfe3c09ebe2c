// Environment packs on disk: build, verify, the lighter scorer load, every
// kind of tampering (all exit 3), the output rules (exit 6, nothing left
// behind), and the scorer's check of a result against a pack.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, buildTinyResult, TINY_SUITE, type BuiltResult } from '../../test/eval/kit.js';
import { MismatchError, OutputError, ValidationError } from '../core/errors.js';
import { authenticateResult } from '../core/eval/authenticate.js';
import { buildManifest, manifestHash, manifestText } from '../core/eval/manifest.js';
import { canonicalJson, type JsonValue } from '../core/json/canonical.js';
import { PACK_ID, checkMaxEvacuatedAgainstPack, checkResultAgainstPack, packIdOf, type EnvironmentPack } from '../core/pack/pack.js';
import { removePendingOutputs, trackPendingDirectory } from './files.js';
import { loadSuiteDir } from './inputs.js';
import { buildPack, loadPack, verifyPack } from './pack.js';

let scratch: string;
let counter = 0;
let manifestPath: string;
let packDir: string;
let pack: EnvironmentPack;
let built: BuiltResult;
/** A suite with a sealed room (M* = 0 for every seed) and an open room. */
const PACK_SUITE = join(ROOT, 'test', 'fixtures', 'suites', 'pack');
let hopelessDir: string;

function freshDir(): string {
  const dir = join(scratch, `case-${counter++}`);
  mkdirSync(dir);
  return dir;
}

/** A copy of the built pack to tamper with. */
function copyPack(): string {
  const dir = join(freshDir(), 'pack');
  cpSync(packDir, dir, { recursive: true });
  return dir;
}

type Editable = { [key: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Edits pack.json and writes it back canonically, so only the edit differs. */
function editPackJson(dir: string, edit: (value: Editable) => void): void {
  const path = join(dir, 'pack.json');
  const value = JSON.parse(readFileSync(path, 'utf8')) as Editable;
  edit(value);
  writeFileSync(path, canonicalJson(value as JsonValue) + '\n');
}

function validationMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as Error).message;
  }
  throw new Error('expected a ValidationError');
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-pack-'));
  built = await buildTinyResult(['1', '7']);
  manifestPath = join(scratch, 'manifest.json');
  writeFileSync(manifestPath, manifestText(built.manifest));
  packDir = join(scratch, 'pack');
  pack = await buildPack(TINY_SUITE, manifestPath, packDir);
  const hopelessManifest = join(scratch, 'hopeless-manifest.json');
  writeFileSync(hopelessManifest, manifestText(buildManifest(loadSuiteDir(PACK_SUITE), ['0', '5'])));
  hopelessDir = join(scratch, 'hopeless-pack');
  await buildPack(PACK_SUITE, hopelessManifest, hopelessDir);
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('pack build', () => {
  it('writes pack.json, manifest.json and a byte-identical suite copy, and nothing else', () => {
    expect(readdirSync(packDir).sort()).toEqual(['manifest.json', 'pack.json', 'suite']);
    expect(readdirSync(join(packDir, 'suite')).sort()).toEqual(readdirSync(TINY_SUITE).sort());
    for (const name of readdirSync(TINY_SUITE)) {
      expect(readFileSync(join(packDir, 'suite', name)).equals(readFileSync(join(TINY_SUITE, name)))).toBe(true);
    }
    expect(readFileSync(join(packDir, 'manifest.json'), 'utf8')).toBe(readFileSync(manifestPath, 'utf8'));
    // Nothing else in the parent: the temporary directory is gone.
    expect(readdirSync(scratch).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('pack.json is canonical; the pack ID is ember-pack- plus the first 16 hex of its digest', () => {
    const text = readFileSync(join(packDir, 'pack.json'), 'utf8');
    expect(text).toBe(canonicalJson(JSON.parse(text) as JsonValue) + '\n');
    const digest = createHash('sha256').update(text.slice(0, -1)).digest('hex');
    expect(pack.digest).toBe(digest);
    expect(pack.packId).toBe(`ember-pack-${digest.slice(0, 16)}`);
    expect(pack.packId).toMatch(PACK_ID);
    expect(packIdOf(digest)).toBe(pack.packId);
  });

  it('pins the manifest, the suite, the versions and per episode the fire world and M*', () => {
    const { value } = pack;
    expect(value.manifest_hash).toBe(manifestHash(built.manifest));
    expect(value.suite.suite_hash).toBe(loadSuiteDir(TINY_SUITE).hash);
    expect(value.versions['environment_pack_version']).toBe('1.0');
    expect(value.episodes.map((e) => e.index)).toEqual(built.manifest.episodes.map((e) => e.index));
    expect(value.episodes.map((e) => e.seed)).toEqual(built.manifest.episodes.map((e) => e.seed));
    expect(value.episodes.every((e) => e.max_evacuated > 0 && !e.not_applicable)).toBe(true);
  });

  it('marks an episode where nobody can be saved (M* = 0) not applicable, for every seed', () => {
    const hopeless = verifyPack(hopelessDir);
    expect(hopeless.value.episodes.map((e) => [e.scenario_id, e.max_evacuated, e.not_applicable])).toEqual([
      ['pack-hopeless', 0, true],
      ['pack-hopeless', 0, true],
      ['pack-open', 3, false],
      ['pack-open', 3, false],
    ]);
  });

  it('is deterministic: a second build gives the same pack.json bytes', async () => {
    const again = await buildPack(TINY_SUITE, manifestPath, join(freshDir(), 'pack'));
    expect(again.text).toBe(pack.text);
  });

  it('refuses an existing output directory, even an empty one, and leaves it alone (exit 6)', async () => {
    const dir = freshDir();
    const out = join(dir, 'existing');
    mkdirSync(out);
    await expect(buildPack(TINY_SUITE, manifestPath, out)).rejects.toThrow(OutputError);
    expect(readdirSync(dir)).toEqual(['existing']);
    expect(readdirSync(out)).toEqual([]);
  });

  it('refuses a missing parent and an output inside the input suite (exit 6)', async () => {
    await expect(buildPack(TINY_SUITE, manifestPath, join(scratch, 'no-such-dir', 'pack'))).rejects.toThrow(/parent directory does not exist/);
    const suiteCopy = join(freshDir(), 'suite');
    cpSync(TINY_SUITE, suiteCopy, { recursive: true });
    await expect(buildPack(suiteCopy, manifestPath, join(suiteCopy, 'pack'))).rejects.toThrow(/inside the input suite/);
    expect(existsSync(join(suiteCopy, 'pack'))).toBe(false);
  });

  it('leaves nothing behind when the build fails after the pack was written', async () => {
    const dir = freshDir();
    const failing = buildPack(TINY_SUITE, manifestPath, join(dir, 'pack'), {
      beforePublish: (temp) => {
        expect(readdirSync(temp).sort()).toEqual(['manifest.json', 'pack.json', 'suite']);
        throw new Error('disk full');
      },
    });
    await expect(failing).rejects.toThrow(/cannot write environment pack .*disk full/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('never replaces a directory another process wrote into meanwhile (exit 6)', async () => {
    const dir = freshDir();
    const out = join(dir, 'pack');
    const racing = buildPack(TINY_SUITE, manifestPath, out, { beforePublish: () => writeFileSync(join(out, 'theirs.txt'), 'theirs') });
    await expect(racing).rejects.toThrow(OutputError);
    expect(readdirSync(dir)).toEqual(['pack']);
    expect(readdirSync(out)).toEqual(['theirs.txt']);
  });

  it('Ctrl+C cleanup removes a tracked temporary tree and an empty placeholder, never a filled one', () => {
    const dir = freshDir();
    mkdirSync(join(dir, 'tmp', 'suite'), { recursive: true });
    writeFileSync(join(dir, 'tmp', 'suite', 'x.json'), '{}');
    mkdirSync(join(dir, 'empty'));
    mkdirSync(join(dir, 'filled'));
    writeFileSync(join(dir, 'filled', 'keep'), 'k');
    trackPendingDirectory(join(dir, 'tmp'), true);
    trackPendingDirectory(join(dir, 'empty'), false);
    trackPendingDirectory(join(dir, 'filled'), false);
    removePendingOutputs();
    expect(readdirSync(dir)).toEqual(['filled']);
  });

  it('rejects a manifest that does not target the suite before creating anything (exit 3)', async () => {
    const dir = freshDir();
    const other = join(dir, 'manifest.json');
    writeFileSync(other, manifestText({ ...built.manifest, suite: { ...built.manifest.suite, suite_hash: '0'.repeat(64) } }));
    await expect(buildPack(TINY_SUITE, other, join(dir, 'pack'))).rejects.toThrow(ValidationError);
    expect(readdirSync(dir)).toEqual(['manifest.json']);
  });
});

describe('pack verify and load', () => {
  it('verifies a built pack by recomputation', () => {
    const verified = verifyPack(packDir);
    expect(verified.recomputed).toBe(true);
    expect(verified.digest).toBe(pack.digest);
    expect(loadPack(packDir).recomputed).toBe(false);
  });

  it('rejects a tampered fire-world digest: verify recomputes it; the light load leaves it to checkResultAgainstPack', () => {
    const dir = copyPack();
    editPackJson(dir, (v) => (v.episodes[0].fire_world_digest = 'f'.repeat(64)));
    expect(validationMessage(() => verifyPack(dir))).toMatch(/episodes\[0\]\.fire_world_digest: is f+, the recomputed fire world has digest/);
    const light = loadPack(dir);
    const result = authenticateResult(built.text, 'result.json', light.suite);
    expect(validationMessage(() => checkResultAgainstPack(light, result, 'result.json'))).toMatch(/episode 0: its fire world has digest .* pins f+/);
  });

  it('rejects a tampered M* (kept consistent with not_applicable)', () => {
    const dir = copyPack();
    editPackJson(dir, (v) => (v.episodes[1].max_evacuated += 1));
    expect(validationMessage(() => verifyPack(dir))).toMatch(/episodes\[1\]\.max_evacuated: is \d+, the recomputed M\* is \d+/);
    const light = loadPack(dir);
    expect(validationMessage(() => checkMaxEvacuatedAgainstPack(light, 1, pack.value.episodes[1]!.max_evacuated, 'score'))).toMatch(/M\* is/);
  });

  it('rejects an M* of 0 without not_applicable', () => {
    const dir = join(freshDir(), 'pack');
    cpSync(hopelessDir, dir, { recursive: true });
    editPackJson(dir, (v) => (v.episodes[0].not_applicable = false));
    expect(validationMessage(() => loadPack(dir))).toMatch(/not_applicable: must be true exactly when max_evacuated is 0/);
  });

  const packJsonEdits: [string, (v: Editable) => void, RegExp][] = [
    ['a removed episode', (v) => v.episodes.pop(), /episodes: lists \d+ episodes, the manifest schedules/],
    ['a changed seed', (v) => (v.episodes[0].seed = '999'), /episodes\[0\]\.seed: differs/],
    ['swapped episodes', (v) => ([v.episodes[0], v.episodes[2]] = [v.episodes[2], v.episodes[0]]), /episodes\[0\]\.index: must be 0/],
    ['a changed manifest hash', (v) => (v.manifest_hash = '0'.repeat(64)), /manifest_hash: is 0+, but manifest.json has hash/],
    ['a changed suite hash', (v) => (v.suite.suite_hash = '0'.repeat(64)), /suite: pins .* but .*suite is/],
    ['a changed constants digest', (v) => (v.scoring_constants_digest = '0'.repeat(64)), /scoring_constants_digest: is 0+, not the official/],
    ['changed constants', (v) => (v.scoring_constants = { changed: '1' }), /scoring_constants: are not the official/],
    ['another pack version', (v) => (v.environment_pack_version = '2.0'), /environment_pack_version/],
    ['another simulator version', (v) => (v.versions.simulator_version = '0.9'), /versions\.simulator_version/],
    ['an unknown field', (v) => (v.extra = 1), /unknown field "extra"/],
    ['a changed file digest', (v) => (v.suite_files[1].sha256 = '0'.repeat(64)), /its bytes do not match the digest pinned/],
  ];
  for (const [name, edit, message] of packJsonEdits) {
    it(`rejects pack.json with ${name} (exit 3)`, () => {
      const dir = copyPack();
      editPackJson(dir, edit);
      expect(validationMessage(() => loadPack(dir))).toMatch(message);
    });
  }

  it('rejects a non-canonical pack.json', () => {
    const dir = copyPack();
    const path = join(dir, 'pack.json');
    writeFileSync(path, JSON.stringify(JSON.parse(readFileSync(path, 'utf8')), null, 1) + '\n');
    expect(validationMessage(() => loadPack(dir))).toMatch(/pack\.json: \$: not canonical/);
  });

  it('rejects a suite copy whose bytes changed, even when its meaning did not', () => {
    const dir = copyPack();
    const file = join(dir, 'suite', 'tiny-corridor.json');
    writeFileSync(file, readFileSync(file, 'utf8') + ' ');
    expect(validationMessage(() => loadPack(dir))).toMatch(/tiny-corridor\.json: its bytes do not match/);
  });

  it('rejects a suite copy whose scenario changed (the suite loader)', () => {
    const dir = copyPack();
    const file = join(dir, 'suite', 'tiny-corridor.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"max_steps": 16', '"max_steps": 17'));
    expect(readFileSync(file, 'utf8')).toContain('"max_steps": 17');
    expect(validationMessage(() => loadPack(dir))).toMatch(/scenario_hash: does not match/);
  });

  it('rejects an extra file in the suite copy or in the pack, and a missing part', () => {
    const a = copyPack();
    writeFileSync(join(a, 'suite', 'notes.txt'), 'x');
    expect(validationMessage(() => loadPack(a))).toMatch(/notes\.txt: unlisted file/);
    const b = copyPack();
    writeFileSync(join(b, 'README'), 'x');
    expect(validationMessage(() => loadPack(b))).toMatch(/README: unexpected entry/);
    const c = copyPack();
    rmSync(join(c, 'manifest.json'));
    expect(validationMessage(() => loadPack(c))).toMatch(/manifest\.json: missing/);
    expect(validationMessage(() => loadPack(join(scratch, 'nope')))).toMatch(/does not exist/);
  });

  it('rejects a replaced manifest (another seed schedule) and a non-canonical one', () => {
    const a = copyPack();
    writeFileSync(join(a, 'manifest.json'), manifestText(buildManifest(loadSuiteDir(TINY_SUITE), ['1', '8'])));
    expect(validationMessage(() => loadPack(a))).toMatch(/manifest_hash: is [0-9a-f]+, but manifest\.json has hash/);
    const b = copyPack();
    writeFileSync(join(b, 'manifest.json'), readFileSync(join(b, 'manifest.json'), 'utf8').replace(/\n$/, ''));
    expect(validationMessage(() => loadPack(b))).toMatch(/not in canonical manifest form/);
  });
});

describe('checkResultAgainstPack', () => {
  it('accepts a result on the pack manifest', () => {
    const result = authenticateResult(built.text, 'result.json', pack.suite);
    expect(() => checkResultAgainstPack(pack, result, 'result.json')).not.toThrow();
  });

  it('refuses a result on another manifest: no official score (exit 5)', async () => {
    const other = await buildTinyResult(['1', '8']);
    const result = authenticateResult(other.text, 'other.json', pack.suite);
    expect(() => checkResultAgainstPack(pack, result, 'other.json')).toThrow(MismatchError);
    expect(() => checkResultAgainstPack(pack, result, 'other.json')).toThrow(/not the manifest .* of environment pack ember-pack-/);
  });

  it('refuses a recorded burning set that does not match the fire world', () => {
    const result = authenticateResult(built.text, 'result.json', pack.suite);
    const episode = result.episodes[0]!;
    const forged = {
      ...result,
      episodes: [{ ...episode, record: { ...episode.record, initial: { ...episode.record.initial, burning: [] } } }, ...result.episodes.slice(1)],
    };
    expect(() => checkResultAgainstPack(pack, forged, 'result.json')).toThrow(/initial\.burning does not match/);
  });
});
