/**
 * What a command prints (cli-v1.0.md "Output"): one canonical JSON line with
 * --json, else a short `key: value` list; failures as one line on stderr.
 * No colours, no paths added, no timestamps.
 */

import { canonicalJson, type CanonicalInput } from '../core/json/canonical.js';
import type { Report } from './command.js';
import { errorReport } from './exit-codes.js';
import type { CliIO } from './io.js';
import { PROGRAM } from './help.js';

export interface OutputMode {
  readonly json: boolean;
  readonly debug: boolean;
}

/** The --json success line: canonical JSON plus LF. */
export function jsonReport(report: Report): string {
  return canonicalJson(report) + '\n';
}

function scalarText(value: CanonicalInput): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return canonicalJson(value);
  return String(value);
}

function itemText(item: CanonicalInput | undefined): string {
  if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
    const object = item as { readonly [key: string]: CanonicalInput | undefined };
    return Object.keys(object)
      .filter((k) => object[k] !== undefined)
      .map((k) => `${k}: ${scalarText(object[k] as CanonicalInput)}`)
      .join(', ');
  }
  return scalarText(item ?? null);
}

/** Human mode: `key: value` lines in report order; a list prints one `  - item` line per element. */
export function humanReport(report: Report): string {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(report)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      lines.push(`${key}:`);
      for (const item of value as readonly CanonicalInput[]) lines.push(`  - ${itemText(item)}`);
    } else {
      lines.push(`${key}: ${scalarText(value)}`);
    }
  }
  return lines.join('\n') + '\n';
}

function stackOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause !== undefined ? `\ncaused by: ${stackOf(error.cause)}` : '';
    return (error.stack ?? `${error.name}: ${error.message}`) + cause;
  }
  return String(error);
}

/** Writes the failure of `error` to stderr and returns its exit code. stdout stays empty. */
export function writeFailure(error: unknown, mode: OutputMode, io: CliIO): number {
  const { exitCode, kind, message } = errorReport(error);
  if (mode.json) {
    io.stderr(canonicalJson({ error: { exit_code: exitCode, kind, message } }) + '\n');
  } else {
    io.stderr(`${PROGRAM}: error: ${message}\n`);
  }
  if (mode.debug) io.stderr(stackOf(error) + '\n');
  return exitCode;
}
