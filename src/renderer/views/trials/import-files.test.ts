import { describe, expect, test } from 'vitest';
import { splitImportFiles } from './import-files.js';

const f = (name: string) => ({ name });

describe('the files of an import', () => {
  test('one result, with or without its operational record, in any order', () => {
    expect(splitImportFiles([f('r.json')])).toEqual({ result: f('r.json'), problem: '' });
    expect(splitImportFiles([f('r.operational.json'), f('r.json')])).toEqual({ result: f('r.json'), operational: f('r.operational.json'), problem: '' });
    expect(splitImportFiles([f('r.sig.json'), f('r.json')])).toEqual({ result: f('r.json'), signature: f('r.sig.json'), problem: '' });
    expect(splitImportFiles([f('a.sig.json'), f('b.sig.json'), f('r.json')]).problem).toMatch(/at most one signature file/);
  });

  test('refuses a record alone, two results or two records, saying why', () => {
    expect(splitImportFiles([f('r.operational.json')])).toEqual({ problem: expect.stringContaining('result file too') });
    expect(splitImportFiles([f('a.json'), f('b.json')]).problem).toMatch(/one result at a time \(2/);
    expect(splitImportFiles([f('a.json'), f('a.operational.json'), f('b.operational.json')]).problem).toMatch(/at most one operational record/);
  });
});
