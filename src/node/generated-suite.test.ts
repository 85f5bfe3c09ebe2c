import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateGeneratorConfig } from '../core/generate/config.js';
import { createGeneratedSuite, generatedSuiteDir, loadGeneratedSuite } from './generated-suite.js';

const scratch = mkdtempSync(join(tmpdir(), 'ember-generated-suite-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const CONFIG = validateGeneratorConfig(
  {
    generator_config_version: '1.0',
    suite_id: 'unit-gen',
    suite_version: '1.0',
    visibility: 'private',
    seed_role: 'evaluation',
    families: [{ family: 'dead_end_rooms', count: 2, rows: [9, 11], cols: [14, 18], people: [8, 12], spread_permille: [100, 200], max_steps: [40, 60] }],
  },
  'config',
);

describe('createGeneratedSuite', () => {
  it('publishes a batch the loader accepts, whose suite/ is what suite-taking commands load', async () => {
    const out = join(scratch, 'ok');
    const created = await createGeneratedSuite(CONFIG, '3', out);
    const loaded = loadGeneratedSuite(out + '/');
    expect(loaded.record.batchId).toBe(created.batchId);
    expect(loaded.suiteDir).toBe(generatedSuiteDir(out));
    expect(loaded.suite.entries.map((e) => e.scenarioId)).toEqual(['dead-end-rooms-001', 'dead-end-rooms-002']);
    expect(loaded.suite.visibility).toBe('private');
  });

  it('leaves nothing behind when publishing fails', async () => {
    const out = join(scratch, 'failing');
    await expect(
      createGeneratedSuite(CONFIG, '3', out, {
        beforePublish: () => {
          throw new Error('disk full');
        },
      }),
    ).rejects.toMatchObject({ kind: 'output', message: expect.stringContaining('disk full') as string });
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(scratch).filter((name) => name.includes('failing'))).toEqual([]);
  });

  it('never replaces an existing entry, not even an empty directory or a file', async () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, 'x');
    await expect(createGeneratedSuite(CONFIG, '3', file)).rejects.toMatchObject({ kind: 'output' });
    await expect(createGeneratedSuite(CONFIG, '3', join(scratch, 'no', 'parent'))).rejects.toMatchObject({ kind: 'output', message: expect.stringContaining('parent') as string });
  });
});
