/**
 * `archive check`: every stored artifact read back (inflated and
 * digest-checked) and every trial checked whole: a readable result for every
 * finished trial, every committed episode's record and metrics readable,
 * and the stored episodes composing to exactly the trial's recorded result
 * digest. Damage is reported per trial, never repaired silently.
 *
 * Repair (repair.ts) rebuilds a trial's damaged result from its stored
 * episodes, the bytes `evaluation run` writes (composeStoredResult), and
 * replaces the damaged row only when the rebuilt bytes have the trial's
 * recorded result digest; a damaged score report or summary is re-scored
 * and replaced only when the new one has the recorded digest too. What
 * cannot be rebuilt that way is said, and left as it is.
 */

import { isEmberError } from '../../core/errors.js';
import type { TrialDamageKind } from '../../shared/api/contract.js';
import type { Archive } from '../archive/archive.js';
import { getArtifactAsync } from '../archive/artifacts.js';
import { stmt, type Db } from '../archive/db.js';
import { loadStoredManifest } from '../archive/inputs-store.js';
import { repairTrial, type TrialDamage, type TrialRepair } from './repair.js';
import type { ScoreJob } from './score-job.js';
import type { ScoredTrial } from '../archive/trials-store.js';
import { composeStoredResult } from '../archive/stored-result.js';

/** What is damaged in a trial (the contract's type: the app shows the same report). */
export type { TrialDamageKind } from '../../shared/api/contract.js';

export interface TrialCheck {
  readonly trial: number;
  readonly status: string;
  readonly damage: readonly TrialDamage[];
  /** With repair: what was repaired and what could not be. */
  readonly repair: TrialRepair | null;
}

export interface DamagedArtifact {
  readonly digest: string;
  readonly kind: string;
  readonly message: string;
}

export interface ArchiveCheckReport {
  /** Artifacts read back. */
  readonly artifactsChecked: number;
  /** Every damaged artifact (those of trials also appear with their trial). */
  readonly damagedArtifacts: readonly DamagedArtifact[];
  readonly trialsChecked: number;
  /** Only the trials with damage. */
  readonly damagedTrials: readonly TrialCheck[];
  /** Trials whose damage was all repaired. */
  readonly repairedTrials: number;
  /** True when nothing damaged remains (none found, or all repaired). */
  readonly ok: boolean;
}

export interface CheckOptions {
  /** Repair what can be (the archive must be open for writing). */
  readonly repair: boolean;
  /** Only these trials and their artifacts; default: the whole archive. */
  readonly trialIds?: readonly number[];
  /** Scores a rebuilt result to restore a damaged report or summary (off the caller's loop in the app); default: not re-scored. */
  readonly score?: (job: ScoreJob) => Promise<ScoredTrial>;
}

/** Artifacts already read back in this check, by digest: the problem, or null when sound. */
type ArtifactProblems = Map<string, string | null>;

async function artifactProblem(db: Db, digest: string, seen: ArtifactProblems): Promise<string | null> {
  const known = seen.get(digest);
  if (known !== undefined) return known;
  let problem: string | null = null;
  try {
    await getArtifactAsync(db, digest);
  } catch (error) {
    if (!isEmberError(error)) throw error;
    problem = error.message;
  }
  seen.set(digest, problem);
  return problem;
}

interface TrialRow {
  trial_id: number;
  status: string;
  manifest_hash: string;
  model_id: string;
  result_digest: string | null;
  report_digest: string | null;
  summary_digest: string | null;
  operational_digest: string | null;
}

interface DoneEpisode {
  idx: number;
  record_digest: string;
  metrics_digest: string;
}

