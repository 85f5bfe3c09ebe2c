/**
 * Deleting a trial, for `emberbench archive delete` and the app's
 * `trials.delete` (docs/archive.md "Deleting a trial"): the rows and the
 * artifacts only it used in one transaction (trial-housekeeping.ts
 * deleteTrial), then its transcripts folder, then the space given back
 * (VACUUM). A crash after the commit leaves a consistent archive that is
 * only larger than it needs to be; the next delete reclaims it.
 */

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { OutputError, ValidationError } from '../../core/errors.js';
import { Archive } from '../archive/archive.js';
import { archiveSpace, deleteTrial, reclaimSpace, type DeletedTrial, type DeleteOutcome } from '../archive/trial-housekeeping.js';

/** Where the language-model adapter keeps a trial's transcripts (services/llm-runs.ts transcriptDirOf). */
export function trialTranscriptDir(archive: Archive, trialId: number): string {
  return join(archive.cacheDir, 'transcripts', `trial-${trialId}`);
}

export interface TrialDeletion extends DeletedTrial {
  /** The archive file's size before and after the space was given back, in bytes. */
  readonly fileBytesBefore: number;
  readonly fileBytesAfter: number;
}

/** Deletes a trial of a writer's archive and reclaims the space; a refusal (missing, running) is returned as it is. */
export function deleteTrialAndReclaim(archive: Archive, trialId: number): TrialDeletion | Exclude<DeleteOutcome, DeletedTrial> {
  const outcome = archive.write((w) => deleteTrial(w, trialId, new Date().toISOString()));
  if (outcome.kind !== 'deleted') return outcome;
  rmSync(trialTranscriptDir(archive, trialId), { recursive: true, force: true });
  let space: { before: number; after: number };
  try {
    space = archive.read(() => reclaimSpace(archive));
  } catch {
    // VACUUM needs room for a copy: on a full disk the delete stands and the file keeps its size until a later delete.
    const size = archive.read(() => archiveSpace(archive)).fileBytes;
    space = { before: size, after: size };
  }
  return { ...outcome, fileBytesBefore: space.before, fileBytesAfter: space.after };
}

/** What `emberbench archive delete` reports (canonical JSON: snake_case keys). */
export interface ArchiveDeleteReport {
  readonly archive: string;
  readonly trial: number;
  readonly model_id: string;
  readonly episodes: number;
  readonly artifacts_deleted: number;
  readonly bytes_deleted: number;
  readonly artifacts_kept: number;
  readonly file_bytes_before: number;
  readonly file_bytes_after: number;
}

/**
 * `emberbench archive delete --trial ID`: opens the archive as its one
 * writer (exit 6 while the app holds it), deletes the trial and reclaims
 * the space. A trial that is not there (or was deleted) is exit 3; one
 * marked running is refused (exit 6): only the app runs trials, and it
 * must end or mark that run first.
 */
export function deleteTrialFromArchive(archivePath: string, trialId: number): ArchiveDeleteReport {
  const archive = Archive.open(archivePath, { mode: 'write' });
  try {
    const outcome = deleteTrialAndReclaim(archive, trialId);
    switch (outcome.kind) {
      case 'missing':
        throw new ValidationError(
          `${archive.path}: there is no trial ${trialId}${outcome.deletedBefore ? ' (it was deleted)' : ''}; run \`emberbench archive list\` to see the trials`,
        );
      case 'running':
        throw new OutputError(
          `${archive.path}: trial ${trialId} is marked running (the app was running it when it last stopped); open the app, which marks it interrupted, then delete it there or run this again`,
        );
      case 'deleted':
        return {
          archive: archive.path,
          trial: trialId,
          model_id: outcome.modelId,
          episodes: outcome.episodes,
          artifacts_deleted: outcome.artifactsDeleted,
          bytes_deleted: outcome.bytesDeleted,
          artifacts_kept: outcome.artifactsKept,
          file_bytes_before: outcome.fileBytesBefore,
          file_bytes_after: outcome.fileBytesAfter,
        };
    }
  } finally {
    archive.close();
  }
}
