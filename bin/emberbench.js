#!/usr/bin/env node
// The npm bin: runs the compiled CLI in dist/ (built with `npm run build`).
import { existsSync } from 'node:fs';
import module from 'node:module';

// Node 22.1+ keeps compiled code between runs (in the system's temporary
// folder unless NODE_COMPILE_CACHE names another): a shorter start-up, and
// nothing the command computes or writes depends on it. Node 20 has no cache.
module.enableCompileCache?.();

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('emberbench: dist/cli/main.js is missing; run `npm run build` first\n');
  process.exit(1);
}
const { runCli } = await import(entry.href);
await runCli(process.argv.slice(2));
