/**
 * Renders docs/cli.md, the command reference, from the commands' own --help
 * texts, so the reference cannot drift from the code: `npm run docs:cli`
 * rewrites it and a test fails when it is stale.
 */

import { captureIO } from './io.js';
import { main } from './main.js';
import { COMMAND_MODULES } from './registry.js';

async function helpOf(words: readonly string[]): Promise<string> {
  const io = captureIO();
  const code = await main([...words, '--help'], io);
  if (code !== 0) throw new Error(`emberbench ${words.join(' ')} --help exited ${code}: ${io.err()}`);
  return io.out().trimEnd();
}

const PREAMBLE = `# The emberbench command line

This file is generated from the commands' \`--help\` texts by
\`npm run docs:cli\`; do not edit it by hand. The rules that apply to every
command come first.

## Rules for every command

- **Output.** \`--json\` prints only the result, as one canonical JSON line on
  stdout (sorted keys, no whitespace, ASCII), with a \`command\` field; on
  failure stdout is empty and stderr holds one line
  \`{"error":{"exit_code":N,"kind":"...","message":"..."}}\`. Without
  \`--json\`, results are \`key: value\` lines and errors read
  \`emberbench: error: MESSAGE\`. \`--debug\` adds a stack trace on stderr;
  there is none without it. No colours. Results never hold input or output
  paths, timestamps, host names or seed values.
- **Exit codes.** 0 ok; 1 internal (a bug: rerun with \`--debug\`); 2 usage
  (unknown command or option, a missing or repeated option, a bad seed,
  duplicate seed, bad \`--resamples\`, bad \`--model-id\`, malformed
  \`--agent\`, missing \`--agent-path\` directory); 3 validation (an input is
  missing, unreadable, not JSON, malformed, not canonical, tampered, or fails
  a check); 4 agent (cannot be loaded, raised, timed out, or produced a
  rejected action set); 5 mismatch (a replay does not reproduce a record, or a
  result does not match the required manifest or completeness); 6 output
  (the output exists, is a directory, is also an input, its directory is
  missing, or it cannot be written); 130 interrupted (Ctrl+C).
- **Files.** Inputs are never written. An output equal to an input (the same
  file by any path), or a symlink or hard link to a file inside an input
  folder, is refused even with \`--force\`. An existing output is replaced
  only with \`--force\`, and only if it is a regular file: a device, FIFO,
  socket or symlink is refused by name. Parent directories are never created. The
  output is written to a temporary file in the same directory, fsynced, then
  hard-linked to the output path (or renamed over it with \`--force\`); on
  any failure nothing is left behind. \`evaluation run\` is the exception: while it runs it
  appends each finished episode to the journal \`OUT.journal\` (fsynced),
  writes OUT once at the end and removes the journal; an interrupted run
  leaves the journal, and \`--resume\` continues it.
  Inputs are validated and the output path is checked before any agent is
  loaded or any episode runs.
- **Arguments.** A command whose only input is one artifact takes it as a
  positional argument (\`scenario validate FILE\`, \`suite validate DIR\`,
  \`generated validate DIR\`, \`pack verify DIR\`, \`bundle verify DIR\`);
  a command with several inputs or an output names each with an option
  (\`--suite\`, \`--result\`, \`--bundle\`, \`--out\`), as the
  specification's commands do. Older forms are accepted as documented
  aliases: \`pack verify --pack DIR\`, \`operational validate --record\`
  (now \`--operational\`: \`--record\` is a run record in \`replay verify\`),
  \`score compare --a/--b\` (now \`--report-a/--report-b\`: score reports,
  where \`statistics compare --a/--b\` take results, also as
  \`--result-a/--result-b\`). A missing command (\`emberbench\`,
  \`emberbench scenario\`) is a usage error (exit 2) that lists the choices;
  \`--help\` prints them (exit 0).
- **Interrupts and progress.** Ctrl+C exits 130 at once, also in the middle of
  a long computation (\`score\`, \`statistics\`, \`pack build\` and
  \`verify\`, \`bundle create\` and \`verify\`, \`evaluation merge\`,
  \`archive import\` and \`archive export\` yield to the event loop every
  20 ms or so), and leaves no output or temporary file; \`archive import\`
  authenticates and scores before its one write transaction, so an
  interrupted import leaves the archive as it was. \`evaluation run\` stops at
  an episode boundary and \`--resume\` finishes it. Long computations show a
  progress line on stderr when it is a terminal, never with \`--json\` and
  never when stderr is a file or a pipe.
- **Determinism.** The same command with the same inputs gives byte-identical
  files and stdout from any directory, in any environment, in any option
  order (except the order of \`--seed\`, which is the manifest order). No
  configuration file or environment variable changes a result, and no
  command opens a network connection (an agent you load may).
- **Agents.** \`--agent builtin:<id>\` runs a baseline in process;
  \`--agent MODULE:EXPORT\` runs your JavaScript or TypeScript factory in a
  child process, resolved only inside the \`--agent-path\` directories (never
  the current directory); \`--agent-command "PROGRAM ARGS"\` (evaluation run)
  runs any program on the line protocol. See [agents.md](agents.md).
`;

/** The whole of docs/cli.md. */
export async function renderCliReference(): Promise<string> {
  const parts = [PREAMBLE, '## Commands\n', '```text\n' + (await helpOf([])) + '\n```\n'];
  for (const module of COMMAND_MODULES) {
    for (const command of module.commands) {
      parts.push(`### emberbench ${command.words.join(' ')}\n`, '```text\n' + (await helpOf(command.words)) + '\n```\n');
    }
  }
  return parts.join('\n');
}
