#!/usr/bin/env node
// `npm run demo`: a first real run of the benchmark on the command line. It
// evaluates the strongest baseline on the public suite with the public
// development seeds, verifies and scores the result, and prints the score
// summary. Files go to runs/demo/ (ignored by git).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'emberbench.js');
const suite = 'scenarios/public/v1';
const out = join('runs', 'demo');
const agent = process.argv[2] ?? 'congestion-aware-v1';

function emberbench(...args) {
  console.log(`\n$ emberbench ${args.join(' ')}`);
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\nnpm run demo: 'emberbench ${args[0]} ${args[1] ?? ''}' failed with exit code ${result.status}`);
    process.exit(result.status ?? 1);
  }
}

if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) {
  console.log('Building dist/ (npm run build) ...');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

mkdirSync(join(root, out), { recursive: true });
const manifest = join(out, 'manifest.json');
const result = join(out, `${agent}.json`);
const report = join(out, `${agent}.score.json`);
// A fresh start every time: a result is never overwritten, so remove the old one first.
for (const file of [result, report]) rmSync(join(root, file), { force: true });

emberbench('suite', 'validate', suite);
emberbench('evaluation', 'manifest', '--suite', suite, '--seed', '0', '--seed', '1', '--seed', '2', '--out', manifest, '--force');
emberbench('evaluation', 'run', '--suite', suite, '--manifest', manifest, '--model-id', agent, '--agent', `builtin:${agent}`, '--out', result);
emberbench('evaluation', 'verify', '--suite', suite, '--result', result, '--manifest', manifest, '--require-complete');
emberbench('score', '--suite', suite, '--result', result, '--out', report, '--force');
console.log(`\nFiles are in ${out}/. Try another agent: npm run demo -- fire-aware-shortest-path-v1`);
