/**
 * The command table. A command group (scenario, episode, evaluation, ...) is
 * a module that exports a CommandModule; registering it in registry.ts adds
 * its commands to the parser and to the top-level help.
 */

import type { CanonicalInput } from '../core/json/canonical.js';
import type { CliIO } from './io.js';

export interface OptionSpec {
  /** Long name without the leading `--`. Never abbreviated. */
  readonly name: string;
  /** `flag` takes no value; `value` takes one; `repeatable` takes one per occurrence, order kept. */
  readonly kind: 'flag' | 'value' | 'repeatable';
  readonly required?: boolean;
  /** Shown in usage: `--seed N`. */
  readonly valueName?: string;
  /** One line. */
  readonly description: string;
  /**
   * Other names of this option, kept for compatibility (documented in its
   * help): `--a` for score compare's `--report-a`. The value is the option's.
   */
  readonly aliases?: readonly string[];
}

export interface PositionalSpec {
  /** Shown in usage: `FILE`. */
  readonly name: string;
  readonly description: string;
  /** The last positional only: one or more values (name it `NAME...`). */
  readonly variadic?: boolean;
  /**
   * An option that may give this argument instead (`pack verify --pack DIR`
   * for `pack verify DIR`): the other argument style, accepted as an alias.
   */
  readonly option?: string;
}

/** A command's result: the fields cli-v1.0.md lists for it. `command` is added by the framework. */
export type Report = { readonly [key: string]: CanonicalInput };

export interface CommandContext {
  readonly io: CliIO;
  /**
   * Replaces the human-mode `key: value` list with this text (it must end
   * with a line break); --json output is unchanged. `score` uses it for the
   * summary of scoring-v1.0.md section 10.
   */
  readonly setHumanText?: (text: string) => void;
}

export interface CommandSpec {
  /** The command words after `emberbench`: ['episode', 'run']. */
  readonly words: readonly string[];
  /** One line for the command tree. */
  readonly summary: string;
  /** A few sentences for `--help`. */
  readonly description: string;
  readonly positionals: readonly PositionalSpec[];
  readonly options: readonly OptionSpec[];
  /** At least one full command line, starting with `emberbench`. */
  readonly examples: readonly string[];
  run(args: ParsedArgs, context: CommandContext): Promise<Report>;
}

export interface CommandModule {
  /** The first command word the module owns (`episode`), or the command itself (`version`). */
  readonly group: string;
  /** One line for `emberbench GROUP --help`. */
  readonly summary: string;
  readonly commands: readonly CommandSpec[];
}

/** Parsed and checked arguments of one command (required options present, single options given once). */
export class ParsedArgs {
  constructor(
    readonly positionals: readonly string[],
    private readonly values: Readonly<Record<string, string | boolean | string[] | undefined>>,
  ) {}

  /** A `value` option, or undefined when it was not given. */
  value(name: string): string | undefined {
    const v = this.values[name];
    if (v !== undefined && typeof v !== 'string') throw new TypeError(`option --${name} is not a value option`);
    return v;
  }

  /** A required `value` option (presence is checked by the parser). */
  required(name: string): string {
    const v = this.value(name);
    if (v === undefined) throw new TypeError(`required option --${name} was not checked by the parser`);
    return v;
  }

  /** A `repeatable` option's values in command-line order. */
  list(name: string): readonly string[] {
    const v = this.values[name];
    if (v === undefined) return [];
    if (!Array.isArray(v)) throw new TypeError(`option --${name} is not repeatable`);
    return v;
  }

  flag(name: string): boolean {
    const v = this.values[name];
    if (v !== undefined && typeof v !== 'boolean') throw new TypeError(`option --${name} is not a flag`);
    return v === true;
  }

  positional(index: number): string {
    const v = this.positionals[index];
    if (v === undefined) throw new TypeError(`positional ${index} was not checked by the parser`);
    return v;
  }
}
