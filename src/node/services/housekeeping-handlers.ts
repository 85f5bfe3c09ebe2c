/**
 * The app's trial housekeeping (docs/app.md "Trial housekeeping"): deleting
 * a trial (refused while it runs here), its label, notes and tags, and the
 * tags the Trials table filters by. The store functions are in
 * src/node/archive/trial-housekeeping.ts.
 */

import type { ArchiveChange, TrialRow } from '../../shared/api/contract.js';
import type { Archive } from '../archive/archive.js';
import { getTrialDbRow, trialRowOf } from '../archive/queries.js';
import { allTags, setTrialAnnotations } from '../archive/trial-housekeeping.js';
import { setTrialStatus } from '../archive/trials-store.js';
import { deleteTrialAndReclaim } from '../jobs/delete-trial.js';
import { ServiceError, type Handlers } from './dispatch.js';

type HousekeepingHandlers = Pick<Handlers, 'trials.tags' | 'trials.annotate' | 'trials.delete'>;

export interface HousekeepingDeps {
  /** Whether a run of this process is running the trial. */
  readonly isActive: (trialId: number) => boolean;
  /** The row as the views show it (signers, shown status). */
  readonly shown: (row: TrialRow) => TrialRow;
  readonly changed: (change: ArchiveChange) => void;
}

export function housekeepingHandlers(archive: Archive, deps: HousekeepingDeps): HousekeepingHandlers {
  return {
    'trials.tags': () => Promise.resolve(allTags(archive)),
    'trials.annotate': ({ trialId, label, notes, tags }) => {
      const found = archive.write((w) => setTrialAnnotations(w, trialId, { label, notes, tags }));
      if (!found) throw new ServiceError('not_found', `trialId: no trial ${trialId} in the archive`, 'trialId');
      deps.changed({ kind: 'trial', trialId, what: 'annotations' });
      return Promise.resolve(deps.shown(trialRowOf(getTrialDbRow(archive, trialId)!)));
    },
    'trials.delete': ({ trialId }) => {
      if (deps.isActive(trialId)) throw new ServiceError('conflict', `trialId: trial ${trialId} is running; cancel its run first, then delete it`, 'trialId');
      // `running` in the archive but not here: its run ended without its status written (a full disk); it is interrupted.
      if (getTrialDbRow(archive, trialId)?.status === 'running') archive.write((w) => setTrialStatus(w, trialId, 'interrupted'));
      const outcome = deleteTrialAndReclaim(archive, trialId);
      switch (outcome.kind) {
        case 'missing':
          throw new ServiceError('not_found', `trialId: no trial ${trialId} in the archive${outcome.deletedBefore ? ' (it was deleted)' : ''}`, 'trialId');
        case 'running':
          throw new ServiceError('conflict', `trialId: trial ${trialId} is running; cancel its run first, then delete it`, 'trialId');
        case 'deleted':
          deps.changed({ kind: 'trial', trialId, what: 'deleted' });
          return Promise.resolve({
            trialId,
            episodes: outcome.episodes,
            artifactsDeleted: outcome.artifactsDeleted,
            bytesDeleted: outcome.bytesDeleted,
            artifactsKept: outcome.artifactsKept,
            fileBytesBefore: outcome.fileBytesBefore,
            fileBytesAfter: outcome.fileBytesAfter,
          });
      }
    },
  };
}
