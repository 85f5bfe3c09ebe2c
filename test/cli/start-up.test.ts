// The built CLI starts without loading the product (src/cli/command-index.ts):
// `version`, `--help` and a command's `--help` are answered from the command
// index, and a command loads its own group's modules, not the archive, zod or
// the other groups. Run from the sources there is no index (skipped then).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, BUILT_CLI, ROOT } from './run-cli.js';

// Prints every module URL Node loads (an ESM load hook), one per line on stderr.
const HOOK = `data:text/javascript,${encodeURIComponent(
  `import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent("export async function load(url, context, next) { process.stderr.write('loaded ' + url + '\\\\n'); return next(url, context); }"));`,
)}`;

function loadedBy(args: readonly string[]): { status: number | null; stdout: string; modules: string[] } {
  const r = spawnSync(process.execPath, ['--import', HOOK, BIN, ...args], { cwd: ROOT, encoding: 'utf8' });
  const modules = r.stderr.split('\n').filter((l) => l.startsWith('loaded ')).map((l) => l.slice('loaded '.length).replace(`file://${ROOT}/`, ''));
  return { status: r.status, stdout: r.stdout, modules };
}

const HEAVY = ['node_modules/zod/', 'node_modules/better-sqlite3/', 'dist/node/archive/', 'dist/node/services/', 'dist/core/sim/'];

describe.skipIf(!BUILT_CLI)('the built CLI starts from its command index', () => {
  it('has an index of every command beside dist/cli/main.js', () => {
    const index = JSON.parse(readFileSync(join(ROOT, 'dist', 'cli', 'command-index.json'), 'utf8')) as { modules: { commands: { words: string[] }[] }[] };
    expect(index.modules.flatMap((m) => m.commands.map((c) => c.words.join(' ')))).toContain('evaluation run');
  });

  it.each([[['version']], [['--help']], [['evaluation', 'run', '--help']], [['archive', '--help']]])('%j loads none of the heavy modules', (args) => {
    const run = loadedBy(args);
    expect(run.status).toBe(0);
    expect(run.stdout.length).toBeGreaterThan(0);
    expect(run.modules.length).toBeGreaterThan(5);
    for (const heavy of HEAVY) expect(run.modules.filter((m) => m.startsWith(heavy)), heavy).toEqual([]);
  });

  it('a command loads its own group and no other', () => {
    const run = loadedBy(['scenario', 'validate', join(ROOT, 'test', 'cli', 'fixtures', 'corridor.json'), '--json']);
    expect(run.status).toBe(0);
    expect(run.modules).toContain('dist/cli/commands/scenario.js');
    expect(run.modules.filter((m) => m.startsWith('dist/cli/commands/'))).toEqual(['dist/cli/commands/scenario.js']);
    expect(run.modules.filter((m) => m.startsWith('dist/node/archive/'))).toEqual([]);
  });
});
