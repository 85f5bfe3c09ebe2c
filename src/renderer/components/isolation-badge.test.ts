import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { isolationBadge } from './isolation-badge.js';

describe('isolation badge', () => {
  test('names each level; only `none` warns', () => {
    expect(isolationBadge('sandboxed')).toMatchObject({ label: 'sandboxed', warn: false });
    expect(isolationBadge('none')).toMatchObject({ label: 'no sandbox', className: 'isolation-none', warn: true });
    expect(isolationBadge('none').title).toMatch(/full rights/);
    expect(isolationBadge('in_process')).toMatchObject({ label: 'in process', warn: false });
    expect(isolationBadge(null)).toMatchObject({ label: 'not recorded', warn: false });
    expect(isolationBadge(undefined)).toEqual(isolationBadge(null));
  });

  test('every badge class has its style, `none` a warning colour of its own', () => {
    const css = readFileSync(join(import.meta.dirname, '..', 'styles.css'), 'utf8');
    expect(css).toMatch(/\.pill\.isolation-none \{ background: #[0-9a-f]{6}; color: #[0-9a-f]{6}; font-weight: 600; \}/);
    expect(css).toContain('.pill.isolation-sandboxed {');
  });
});
