/**
 * Storing a trial's operational record, built by workflows/trial-record.ts
 * for any kind of agent, with the trial (artifact + operational_digest), so
 * the Trial view shows it and an export carries the same bytes the CLI
 * writes for the same run (a local agent's latency aside).
 */

import { operationalRecordText, type OperationalRecord } from '../../core/scoring/operational.js';
import type { Archive } from '../archive/archive.js';
import { putText } from '../archive/artifacts.js';
import { setOperationalDigest } from '../archive/trials-store.js';

/** Stores the trial's record in one transaction. */
export function storeOperationalRecord(archive: Archive, trialId: number, record: OperationalRecord): void {
  archive.write((w) => setOperationalDigest(w, trialId, putText(w, 'operational', operationalRecordText(record))));
}
