import { describe, expect, test } from 'vitest';
import { readPackChecks, savePackCheck } from './pack-checks.js';

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
}

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
