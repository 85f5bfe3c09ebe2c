/**
 * The app's side of `archive check`: a trial's page asks whether the trial
 * is damaged (trials.check) and offers Repair (trials.repair), which
 * rebuilds only what has its recorded digest (src/node/jobs/check.ts,
 * repair.ts). Re-scoring runs in the archive worker, off the main process.
 */

import type { TrialIntegrity } from '../../shared/api/contract.js';
import type { Archive } from '../archive/archive.js';
import { checkArchive } from '../jobs/check.js';
import { scoreOffThread } from '../jobs/off-thread.js';
import type { Handlers } from './dispatch.js';

type IntegrityHandlers = Pick<Handlers, 'trials.check' | 'trials.repair'>;

async function integrity(archive: Archive, trialId: number, repair: boolean, archiveWorker: string | undefined): Promise<TrialIntegrity> {
  const report = await checkArchive(archive, { repair, trialIds: [trialId], score: (job) => scoreOffThread(archiveWorker, job) });
  const trial = report.damagedTrials.find((t) => t.trial === trialId);
  if (trial === undefined) return { trialId, damaged: false, damage: [], repaired: [], unrepaired: [] };
  const unrepaired = trial.repair?.unrepaired ?? [];
  return { trialId, damaged: trial.repair === null || unrepaired.length > 0, damage: trial.damage, repaired: trial.repair?.repaired ?? [], unrepaired };
}

/** `requireTrial` answers not_found for an unknown trial; `changed` tells the views a repaired trial changed. */
export function integrityHandlers(archive: Archive, archiveWorker: string | undefined, requireTrial: (trialId: number) => void, changed: (trialId: number) => void): IntegrityHandlers {
  return {
    'trials.check': ({ trialId }) => {
      requireTrial(trialId);
      return integrity(archive, trialId, false, archiveWorker);
    },
    'trials.repair': async ({ trialId }) => {
      requireTrial(trialId);
      const outcome = await integrity(archive, trialId, true, archiveWorker);
      if (outcome.repaired.length > 0) changed(trialId);
      return outcome;
    },
  };
}
