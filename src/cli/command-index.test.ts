import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCommandIndex, isCommandIndex, lazyModules, locateCommandModules, type ExportedModule } from './command-index.js';
import { commandHelp, groupHelp, treeHelp } from './help.js';
import { main } from './main.js';
import { COMMAND_MODULES } from './registry.js';
import { buildCommandTree, commandsUnder, type CommandNode } from './tree.js';

const CLI_DIR = import.meta.dirname;
const load = (file: string) => import(/* @vite-ignore */ `./${file}`) as Promise<Record<string, unknown>>;

/** What the build finds: the command modules of commands/, located as scripts/write-cli-index.js does. */
function exportedModules(): Promise<ExportedModule[]> {
  const files = readdirSync(join(CLI_DIR, 'commands'))
    .filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))
    .map((n) => `commands/${n.replace(/\.ts$/, '.js')}`);
  return locateCommandModules(COMMAND_MODULES, files, load);
}

/** Every help text of a tree: the root's, each group's, each command's. */
function helpTexts(root: CommandNode): string[] {
  const groups: string[] = [];
  const walk = (node: CommandNode): void => {
    if (node.children.size > 0 && node.path.length > 0) groups.push(groupHelp(node));
    for (const child of node.children.values()) walk(child);
  };
  walk(root);
  return [treeHelp(root), ...groups, ...commandsUnder(root).map(commandHelp)];
}

describe('the command index', () => {
  it('locates every registered module in one file and survives JSON', async () => {
    const index = buildCommandIndex(COMMAND_MODULES, await exportedModules());
    expect(index.modules.map((m) => m.group)).toEqual(COMMAND_MODULES.map((m) => m.group));
    expect(index.modules.find((m) => m.group === 'episode')).toMatchObject({ file: 'commands/episode.js', exportName: 'episodeModule' });
    const copy: unknown = JSON.parse(JSON.stringify(index));
    expect(isCommandIndex(copy)).toBe(true);
    expect(copy).toEqual(index);
  });

  it('gives the lazy tree the same commands and help texts, word for word, as the registry', async () => {
    const index = JSON.parse(JSON.stringify(buildCommandIndex(COMMAND_MODULES, await exportedModules()))) as Parameters<typeof lazyModules>[0];
    const lazy = buildCommandTree(lazyModules(index, load));
    const eager = buildCommandTree(COMMAND_MODULES);
    expect(helpTexts(lazy)).toEqual(helpTexts(eager));
  });

  it('runs a command through its lazily loaded module', async () => {
    const index = buildCommandIndex(COMMAND_MODULES, await exportedModules());
    const loaded: string[] = [];
    const modules = lazyModules(index, (file) => {
      loaded.push(file);
      return load(file);
    });
    const out: string[] = [];
    const code = await main(['version', '--json'], { stdout: (t) => out.push(t), stderr: () => undefined, stderrIsTerminal: false }, { modules });
    expect(code).toBe(0);
    expect(loaded).toEqual(['commands/version.js']);
    expect(JSON.parse(out.join(''))).toMatchObject({ command: 'version', benchmark_revision: expect.any(Number) as number });
  });

  it('refuses a module exported by no file, and says to rebuild when the index and a module disagree', async () => {
    expect(() => buildCommandIndex(COMMAND_MODULES, [])).toThrow("command module 'version' is exported by 0 files (expected 1)");
    const index = buildCommandIndex(COMMAND_MODULES, await exportedModules());
    const stale = { ...index, modules: index.modules.map((m) => (m.group === 'version' ? { ...m, commands: m.commands.map((c) => ({ ...c, words: ['version'] })), exportName: 'gone' } : m)) };
    const [version] = lazyModules(stale, load);
    await expect(version!.commands[0]!.run(undefined as never, undefined as never)).rejects.toThrow('run `npm run build` again');
  });
});
