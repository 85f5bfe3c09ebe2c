import { describe, expect, it } from 'vitest';
import { slowestFiles, slowestFilesLine } from './summary-reporter.js';

describe('the slowest files line', () => {
  const times = [
    { file: 'a.test.ts', ms: 1200 },
    { file: 'b.test.ts', ms: 45_000 },
    { file: 'c.test.ts', ms: 300 },
    { file: 'd.test.ts', ms: 1200 },
    { file: 'e.test.ts', ms: 9_999 },
    { file: 'f.test.ts', ms: 20_050 },
  ];

  it('names the slowest first, ties by name, and no more than asked', () => {
    expect(slowestFiles(times, 3).map((t) => t.file)).toEqual(['b.test.ts', 'f.test.ts', 'e.test.ts']);
    expect(slowestFiles(times, 5).slice(3).map((t) => t.file)).toEqual(['a.test.ts', 'd.test.ts']);
  });

  it('prints five files in seconds, and nothing for an empty run', () => {
    expect(slowestFilesLine(times)).toBe('slowest files: b.test.ts 45.0 s, f.test.ts 20.1 s, e.test.ts 10.0 s, a.test.ts 1.2 s, d.test.ts 1.2 s\n');
    expect(slowestFilesLine([])).toBe('');
  });
});
