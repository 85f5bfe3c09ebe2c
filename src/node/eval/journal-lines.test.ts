import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OutputError } from '../../core/errors.js';
import { forEachJournalLine } from './journal-lines.js';

const dir = mkdtempSync(join(tmpdir(), 'journal-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function linesOf(text: string, chunkBytes: number): { lines: string[]; covered: number; size: number } {
  const path = join(dir, 'j');
  writeFileSync(path, text);
  const lines: string[] = [];
  const { covered, size } = forEachJournalLine(path, (line, k) => {
    expect(k).toBe(lines.length);
    lines.push(line);
  }, chunkBytes);
  return { lines, covered, size };
}

describe('forEachJournalLine', () => {
  it('gives each whole line, across any read size, and leaves a torn last line out', () => {
    const text = 'header\n{"a":"caf\u00e9 \u{1f525}"}\n\nlong ' + 'x'.repeat(100) + '\ntorn';
    for (const chunkBytes of [1, 2, 3, 7, 64, 1 << 16]) {
      const { lines, covered, size } = linesOf(text, chunkBytes);
      expect(lines).toEqual(['header', '{"a":"caf\u00e9 \u{1f525}"}', '', 'long ' + 'x'.repeat(100)]);
      expect(size).toBe(Buffer.byteLength(text));
      expect(covered).toBe(Buffer.byteLength(text) - 'torn'.length);
    }
  });

  it('reads an empty journal and one without a whole line as no lines', () => {
    expect(linesOf('', 4)).toEqual({ lines: [], covered: 0, size: 0 });
    expect(linesOf('partial', 4)).toEqual({ lines: [], covered: 0, size: 7 });
  });

  it('fails a missing journal as an output error', () => {
    expect(() => forEachJournalLine(join(dir, 'absent'), () => undefined)).toThrow(OutputError);
  });
});
