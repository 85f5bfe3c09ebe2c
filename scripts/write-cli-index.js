#!/usr/bin/env node
// Writes dist/cli/command-index.json (src/cli/command-index.ts) after `tsc`
// has compiled the CLI: every registered command's spec as data, with the
// file and export that runs it, found by importing the compiled modules.
import { readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli');
const load = (file) => import(pathToFileURL(join(cli, file)).href);

const { COMMAND_MODULES } = await load('registry.js');
const { buildCommandIndex, locateCommandModules } = await load('command-index.js');
const files = readdirSync(join(cli, 'commands'))
  .filter((n) => n.endsWith('.js'))
  .map((n) => `commands/${n}`);
const exported = await locateCommandModules(COMMAND_MODULES, files, load);
const index = buildCommandIndex(COMMAND_MODULES, exported);
writeFileSync(join(cli, 'command-index.json'), `${JSON.stringify(index, null, 1)}\n`);
console.log(`command index: ${index.modules.length} modules, ${index.modules.reduce((n, m) => n + m.commands.length, 0)} commands`);
