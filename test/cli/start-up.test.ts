// The built CLI starts without loading the product (src/cli/command-index.ts):
// `version`, `--help` and a command's `--help` are answered from the command
// index, and a command loads its own group's modules, not the archive, zod or
// the other groups. Run from the sources there is no index (skipped then).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, BUILT_CLI, ROOT } from './run-cli.js';

// Appends every module URL Node loads to the file EMBER_LOAD_LOG names (an ESM load hook). A
// file, not stderr: the hook runs on Node's loader thread, whose stderr lines the CLI's
// process.exit can cut off (seen on Node 24).
const HOOK = `data:text/javascript,${encodeURIComponent(
  `import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent("import { appendFileSync } from 'node:fs'; export async function load(url, context, next) { appendFileSync(process.env.EMBER_LOAD_LOG, url + '\\\\n'); return next(url, context); }"));`,
)}`;

let runs = 0;

function loadedBy(args: readonly string[]): { status: number | null; stdout: string; modules: string[] } {
  const log = join(scratch, `loaded-${++runs}.txt`);
  const r = spawnSync(process.execPath, ['--import', HOOK, BIN, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, EMBER_LOAD_LOG: log } });
  const modules = readFileSync(log, 'utf8').split('\n').filter((l) => l !== '').map((l) => l.replace(`file://${ROOT}/`, ''));
  return { status: r.status, stdout: r.stdout, modules };
}

const scratch = mkdtempSync(join(tmpdir(), 'ember-start-up-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

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

  it('episode run with a builtin agent loads no other agent host, no chat-adapter configuration, no metrics, no scorer and no generator', () => {
    const out = join(scratch, 'record.json');
    const run = loadedBy(['episode', 'run', '--scenario', join(ROOT, 'test', 'cli', 'fixtures', 'corridor.json'), '--seed', '0', '--agent', 'builtin:always-stay', '--out', out]);
    expect(run.status).toBe(0);
    expect(run.modules).toContain('dist/core/sim/simulation.js');
    const unneeded = ['dist/node/agents/module-agent.js', 'dist/node/agents/command-agent.js', 'dist/node/agents/openai-chat/session.js', 'dist/core/metrics/', 'dist/core/eval/authenticate.js', 'dist/core/eval/result.js', 'dist/core/llm/', 'dist/core/scoring/operational.js', 'dist/node/agents/openai-chat/config-file.js', 'dist/core/scoring/evidence.js', 'dist/core/scoring/references.js', 'dist/core/stats/bootstrap.js', 'dist/core/generate/', 'dist/node/generated-suite.js', 'node_modules/decimal.js/', 'node_modules/zod/'];
    for (const module of unneeded) expect(run.modules.filter((m) => m.startsWith(module)), module).toEqual([]);
  });
});
