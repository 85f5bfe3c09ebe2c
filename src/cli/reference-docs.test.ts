import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderCliReference } from './reference-docs.js';

describe('docs/cli.md', () => {
  it('is the current --help of every command (run `npm run docs:cli` after changing a command)', async () => {
    expect(readFileSync('docs/cli.md', 'utf8')).toBe(await renderCliReference());
  });
});
