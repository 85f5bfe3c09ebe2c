/**
 * Reading input files and suite directories (evaluation.md section 1,
 * "Loading: fail closed"). Every problem is a ValidationError (exit 3) that
 * names the path as the user gave it.
 */

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { ValidationError } from '../core/errors.js';
import { parseScenarioText } from '../core/world/scenario.js';
import type { Scenario } from '../core/world/scenario-types.js';
import { SUITE_MANIFEST_FILE, loadSuite, type Suite } from '../core/world/suite.js';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function errnoCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}

/**
 * The text of an input file: it must exist, be a file, be valid UTF-8 and
 * not start with a byte order mark (no artifact of the benchmark has one,
 * and a BOM would silently change what a hand-edited file means).
 */
export function readTextInput(path: string, what: string): string {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = errnoCode(error);
    switch (code) {
      case 'ENOENT':
        throw new ValidationError(`${path}: ${what} does not exist`);
      case 'EISDIR':
        throw new ValidationError(`${path}: ${what} is a directory, not a file`);
      default:
        throw new ValidationError(`${path}: cannot read ${what} (${code})`);
    }
  }
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw new ValidationError(`${path}: ${what} starts with a UTF-8 byte order mark; save it without one`);
  }
  try {
    return decoder.decode(bytes);
  } catch {
    throw new ValidationError(`${path}: ${what} is not valid UTF-8`);
  }
}

export function loadScenarioFile(path: string): Scenario {
  return parseScenarioText(readTextInput(path, 'scenario file'), path);
}

/**
 * Loads a suite directory. Every entry other than manifest.json is read and
 * handed to the pure loader, which rejects unlisted ones; an entry that is
 * not a regular file (a subdirectory, a symbolic link, a socket) is rejected
 * here, because a suite is a flat directory of files.
 */
export function loadSuiteDir(dir: string): Suite {
  // Messages join `${dir}/${file}`; a trailing separator would double it.
  const base = dir.length > 1 ? dir.replace(/[\\/]+$/, '') : dir;
  let names: { name: string; isFile: boolean }[];
  try {
    if (!statSync(base).isDirectory()) throw new ValidationError(`${base}: suite is not a directory`);
    names = readdirSync(base, { withFileTypes: true }).map((d) => ({ name: d.name, isFile: d.isFile() }));
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    const code = errnoCode(error);
    throw new ValidationError(code === 'ENOENT' ? `${base}: suite directory does not exist` : `${base}: cannot read suite directory (${code})`);
  }
  names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let manifestText: string | undefined;
  const files = new Map<string, string>();
  for (const { name, isFile } of names) {
    const path = `${base}/${name}`;
    if (!isFile) {
      throw new ValidationError(`${path}: not a regular file (a suite directory holds only ${SUITE_MANIFEST_FILE} and the scenario files it lists)`);
    }
    if (name === SUITE_MANIFEST_FILE) manifestText = readTextInput(path, 'suite manifest');
    else files.set(name, readTextInput(path, 'suite file'));
  }
  if (manifestText === undefined) throw new ValidationError(`${base}/${SUITE_MANIFEST_FILE}: suite manifest does not exist`);
  return loadSuite(manifestText, files, base);
}
