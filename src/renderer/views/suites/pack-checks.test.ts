import { describe, expect, test } from 'vitest';
import { readPackChecks, savePackCheck } from './pack-checks.js';
import { MemoryStorage } from '../../../../test/kits/memory-storage.js';

const DIGEST = 'ab'.repeat(32);

describe('pack Verify results', () => {
  test('survive a reload (read back from storage), with the time of the check', () => {
    const storage = new MemoryStorage();
    const saved = savePackCheck({}, DIGEST, { valid: true, message: 'valid: 12 files' }, new Date('2026-12-02T09:00:00Z'), storage);
    expect(readPackChecks(storage)).toEqual(saved);
    expect(readPackChecks(storage)[DIGEST]).toEqual({ valid: true, message: 'valid: 12 files', checkedAt: '2026-12-02T09:00:00.000Z' });
  });

  test('malformed storage is ignored, never shown as a check', () => {
    const storage = new MemoryStorage();
    storage.setItem('ember.packChecks.v1', JSON.stringify({ [DIGEST]: { valid: 'yes' }, nothex: { valid: true, message: 'm', checkedAt: 'x' } }));
    expect(readPackChecks(storage)).toEqual({});
    storage.setItem('ember.packChecks.v1', '{');
    expect(readPackChecks(storage)).toEqual({});
  });
});
