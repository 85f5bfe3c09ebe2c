// The generated sources are what their generators print today: editing one by
// hand, or a generator without regenerating, fails here.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../eval/kit.js';

const GENERATED = [
  ['scripts/gen-keccak.py', 'src/core/hash/keccak.ts'],
  ['scripts/gen-keccak-wasm.py', 'src/core/hash/keccak-wasm.ts'],
] as const;

describe('generated sources', () => {
  for (const [script, file] of GENERATED) {
    it(`${file} is what ${script} prints`, () => {
      // -B: no __pycache__ left beside the scripts.
      const printed = execFileSync('python3', ['-B', join(ROOT, script)], { cwd: ROOT, encoding: 'utf8' });
      expect(printed === readFileSync(join(ROOT, file), 'utf8')).toBe(true);
    });
  }
});
