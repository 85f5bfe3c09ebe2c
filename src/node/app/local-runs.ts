/**
 * The operational record of a module or command agent run from the app
 * (../agents/local-operational.ts): the isolation level it ran at and the
 * run's wall time, no tokens, no cost. Stored with the trial like a
 * language-model trial's record (artifact + operational_digest), so the
 * Trial view shows it and an export carries the same bytes the CLI writes
 * for the same run, latency aside.
 */

import { operationalRecordText, type IsolationLevel, type OperationalRecord } from '../../core/scoring/operational.js';
import { localTrialRecord, type LocalAgentSpec } from '../agents/local-operational.js';
import type { Archive } from '../archive/archive.js';
import { putText } from '../archive/artifacts.js';
import { setOperationalDigest } from '../archive/trials-store.js';
import type { EvaluationRunSummary } from '../eval/runner.js';

export interface LocalRunRecordInput {
  readonly modelId: string;
  readonly spec: LocalAgentSpec;
  readonly agentPaths: readonly string[];
  readonly actTimeoutMs: number;
  readonly isolation: IsolationLevel;
  readonly summary: EvaluationRunSummary;
  /** Wall time of the run that finished the trial, in ms. */
  readonly wallMs: number;
}

/** Builds and stores the trial's record in one transaction; null when the result holds no episode. */
export function storeLocalOperationalRecord(archive: Archive, trialId: number, input: LocalRunRecordInput): OperationalRecord | null {
  const { result } = input.summary;
  const record = localTrialRecord({
    modelId: input.modelId,
    spec: input.spec,
    agentPaths: input.agentPaths,
    actTimeoutMs: input.actTimeoutMs,
    isolation: input.isolation,
    episodes: result.episodes.length + result.failures.length,
    timeouts: result.failures.filter((f) => f.kind === 'timeout').length,
    wallMs: input.wallMs,
  });
  if (record === null) return null;
  archive.write((w) => setOperationalDigest(w, trialId, putText(w, 'operational', operationalRecordText(record))));
  return record;
}
