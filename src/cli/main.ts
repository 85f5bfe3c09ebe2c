/**
 * The emberbench command: `main(argv, io)` parses, runs one command and
 * returns its exit code; `runCli` wires it to the process (stdout/stderr,
 * SIGINT, exit). bin/emberbench.js calls runCli from dist/; running this
 * file directly (`node --import tsx src/cli/main.ts ...`) does the same.
 */

import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { useNativeHash } from '../node/native-hash.js';
import { setPlaceholderNotices } from '../node/output-placeholder.js';
import { installInterruptHandler } from './interrupt.js';
import type { CliIO } from './io.js';
import { jsonReport, humanReport, writeFailure, type OutputMode } from './output.js';
import { parseCommandLine } from './parse.js';
import { isCommandIndex, lazyModules } from './command-index.js';
import { buildCommandTree, type CommandNode } from './tree.js';
import type { CommandModule } from './command.js';

/** Before the command line is parsed, --json and --debug anywhere decide the error format. */
function preliminaryMode(argv: readonly string[]): OutputMode {
  return { json: argv.includes('--json'), debug: argv.includes('--debug') };
}

export interface MainOptions {
  /** The command modules (default: the registered ones). Tests pass their own. */
  readonly modules?: readonly CommandModule[];
}

const COMMAND_INDEX = new URL('./command-index.json', import.meta.url);

/**
 * The registered commands: from the command index beside the built CLI
 * (command-index.ts: only the running command's module is loaded), or, run
 * from the sources where there is no index, from the whole registry.
 */
async function registeredTree(): Promise<CommandNode> {
  let text: string;
  try {
    text = readFileSync(COMMAND_INDEX, 'utf8');
  } catch {
    return (await import('./registry.js')).commandTree();
  }
  const index: unknown = JSON.parse(text);
  if (!isCommandIndex(index)) throw new Error(`${fileURLToPath(COMMAND_INDEX)} is not a command index: run \`npm run build\` again`);
  return buildCommandTree(lazyModules(index, (file) => import(new URL(file, import.meta.url).href) as Promise<Record<string, unknown>>));
}

/** Runs one command line (argv without `node` and the script). Never throws; returns the exit code. */
export async function main(argv: readonly string[], io: CliIO, options: MainOptions = {}): Promise<number> {
  let mode = preliminaryMode(argv);
  try {
    const tree = options.modules ? buildCommandTree(options.modules) : await registeredTree();
    const outcome = parseCommandLine(argv, tree);
    switch (outcome.kind) {
      case 'help':
        io.stdout(outcome.text);
        return 0;
      case 'run': {
        mode = { json: outcome.args.flag('json'), debug: outcome.args.flag('debug') };
        let humanText: string | undefined;
        const report = await outcome.command.run(outcome.args, { io, setHumanText: (text) => void (humanText = text) });
        const full = { command: outcome.command.words.join(' '), ...report };
        // Formatted before anything is printed: a report that cannot be
        // written is an internal error with stdout still empty.
        const text = mode.json ? jsonReport(full) : (humanText ?? humanReport(full));
        io.stdout(text);
        return 0;
      }
    }
  } catch (error) {
    return writeFailure(error, mode, io);
  }
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((done) => {
    if (stream.writableLength === 0) done();
    else stream.write('', () => done());
  });
}

/** The process entry: runs main, exits with its code; SIGINT removes temporary files and exits 130. */
export async function runCli(argv: readonly string[] = process.argv.slice(2)): Promise<never> {
  const io: CliIO = {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    stderrIsTerminal: process.stderr.isTTY === true,
  };
  // A closed pipe (`emberbench ... | head`) is not a failure of the command.
  process.stdout.on('error', () => undefined);
  useNativeHash();
  const uninstall = installInterruptHandler(preliminaryMode(argv).json, io);
  // A placeholder left by a killed earlier run is cleared with a notice (never on --json's stderr).
  const restoreNotices = setPlaceholderNotices(preliminaryMode(argv).json ? undefined : (text) => io.stderr(`emberbench: ${text}\n`));
  const code = await main(argv, io);
  restoreNotices();
  uninstall();
  await flushed(process.stdout);
  await flushed(process.stderr);
  // Exit explicitly: an agent host or a stray handle must not keep the command alive.
  process.exit(code);
}

function invokedDirectly(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (invokedDirectly()) void runCli();
