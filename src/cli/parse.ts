/**
 * Command-line parsing: command words first, then node:util parseArgs in
 * strict mode for the options (never abbreviated). Every problem is a
 * UsageError (exit 2) with a one-line, deterministic message.
 */

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../core/errors.js';
import { ParsedArgs, type CommandSpec, type OptionSpec } from './command.js';
import { COMMON_OPTIONS, PROGRAM as PROGRAM_NAME, commandHelp, groupHelp, treeHelp } from './help.js';
import type { CommandNode } from './tree.js';

export type ParseOutcome =
  | { readonly kind: 'run'; readonly command: CommandSpec; readonly args: ParsedArgs }
  | { readonly kind: 'help'; readonly text: string };

/** Tokens before a `--` terminator: only these can be options. */
function optionZone(rest: readonly string[]): readonly string[] {
  const end = rest.indexOf('--');
  return end < 0 ? rest : rest.slice(0, end);
}

function choices(node: CommandNode): string {
  return [...node.children.keys()].join(', ');
}

/**
 * `emberbench` with no command words, or a group without its subcommand:
 * help with --help, else a usage error (exit 2) that lists the choices.
 */
function parseIncomplete(node: CommandNode, rest: readonly string[]): ParseOutcome {
  const where = node.path.length === 0 ? '' : ` after '${node.path.join(' ')}'`;
  const first = rest[0];
  if (first !== undefined && !first.startsWith('-')) {
    const name = [...node.path, first].join(' ');
    throw new UsageError(`unknown command '${name}' (choose from: ${choices(node)})`);
  }
  if (optionZone(rest).includes('--help')) {
    return { kind: 'help', text: node.path.length === 0 ? treeHelp(node) : groupHelp(node) };
  }
  // Options before the command words: name the real problem, an option no
  // command knows, or a word that is no command, before "missing command".
  const kinds = optionKinds(node);
  let word: string | undefined;
  const zone = optionZone(rest);
  for (let i = 0; i < zone.length; i++) {
    const token = zone[i]!;
    if (!token.startsWith('-')) {
      word = token;
      break;
    }
    const name = token.replace(/^--?/, '').split('=')[0]!;
    const kind = kinds.get(name);
    if (kind === undefined) {
      const hint = name === 'version' || name === 'v' || name === 'V' ? ' (the version is a command: emberbench version)' : '';
      throw new UsageError(`unrecognized option '${token.split('=')[0]}'${hint}`);
    }
    // The value of a value option is its next token (unless written --name=value).
    if (kind !== 'flag' && !token.includes('=')) i++;
  }
  if (word !== undefined && node.children.has(word)) {
    throw new UsageError(`options go after the command words: '${rest[0]}' comes before '${[...node.path, word].join(' ')}'`);
  }
  if (word !== undefined) throw new UsageError(`unknown command '${[...node.path, word].join(' ')}' (choose from: ${choices(node)})`);
  // Like any malformed command line (cli-v1.0.md "Exit codes": 2), with or without --json, at the top or in a group.
  const help = [PROGRAM_NAME, ...node.path, '--help'].join(' ');
  throw new UsageError(`missing command${where} (choose from: ${choices(node)}); '${help}' lists them`);
}

/** Every option a command under `node` (or every command) takes, by name. */
function optionKinds(node: CommandNode): Map<string, OptionSpec['kind']> {
  const out = new Map<string, OptionSpec['kind']>(COMMON_OPTIONS.map((o) => [o.name, o.kind]));
  const visit = (n: CommandNode): void => {
    for (const option of n.command?.options ?? []) {
      for (const name of [option.name, ...(option.aliases ?? [])]) if (!out.has(name)) out.set(name, option.kind);
    }
    for (const positional of n.command?.positionals ?? []) if (positional.option !== undefined && !out.has(positional.option)) out.set(positional.option, 'value');
    for (const child of n.children.values()) visit(child);
  };
  visit(node);
  return out;
}

/** Rewrites parseArgs' multi-line messages as one line that names the option. */
function usageFromParseArgs(error: unknown): UsageError {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const quoted = /'([^' ]+)/.exec(message)?.[1] ?? '';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new UsageError(`unrecognized option '${quoted}'`);
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return new UsageError(`unexpected argument '${quoted}'`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (message.includes('does not take an argument')) return new UsageError(`option ${quoted} takes no value`);
      if (message.includes('ambiguous')) {
        return new UsageError(`option ${quoted} needs a value (write ${quoted}=VALUE for a value that starts with '-')`);
      }
      return new UsageError(`option ${quoted} needs a value`);
    default:
      return new UsageError(message.split('\n')[0] ?? message);
  }
}

