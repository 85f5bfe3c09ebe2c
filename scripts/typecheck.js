#!/usr/bin/env node
// Type-checks every layer with its own tsconfig, so that a layer importing
// what it may not run with (node:* in src/core, say) fails the build.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const projects = readdirSync(join(root, 'src'))
  .map((layer) => join('src', layer, 'tsconfig.json'))
  .filter((p) => existsSync(join(root, p)));
projects.push('tsconfig.test.json');

let failed = false;
for (const project of projects) {
  try {
    execFileSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
    console.log(`typecheck ok: ${project}`);
  } catch {
    console.error(`typecheck FAILED: ${project}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
