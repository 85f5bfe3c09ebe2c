/**
 * Importing a result as a job: prepared (authenticated, scored, packed:
 * import-prepare.ts) off the caller's thread or in it, then written by the
 * archive (src/node/archive/archive-io.ts commitImports) in one transaction.
 */

import { commitImports, type DuplicateImport, type ImportedRecordFile, type ImportOutcome, type PreparedImport } from '../archive/archive-io.js';
import type { Archive } from '../archive/archive.js';
import { prepareImport } from './import-prepare.js';
import { runOffThread } from './off-thread.js';

/**
 * Prepares an import (import-prepare.ts) in the archive worker
 * (`archiveWorker`, else a later turn of this thread), which reads the
 * archive through its own read-only connection: hashing, parsing,
 * authenticating, scoring and packing a large result take seconds that the
 * app's main process must not wait.
 */
export function prepareImportOffThread(
  archive: Archive,
  fileName: string,
  text: string,
  archiveWorker: string | undefined,
  operational?: ImportedRecordFile,
): Promise<PreparedImport | DuplicateImport> {
  return runOffThread(archiveWorker, { kind: 'import-prepare', input: { archivePath: archive.path, fileName, text, ...(operational === undefined ? {} : { operational }) } });
}

/** Imports one evaluation result text: authenticated first, refused whole with the reason, written in one transaction. */
export function importResultText(archive: Archive, fileName: string, text: string): ImportOutcome {
  const prepared = prepareImport(archive, fileName, text);
  if ('duplicate' in prepared) return { trialId: prepared.duplicate, duplicate: true };
  return commitImports(archive, [prepared])[0]!;
}
