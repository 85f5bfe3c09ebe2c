import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROCESS_STAGE_FILES } from './process-stage.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

// A stale entry (a file renamed or moved) would silently run nothing in
// either npm test or the process stage.
describe('the process stage list', () => {
  it.each(PROCESS_STAGE_FILES)('%s names test files that exist', (entry) => {
    if (!entry.includes('*')) {
      expect(existsSync(join(ROOT, entry)), entry).toBe(true);
      return;
    }
    expect(entry, 'only FOLDER/**/*.test.ts globs are used').toMatch(/^[^*]+\/\*\*\/\*\.test\.ts$/);
    const folder = join(ROOT, entry.slice(0, entry.indexOf('/**')));
    const tests = readdirSync(folder, { recursive: true }).filter((name) => String(name).endsWith('.test.ts'));
    expect(tests.length, entry).toBeGreaterThan(0);
  });
});
