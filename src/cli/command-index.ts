/**
 * The command index: every command's spec (words, help texts, options) as
 * data, with the file and export of the module that runs it. `npm run build`
 * writes it beside the compiled CLI (dist/cli/command-index.json) from the
 * registered modules themselves, so it cannot say other than they do.
 *
 * Why: loading every command module to parse one command line or print help
 * loads the whole product (420 modules, zod and the archive among them) and
 * costs most of a second of CPU before any work. With the index, the CLI
 * builds its parser and help from one JSON file and imports only the module
 * of the command that runs (lazyModules). Run from the sources (tsx, tests)
 * there is no index and the registry is loaded whole, as before.
 */

import type { CommandModule, CommandSpec } from './command.js';

/** A command's spec without its run function. */
export type CommandSpecData = Omit<CommandSpec, 'run'>;

export interface IndexedModule {
  readonly group: string;
  readonly summary: string;
  /** The module's file, relative to the CLI's folder: `commands/episode.js`. */
  readonly file: string;
  /** The export holding the CommandModule in that file. */
  readonly exportName: string;
  readonly commands: readonly CommandSpecData[];
}

export interface CommandIndex {
  readonly ember_cli_index: 1;
  readonly modules: readonly IndexedModule[];
}

/** A module that a file exports, as found by the build. */
export interface ExportedModule {
  readonly file: string;
  readonly exportName: string;
  readonly module: CommandModule;
}

function specData(spec: CommandSpec): CommandSpecData {
  const { run: _run, ...data } = spec;
  return data;
}

/**
 * The index of `registered` (the registry's order), each module located among
 * `exported`. Throws when a registered module is exported by no file or by two:
 * the index would not know what to load.
 */
export function buildCommandIndex(registered: readonly CommandModule[], exported: readonly ExportedModule[]): CommandIndex {
  const modules = registered.map((module): IndexedModule => {
    const homes = exported.filter((e) => e.module === module);
    if (homes.length !== 1) throw new Error(`command module '${module.group}' is exported by ${homes.length} files (expected 1)`);
    const home = homes[0]!;
    return { group: module.group, summary: module.summary, file: home.file, exportName: home.exportName, commands: module.commands.map(specData) };
  });
  return { ember_cli_index: 1, modules };
}

export function isCommandIndex(value: unknown): value is CommandIndex {
  return typeof value === 'object' && value !== null && (value as { ember_cli_index?: unknown }).ember_cli_index === 1 && Array.isArray((value as { modules?: unknown }).modules);
}

/** Loads a module's file (relative to the CLI's folder) and returns its exports. */
export type ModuleLoader = (file: string) => Promise<Record<string, unknown>>;

/**
 * Finds which file and export holds each registered module, by loading
 * `files` (paths like `commands/episode.js`, relative to the CLI's folder).
 * The build (scripts/write-cli-index.js) and the index's test both use it,
 * so they cannot disagree about what the index is made from.
 */
export async function locateCommandModules(registered: readonly CommandModule[], files: readonly string[], load: ModuleLoader): Promise<ExportedModule[]> {
  const found: ExportedModule[] = [];
  for (const file of [...files].sort()) {
    for (const [exportName, value] of Object.entries(await load(file))) {
      const module = registered.find((m) => m === value);
      if (module !== undefined) found.push({ file, exportName, module });
    }
  }
  return found;
}

/**
 * Command modules built from the index: parsing and help use the indexed
 * specs; running a command imports its module and runs the real spec with
 * the same words. A module whose specs no longer match the index (a build
 * left half done) is an error that says to rebuild, never a wrong command.
 */
export function lazyModules(index: CommandIndex, load: ModuleLoader): CommandModule[] {
  return index.modules.map((indexed) => ({
    group: indexed.group,
    summary: indexed.summary,
    commands: indexed.commands.map(
      (data): CommandSpec => ({
        ...data,
        run: async (args, context) => {
          const real = (await load(indexed.file))[indexed.exportName] as CommandModule | undefined;
          const spec = real?.commands.find((c) => c.words.join(' ') === data.words.join(' '));
          if (spec === undefined) {
            throw new Error(`the command index does not match ${indexed.file} (no '${data.words.join(' ')}' in ${indexed.exportName}): run \`npm run build\` again`);
          }
          return spec.run(args, context);
        },
      }),
    ),
  }));
}
