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
import { artifactDigests, artifactKind, getArtifactAsync } from '../archive/artifacts.js';
import { loadStoredManifest } from '../archive/inputs-store.js';
import { checkedTrialRows, type CheckedTrialRow } from '../archive/queries.js';
import { repairTrial, type TrialDamage, type TrialRepair } from './repair.js';
import type { ScoreJob } from './score-job.js';
import type { ScoredTrial } from '../archive/trials-store.js';
import { composeStoredResult } from '../archive/stored-result.js';
import { doneEpisodeDigests } from '../archive/trials-store.js';

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

async function artifactProblem(archive: Archive, digest: string, seen: ArtifactProblems): Promise<string | null> {
  const known = seen.get(digest);
  if (known !== undefined) return known;
  let problem: string | null = null;
  try {
    await getArtifactAsync(archive, digest);
  } catch (error) {
    if (!isEmberError(error)) throw error;
    problem = error.message;
  }
  seen.set(digest, problem);
  return problem;
}

/** The damage of one trial (its artifacts read back through `seen`). */
export async function trialDamage(archive: Archive, t: CheckedTrialRow, seen: ArtifactProblems): Promise<TrialDamage[]> {
  const damage: TrialDamage[] = [];
  const artifact = async (kind: TrialDamageKind, digest: string | null, episode: number | null = null): Promise<boolean> => {
    if (digest === null) return true;
    const problem = await artifactProblem(archive, digest, seen);
    if (problem !== null) damage.push({ kind, digest, episode, message: problem });
    return problem === null;
  };
  const episodes = doneEpisodeDigests(archive, t.trial_id);
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
    const manifest = loadStoredManifest(archive, t.manifest_hash);
    if (manifest === undefined) {
      damage.push({ kind: 'manifest', digest: null, episode: null, message: `its manifest ${t.manifest_hash} is missing` });
      return damage;
    }
    composedDigest = (await composeStoredResult(archive, t.trial_id, manifest, t.manifest_hash, t.model_id)).digest;
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

/**
 * Checks the archive (or the given trials) and, with `repair`, repairs
 * what can be rebuilt exactly. Reads artifacts one at a time (inflated in
 * the thread pool), so memory stays bounded by the largest artifact.
 */
export async function checkArchive(archive: Archive, options: CheckOptions): Promise<ArchiveCheckReport> {
  const seen: ArtifactProblems = new Map();
  const damagedTrials: TrialCheck[] = [];
  let repairedTrials = 0;
  const trials = checkedTrialRows(archive, options.trialIds);
  for (const t of trials) {
    const damage = await trialDamage(archive, t, seen);
    if (damage.length === 0) continue;
    const repair = options.repair ? await repairTrial(archive, t.trial_id, damage, options.score) : null;
    if (repair !== null && repair.unrepaired.length === 0) repairedTrials++;
    damagedTrials.push({ trial: t.trial_id, status: t.status, damage, repair });
  }
  if (options.trialIds === undefined) {
    for (const digest of artifactDigests(archive)) await artifactProblem(archive, digest, seen);
  }
  const damagedArtifacts: DamagedArtifact[] = [];
  for (const [digest, problem] of seen) {
    // A repaired artifact was replaced: it is reported with its trial, and read back again here.
    if (problem === null || (await artifactProblem(archive, digest, new Map())) === null) continue;
    damagedArtifacts.push({ digest, kind: artifactKind(archive, digest) ?? 'missing', message: problem });
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
