import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Archive } from '../archive/archive.js';
import { errorValue } from './dispatch.js';
import { generateHandlers, type GenerateHandlers } from './generate-handlers.js';
import { rawDatabase } from '../../../test/kits/archive-kit.js';

const DEFAULT_CONFIG = join(import.meta.dirname, '..', '..', '..', 'scenarios', 'generated', 'default.json');

/** A one-family configuration small enough to generate in milliseconds. */
function smallConfig(family: Record<string, unknown> = {}): string {
  const config = JSON.parse(readFileSync(DEFAULT_CONFIG, 'utf8')) as { families: Record<string, unknown>[] };
  config.families = [{ ...config.families[0], count: 2, ...family }];
  return JSON.stringify(config);
}

async function errorOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    const result = errorValue(error);
    if (!result.ok) return result.error;
  }
  throw new Error('expected a refusal');
}

describe('generate handlers', () => {
  let dir: string;
  let archive: Archive;
  let handlers: GenerateHandlers;
  let changes = 0;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ember-generate-'));
    archive = Archive.open(join(dir, 'a.sqlite'));
    changes = 0;
    handlers = generateHandlers(archive, DEFAULT_CONFIG, () => changes++);
  });

  afterEach(() => {
    archive.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the default configuration is the shipped file, byte for byte', async () => {
    expect((await handlers['generated.defaultConfig']({})).configText).toBe(readFileSync(DEFAULT_CONFIG, 'utf8'));
  });

  test('a preview is deterministic, limited, and freezing gives the same batch as a generated suite', async () => {
    const configText = smallConfig();
    const a = await handlers['generated.preview']({ configText, batchSeed: '7', limit: 1 });
    const b = await handlers['generated.preview']({ configText, batchSeed: '7', limit: 12 });
    expect(a.scenarioCount).toBe(2);
    expect(a.scenarios).toHaveLength(1);
    expect(b.scenarios).toHaveLength(2);
    expect(b.scenarios[0]).toEqual(a.scenarios[0]);
    expect((await handlers['generated.preview']({ configText, batchSeed: '8', limit: 12 })).batchId).not.toBe(a.batchId);
    const frozen = await handlers['generated.create']({ configText, batchSeed: '7' });
    expect(frozen.batchId).toBe(a.batchId);
    expect(frozen.suite.source).toBe('generated');
    expect(frozen.suite.scenarioCount).toBe(2);
    expect(changes).toBe(1);
  });

  test('a configuration field out of range is a usage error naming that field, and nothing is stored', async () => {
    const error = await errorOf(handlers['generated.create']({ configText: smallConfig({ rows: [2, 14] }), batchSeed: '7' }));
    expect(error).toMatchObject({ kind: 'usage', field: 'configText.families[0].rows[0]' });
    expect(error.message).toMatch(/^configuration: families\[0\]\.rows\[0\]: 2 is below/);
    expect(rawDatabase(archive).prepare('SELECT COUNT(*) AS n FROM suites').get()).toEqual({ n: 0 });
    expect(changes).toBe(0);
  });

  test('too many people for the drawn layouts names the people field', async () => {
    const error = await errorOf(handlers['generated.preview']({ configText: smallConfig({ rows: [10, 10], cols: [18, 18], people: [120, 128] }), batchSeed: '7', limit: 12 }));
    expect(error.kind).toBe('usage');
    expect(error.field).toBe('configText.families[0].people');
  });

  test('malformed JSON and a bad batch seed name their fields', async () => {
    expect(await errorOf(handlers['generated.preview']({ configText: '{', batchSeed: '7', limit: 12 }))).toMatchObject({ kind: 'usage', field: 'configText' });
    expect(await errorOf(handlers['generated.preview']({ configText: smallConfig(), batchSeed: '07', limit: 12 }))).toMatchObject({ kind: 'usage', field: 'batchSeed' });
  });
});
