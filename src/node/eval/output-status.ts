/**
 * `evaluation status --out OUT`: where a single (unsharded) run's output
 * stands, as run-dir.ts says it for every shard of a run folder: a live
 * process writing it (its lock), a journal left by an interrupted run (its
 * entries committed, resumable), a finished result (authenticated and
 * checked against the manifest when the suite and manifest are given), or
 * nothing yet.
 */

import { existsSync, readFileSync } from 'node:fs';
import { ValidationError } from '../../core/errors.js';
import { manifestHash, type EvaluationManifest } from '../../core/eval/manifest.js';
import type { Suite } from '../../core/world/suite.js';
import { describeHolder, lockStatus } from '../output-lock.js';
import { journalPath } from './journal-lines.js';
import { authenticateResultFile } from './result-reader.js';
import { journalEntries, type ShardState } from './run-dir.js';

export interface OutputStatus {
  readonly out: string;
  /** As a shard's state (run-dir.ts); `done` only for a result, `partial` for a journal or an incomplete result. */
  readonly state: ShardState;
  readonly journal: boolean;
  /** Entries (episodes and declared failures) the journal or the result holds. */
  readonly committed: number;
  /** Episodes of the manifest, when it is given. */
  readonly scheduled: number | null;
  /** Whether every episode of the manifest is in the result (null: not checked, no manifest or no result). */
  readonly complete: boolean | null;
  /** The evaluation the journal or result belongs to. */
  readonly manifestHash: string | null;
  readonly modelId: string | null;
  readonly holder: string | null;
  readonly problem: string | null;
}

function journalHeader(out: string): { manifestHash: string; modelId: string } | undefined {
  try {
    const text = readFileSync(journalPath(out), 'utf8');
    const header = JSON.parse(text.slice(0, text.indexOf('\n'))) as { manifest_hash?: unknown; model_id?: unknown };
    return typeof header.manifest_hash === 'string' && typeof header.model_id === 'string' ? { manifestHash: header.manifest_hash, modelId: header.model_id } : undefined;
  } catch {
    return undefined;
  }
}

/** The status of `out`; with the suite and manifest, a result is authenticated and checked complete. */
export function outputStatus(out: string, inputs?: { readonly suite: Suite; readonly manifest: EvaluationManifest }): OutputStatus {
  const lock = lockStatus(out);
  const holder = lock === undefined ? null : lock === 'unreadable' ? `unreadable lock ${out}.lock` : describeHolder(lock.holder);
  const held = lock !== undefined && (lock === 'unreadable' || lock.state !== 'dead');
  const heldState: ShardState = lock !== undefined && lock !== 'unreadable' && lock.state === 'alive' ? 'running' : 'locked';
  const scheduled = inputs === undefined ? null : inputs.manifest.episodes.length;
  const base = { out, scheduled, holder, problem: null };
  if (existsSync(journalPath(out))) {
    const header = journalHeader(out);
    return { ...base, state: held ? heldState : 'partial', journal: true, committed: journalEntries(out), complete: false, manifestHash: header?.manifestHash ?? null, modelId: header?.modelId ?? null };
  }
  if (!existsSync(out)) return { ...base, state: held ? heldState : 'missing', journal: false, committed: 0, complete: null, manifestHash: null, modelId: null };
  if (inputs === undefined) {
    // Written once at the end of a run: present means finished, but only authentication says it holds.
    return { ...base, state: held ? heldState : 'done', journal: false, committed: 0, complete: null, manifestHash: null, modelId: null };
  }
  const covered = new Set<number>();
  try {
    const auth = authenticateResultFile(out, out, inputs.suite, { onEpisode: (e) => void covered.add(e.index) });
    const hash = manifestHash(inputs.manifest);
    if (auth.manifestHash !== hash) throw new ValidationError(`a result of manifest ${auth.manifestHash}, not the given manifest's ${hash}`);
    for (const f of auth.failures) covered.add(f.index);
    const complete = inputs.manifest.episodes.every((e) => covered.has(e.index));
    return { ...base, state: held ? heldState : complete ? 'done' : 'partial', journal: false, committed: covered.size, complete, manifestHash: auth.manifestHash, modelId: auth.modelId };
  } catch (error) {
    return { ...base, state: 'invalid', journal: false, committed: 0, complete: false, manifestHash: null, modelId: null, problem: error instanceof Error ? error.message : String(error) };
  }
}
