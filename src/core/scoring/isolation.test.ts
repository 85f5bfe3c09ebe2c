import { describe, expect, it } from 'vitest';
import { isolationLines, overallIsolation } from './isolation.js';

describe('isolation lines', () => {
  it('names one level for trials that share it', () => {
    expect(isolationLines(['sandboxed', 'sandboxed'])).toBe('Agent isolation: sandboxed (trial 1, trial 2)\n');
    expect(isolationLines(['in_process'])).toBe('Agent isolation: in_process (trial 1)\n');
  });

  it('groups mixed levels in order of first appearance and warns about trials without a sandbox', () => {
    const text = isolationLines(['sandboxed', 'none', 'sandboxed', null]);
    const [first, warning, end] = text.split('\n');
    expect(first).toBe('Agent isolation: sandboxed (trial 1, trial 3), none (trial 2), not recorded (trial 4)');
    expect(warning).toMatch(/^WARNING: trial 2 ran without a sandbox \(isolation none\): the agent had the user's full rights/);
    expect(end).toBe('');
  });

  it('says "every trial" when no trial had a sandbox, and nothing without records', () => {
    expect(isolationLines(['none', 'none'])).toContain('WARNING: every trial ran without a sandbox');
    expect(isolationLines([])).toBe('');
    expect(isolationLines(['sandboxed', null])).not.toContain('WARNING');
  });

  it('gives the overall level', () => {
    expect(overallIsolation(['sandboxed', 'sandboxed'])).toBe('sandboxed');
    expect(overallIsolation(['sandboxed', 'none'])).toBe('mixed');
    expect(overallIsolation(['none', null])).toBe('mixed');
    expect(overallIsolation([null])).toBeNull();
    expect(overallIsolation([])).toBeNull();
  });
});
