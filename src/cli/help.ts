/** Help texts: the command tree, a group, and one command's usage. */

import type { CommandSpec, OptionSpec } from './command.js';
import { commandsUnder, type CommandNode } from './tree.js';

export const PROGRAM = 'emberbench';

/** Options every command accepts (cli-v1.0.md "Command tree"). */
export const COMMON_OPTIONS: readonly OptionSpec[] = [
  { name: 'json', kind: 'flag', description: 'print only the result, as one canonical JSON line on stdout' },
  { name: 'debug', kind: 'flag', description: 'print a stack trace to stderr on failure' },
  { name: 'help', kind: 'flag', description: 'print this help and exit' },
];

function optionUsage(option: OptionSpec): string {
  const flag = option.kind === 'flag' ? `--${option.name}` : `--${option.name} ${option.valueName ?? 'VALUE'}`;
  if (option.required) return option.kind === 'repeatable' ? `${flag} [${flag}]...` : flag;
  return option.kind === 'repeatable' ? `[${flag}]...` : `[${flag}]`;
}

/** `emberbench episode run --scenario FILE ... [--json] [--debug]` */
export function usageLine(command: CommandSpec): string {
  const parts = [PROGRAM, ...command.words, ...command.positionals.map((p) => p.name)];
  parts.push(...command.options.map(optionUsage), '[--json]', '[--debug]');
  return parts.join(' ');
}

function columns(rows: readonly (readonly [string, string])[], minWidth: number): string[] {
  const width = Math.max(minWidth, ...rows.map(([left]) => left.length + 2));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`.trimEnd());
}

function optionLabel(option: OptionSpec): string {
  return option.kind === 'flag' ? `--${option.name}` : `--${option.name} ${option.valueName ?? 'VALUE'}`;
}

function optionDescription(option: OptionSpec): string {
  const notes: string[] = [];
  for (const alias of option.aliases ?? []) notes.push(`also --${alias}`);
  if (option.required) notes.push('required');
  if (option.kind === 'repeatable') notes.push('repeatable');
  return notes.length > 0 ? `${option.description} (${notes.join(', ')})` : option.description;
}

/** The text of `emberbench WORDS --help`. */
export function commandHelp(command: CommandSpec): string {
  const lines = [`usage: ${usageLine(command)}`, '', command.description, ''];
  if (command.positionals.length > 0) {
    const described = command.positionals.map((p) => [p.name, p.option === undefined ? p.description : `${p.description} (or --${p.option} ${p.name})`] as const);
    lines.push('arguments:', ...columns(described, 24), '');
  }
  const options = [...command.options, ...COMMON_OPTIONS];
  lines.push('options:', ...columns(options.map((o) => [optionLabel(o), optionDescription(o)]), 24), '');
  lines.push(command.examples.length > 1 ? 'examples:' : 'example:', ...command.examples.map((e) => `  ${e}`));
  return lines.join('\n') + '\n';
}

function treeLabel(command: CommandSpec): string {
  return [...command.words, ...command.positionals.map((p) => p.name)].join(' ');
}

function commandList(node: CommandNode): string[] {
  return columns(
    commandsUnder(node).map((c) => [treeLabel(c), c.summary]),
    28,
  );
}

/** The text of `emberbench` and `emberbench --help`: the command tree. */
export function treeHelp(root: CommandNode): string {
  const lines = [
    `usage: ${PROGRAM} COMMAND [ARGUMENTS] [OPTIONS]`,
    '',
    'EMBER benchmark command line: deterministic, provider-free, never opens a network connection.',
    '',
    PROGRAM,
    ...commandList(root),
    '',
    'Every command accepts:',
    ...columns(COMMON_OPTIONS.map((o) => [optionLabel(o), o.description]), 24),
    '',
    'Options go after the command words and are never abbreviated.',
    `Run '${PROGRAM} COMMAND --help' for the usage of a command.`,
    '',
    'exit codes: 0 ok, 1 internal, 2 usage, 3 validation, 4 agent, 5 mismatch, 6 output, 130 interrupted',
  ];
  return lines.join('\n') + '\n';
}

/** The text of `emberbench GROUP --help` for a node that is not itself a command. */
export function groupHelp(node: CommandNode): string {
  const lines = [`usage: ${PROGRAM} ${node.path.join(' ')} COMMAND [ARGUMENTS] [OPTIONS]`, ''];
  if (node.summary) lines.push(node.summary, '');
  lines.push('commands:', ...commandList(node), '', `Run '${PROGRAM} ${node.path.join(' ')} COMMAND --help' for the usage of a command.`);
  return lines.join('\n') + '\n';
}