/** The damage of one trial (its artifacts read back through `seen`). */
export async function trialDamage(db: Db, t: TrialRow, seen: ArtifactProblems): Promise<TrialDamage[]> {
  const damage: TrialDamage[] = [];
  const artifact = async (kind: TrialDamageKind, digest: string | null, episode: number | null = null): Promise<boolean> => {
    if (digest === null) return true;
    const problem = await artifactProblem(db, digest, seen);
    if (problem !== null) damage.push({ kind, digest, episode, message: problem });
    return problem === null;
  };
  const episodes = stmt(db, "SELECT idx, record_digest, metrics_digest FROM episodes WHERE trial_id = ? AND status = 'done' ORDER BY idx").all(t.trial_id) as DoneEpisode[];
  let episodesSound = true;
  for (const e of episodes) {
    // Both read back, so that each damaged artifact is named.
    const record = await artifact('episode', e.record_digest, e.idx);
    const metrics = await artifact('episode', e.metrics_digest, e.idx);
    episodesSound &&= record && metrics;
  }
  const finished = t.status === 'complete' || t.status === 'incomplete';
  if (finished && t.result_digest === null) {
    damage.push({ kind: 'result-missing', digest: null, episode: null, message: `the trial is ${t.status} but names no result` });
  }
  const resultSound = await artifact('result', t.result_digest);
  await artifact('score-report', t.report_digest);
  await artifact('summary', t.summary_digest);
  await artifact('operational', t.operational_digest);
  if (t.result_digest === null || !episodesSound) return damage;
  let composedDigest: string;
  try {
    const manifest = loadStoredManifest(db, t.manifest_hash);
    if (manifest === undefined) {
      damage.push({ kind: 'manifest', digest: null, episode: null, message: `its manifest ${t.manifest_hash} is missing` });
      return damage;
    }
    composedDigest = (await composeStoredResult(db, t.trial_id, manifest, t.manifest_hash, t.model_id)).digest;
  } catch (error) {
    if (!isEmberError(error)) throw error;
    damage.push({ kind: 'manifest', digest: null, episode: null, message: error.message });
    return damage;
  }
  if (composedDigest !== t.result_digest && resultSound) {
    damage.push({
      kind: 'episodes-differ',
      digest: null,
      episode: null,
      message: `its stored episodes compose to result ${composedDigest}, not to its result ${t.result_digest}`,
    });
  }
  return damage;
}

function trialRows(db: Db, trialIds: readonly number[] | undefined): TrialRow[] {
  const sql = 'SELECT trial_id, status, manifest_hash, model_id, result_digest, report_digest, summary_digest, operational_digest FROM trials';
  if (trialIds === undefined) return stmt(db, `${sql} ORDER BY trial_id`).all() as TrialRow[];
  return trialIds.map((id) => stmt(db, `${sql} WHERE trial_id = ?`).get(id) as TrialRow | undefined).filter((r): r is TrialRow => r !== undefined);
}

/**
 * Checks the archive (or the given trials) and, with `repair`, repairs
 * what can be rebuilt exactly. Reads artifacts one at a time (inflated in
 * the thread pool), so memory stays bounded by the largest artifact.
 */
export async function checkArchive(archive: Archive, options: CheckOptions): Promise<ArchiveCheckReport> {
  const { db } = archive;
  const seen: ArtifactProblems = new Map();
  const damagedTrials: TrialCheck[] = [];
  let repairedTrials = 0;
  const trials = trialRows(db, options.trialIds);
  for (const t of trials) {
    const damage = await trialDamage(db, t, seen);
    if (damage.length === 0) continue;
    const repair = options.repair ? await repairTrial(archive, t.trial_id, damage, options.score) : null;
    if (repair !== null && repair.unrepaired.length === 0) repairedTrials++;
    damagedTrials.push({ trial: t.trial_id, status: t.status, damage, repair });
  }
  if (options.trialIds === undefined) {
    for (const { digest } of stmt(db, 'SELECT digest FROM artifacts ORDER BY digest').all() as { digest: string }[]) await artifactProblem(db, digest, seen);
  }
  const damagedArtifacts: DamagedArtifact[] = [];
  const kindOf = stmt(db, 'SELECT kind FROM artifacts WHERE digest = ?');
  for (const [digest, problem] of seen) {
    // A repaired artifact was replaced: it is reported with its trial, and read back again here.
    if (problem === null || (await artifactProblem(db, digest, new Map())) === null) continue;
    damagedArtifacts.push({ digest, kind: (kindOf.get(digest) as { kind: string } | undefined)?.kind ?? 'missing', message: problem });
  }
  damagedArtifacts.sort((a, b) => (a.digest < b.digest ? -1 : a.digest > b.digest ? 1 : 0));
  const unrepairedTrials = damagedTrials.filter((t) => t.repair === null || t.repair.unrepaired.length > 0).length;
  return {
    artifactsChecked: seen.size,
    damagedArtifacts,
    trialsChecked: trials.length,
    damagedTrials,
    repairedTrials,
    ok: unrepairedTrials === 0 && damagedArtifacts.length === 0,
  };
}
