/**
 * Paths typed into the workbench's forms. The services run on another
 * process than the page (a server, or Electron's main process) whose working
 * folder the user neither sees nor chose, so a relative path is refused
 * rather than resolved against it; a path that is not there is said to be
 * missing, with the path, before any reader gets to call it malformed; and
 * every export (a trial's files, a bundle, an HTML report) follows one rule:
 * it goes to a new name in a folder that exists, and never replaces anything.
 */

import { existsSync, lstatSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { ServiceError } from './dispatch.js';

export type PathKind = 'folder' | 'file';

function mustBeAbsolute(path: string, field: string): string {
  if (!isAbsolute(path)) {
    throw new ServiceError(
      'usage',
      `${field}: ${JSON.stringify(path)} is a relative path: type a full path (such as /home/me/ember/suite), since the workbench does not guess which folder it is relative to`,
      field,
    );
  }
  return resolve(path);
}

/** An existing file or folder to read from: its absolute path, or a usage error naming the field. */
export function existingPath(path: string, field: string, kind: PathKind): string {
  const full = mustBeAbsolute(path, field);
  let stat;
  try {
    stat = statSync(full);
  } catch {
    throw new ServiceError('usage', `${field}: there is no ${kind} at ${full}: check the path (it is on the machine the workbench runs on)`, field);
  }
  if (kind === 'folder' && !stat.isDirectory()) throw new ServiceError('usage', `${field}: ${full} is a file, not a folder: choose the folder itself`, field);
  if (kind === 'file' && !stat.isFile()) throw new ServiceError('usage', `${field}: ${full} is a folder, not a file`, field);
  return full;
}

/**
 * A new file or folder to write: its absolute path, or an output error
 * naming the field when its parent folder is missing or the name is taken
 * (by anything, even an empty folder: an export never reuses a name).
 */
export function newOutputPath(path: string, field: string, kind: PathKind): string {
  const full = mustBeAbsolute(path, field);
  const parent = dirname(full);
  if (!existsSync(parent)) throw new ServiceError('output', `${field}: the folder ${parent} does not exist: create it first, or choose a folder that exists`, field);
  if (!statSync(parent).isDirectory()) throw new ServiceError('output', `${field}: ${parent} is a file, not a folder`, field);
  let taken = false;
  try {
    lstatSync(full);
    taken = true;
  } catch {
    // Not there: the name is free.
  }
  if (taken) throw new ServiceError('output', `${field}: ${full} already exists and is never replaced: type a new ${kind} name`, field);
  return full;
}