/**
 * `--seed -1` as `--seed=-1`: a negative number after an option that takes
 * a value is that value (no option starts with a digit), so the option's own
 * check says what is wrong with it instead of "needs a value".
 */
function negativeValuesJoined(rest: readonly string[], all: readonly OptionSpec[]): string[] {
  const takesValue = new Set(all.filter((o) => o.kind !== 'flag').map((o) => `--${o.name}`));
  const zone = optionZone(rest).length;
  const out: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i]!;
    const next = rest[i + 1];
    if (i + 1 < zone && takesValue.has(token) && next !== undefined && /^-[0-9]/.test(next)) {
      out.push(`${token}=${next}`);
      i++;
    } else {
      out.push(token);
    }
  }
  return out;
}

/** Moves an alias's value to its option's name; an option and its alias together are a usage error. */
function mergeAliases(specs: readonly OptionSpec[], values: Record<string, string | boolean | string[] | undefined>): void {
  for (const spec of specs) {
    for (const alias of spec.aliases ?? []) {
      if (values[alias] === undefined) continue;
      if (values[spec.name] !== undefined) {
        throw new UsageError(`give --${spec.name} or its other name --${alias}, not both`);
      }
      values[spec.name] = values[alias];
      delete values[alias];
    }
  }
}

/** `pack verify --pack DIR` as `pack verify DIR`: the option form of a positional argument. */
function withPositionalAliases(command: CommandSpec, given: readonly string[], values: Record<string, string | boolean | string[] | undefined>): string[] {
  const positionals = [...given];
  command.positionals.forEach((spec, index) => {
    if (spec.option === undefined) return;
    const value = values[spec.option];
    delete values[spec.option];
    if (typeof value !== 'string') return;
    if (positionals.length > index) throw new UsageError(`give ${spec.name} or --${spec.option} ${spec.name}, not both`);
    if (positionals.length < index) throw new UsageError(`--${spec.option} ${spec.name} needs the arguments before it`);
    positionals.push(value);
  });
  return positionals;
}

function parseCommand(command: CommandSpec, rest: readonly string[]): ParseOutcome {
  // --help wins over every other problem on the line, as in argparse.
  if (optionZone(rest).includes('--help')) return { kind: 'help', text: commandHelp(command) };
  const all = [...command.options, ...COMMON_OPTIONS];
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const option of all) {
    for (const name of [option.name, ...(option.aliases ?? [])]) {
      options[name] = { type: option.kind === 'flag' ? 'boolean' : 'string', multiple: option.kind === 'repeatable' };
    }
  }
  for (const positional of command.positionals) if (positional.option !== undefined) options[positional.option] = { type: 'string' };
  let parsed;
  try {
    parsed = parseArgs({ args: negativeValuesJoined(rest, all), options, strict: true, allowPositionals: true, tokens: true });
  } catch (error) {
    throw usageFromParseArgs(error);
  }
  // parseArgs keeps the last of a repeated single option; a silent choice
  // between two values would make the order of options matter.
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    const spec = all.find((o) => o.name === token.name || o.aliases?.includes(token.name));
    const positionalAlias = command.positionals.some((p) => p.option === token.name);
    if (((spec && spec.kind !== 'repeatable') || positionalAlias) && seen.has(token.name)) {
      throw new UsageError(`option --${token.name} is given more than once`);
    }
    seen.add(token.name);
  }
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
  mergeAliases(command.options, values);
  const positionals = withPositionalAliases(command, parsed.positionals, values);
  // A variadic last positional (`SHARD...`) takes every further argument.
  const variadic = command.positionals[command.positionals.length - 1]?.variadic === true;
  if (!variadic && positionals.length > command.positionals.length) {
    throw new UsageError(`unexpected argument '${positionals[command.positionals.length]}'`);
  }
  const missingPositionals = command.positionals.slice(positionals.length).map((p) => p.name);
  if (missingPositionals.length > 0) {
    throw new UsageError(`missing argument${missingPositionals.length > 1 ? 's' : ''}: ${missingPositionals.join(' ')}`);
  }
  const missing = command.options.filter((o) => o.required && values[o.name] === undefined).map((o) => `--${o.name}`);
  if (missing.length > 0) {
    throw new UsageError(`missing required option${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
  }
  return { kind: 'run', command, args: new ParsedArgs(positionals, values) };
}

/** Parses argv (without `node` and the script) against the command tree. */
export function parseCommandLine(argv: readonly string[], root: CommandNode): ParseOutcome {
  let node = root;
  let i = 0;
  for (; i < argv.length; i++) {
    const child = node.children.get(argv[i]!);
    if (!child) break;
    node = child;
  }
  const rest = argv.slice(i);
  if (!node.command) return parseIncomplete(node, rest);
  return parseCommand(node.command, rest);
}

