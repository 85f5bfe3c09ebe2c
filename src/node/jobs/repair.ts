/**
 * Repairing a damaged trial (check.ts finds the damage): only what can be
 * rebuilt exactly, checked against a digest the trial recorded before the
 * damage, replaces a row; everything else is said and left as it is.
 *
 * - A damaged result is rebuilt from the stored episodes by
 *   composeStoredResult, the bytes `evaluation run` writes for them. The
 *   row is replaced only when the rebuilt bytes have the trial's result
 *   digest (the digest of the bytes scored when the trial finished).
 * - A damaged score report or summary is re-scored from the (sound or
 *   rebuilt) result as the trial was scored, and replaced only when the new
 *   text has the recorded digest.
 */

import { createHash } from 'node:crypto';
import { isEmberError } from '../../core/errors.js';
import type { TrialDamageKind } from '../../shared/api/contract.js';
import { describeBytes, MAX_TEXT_INPUT_BYTES } from '../inputs.js';
import type { Archive } from '../archive/archive.js';
import { getArtifactAsync, packChunksAsync, putPacked, putText, utf8 } from '../archive/artifacts.js';
import { loadStoredManifest } from '../archive/inputs-store.js';
import { getTrialDbRow } from '../archive/queries.js';
import { scoreJobOf, type ScoreJob } from './score-job.js';
import type { ScoredTrial } from '../archive/trials-store.js';
import { composeStoredResult } from '../archive/stored-result.js';

/** One damaged thing in a trial, as check.ts finds it (and repairTrial mends it when it can). */
export interface TrialDamage {
  readonly kind: TrialDamageKind;
  /** The damaged artifact, when one is. */
  readonly digest: string | null;
  /** The episode, for `episode`. */
  readonly episode: number | null;
  /** What is wrong, in words. */
  readonly message: string;
}

export interface TrialRepair {
  /** What was repaired, in words. */
  readonly repaired: readonly string[];
  /** What could not be repaired, and why. */
  readonly unrepaired: readonly string[];
}

function sha256Text(text: string): string {
  return createHash('sha256').update(utf8(text)).digest('hex');
}

/** Why an error stopped a repair, in words (a benchmark error's message; anything else is a bug and is thrown). */
function reason(error: unknown): string {
  if (isEmberError(error)) return error.message;
  throw error;
}

/**
 * Repairs what can be of one trial's damage; the archive must be open for
 * writing. Each replaced artifact is its own transaction.
 */
export async function repairTrial(archive: Archive, trialId: number, damage: readonly TrialDamage[], score?: (job: ScoreJob) => Promise<ScoredTrial>): Promise<TrialRepair> {
  const repaired: string[] = [];
  const unrepaired: string[] = [];
  const row = getTrialDbRow(archive, trialId);
  if (row === undefined) return { repaired, unrepaired: [`trial ${trialId} is no longer in the archive`] };
  const episodesDamaged = damage.some((d) => d.kind === 'episode');
  let resultSound = !damage.some((d) => d.kind === 'result' || d.kind === 'result-missing');
  let rebuilt: Buffer[] | undefined;

  for (const d of damage) {
    switch (d.kind) {
      case 'result': {
        if (episodesDamaged) {
          unrepaired.push(`result ${d.digest}: not rebuilt, since episodes it is made of are damaged too`);
          break;
        }
        try {
          const manifest = loadStoredManifest(archive, row.manifest_hash);
          if (manifest === undefined) {
            unrepaired.push(`result ${d.digest}: not rebuilt, since the trial's manifest ${row.manifest_hash} is missing`);
            break;
          }
          const composed = await composeStoredResult(archive, trialId, manifest, row.manifest_hash, row.model_id);
          if (composed.digest !== d.digest) {
            unrepaired.push(`result ${d.digest}: its ${composed.episodes} stored episodes compose to result ${composed.digest}, not to the trial's result; left as it is`);
            break;
          }
          // Packed and read back (packChunksAsync verifies), then stored over the damaged row.
          const packed = await packChunksAsync('result', composed.chunks, composed.digest);
          archive.write((archive) => putPacked(archive, packed));
          await getArtifactAsync(archive, composed.digest);
          rebuilt = composed.chunks as Buffer[];
          resultSound = true;
          repaired.push(`result ${d.digest}: rebuilt from its ${composed.episodes} stored episodes (${describeBytes(composed.size)}, the trial's result digest) and replaced`);
        } catch (error) {
          unrepaired.push(`result ${d.digest}: not rebuilt (${reason(error)})`);
        }
        break;
      }
      case 'score-report':
      case 'summary':
        // Both at once, below: one scoring restores either.
        break;
      case 'result-missing':
        unrepaired.push('the trial names no result, so there is no recorded digest to check a rebuilt one against; run or import it again');
        break;
      case 'episode':
        unrepaired.push(`episode ${d.episode}: its artifact ${d.digest} is damaged and the archive keeps no other copy of it; run or import the trial again`);
        break;
      case 'episodes-differ':
        unrepaired.push(`${d.message}; the result itself is sound and exports as stored`);
        break;
      case 'manifest':
        unrepaired.push(`the trial's manifest: ${d.message}`);
        break;
      case 'operational':
        unrepaired.push(`operational record ${d.digest}: damaged, and the archive keeps no other copy of it; import the result with its operational record again`);
        break;
    }
  }

  const scoring = damage.filter((d) => d.kind === 'score-report' || d.kind === 'summary');
  if (scoring.length > 0) {
    const outcome = await rescore(archive, row, scoring, resultSound, rebuilt, score);
    repaired.push(...outcome.repaired);
    unrepaired.push(...outcome.unrepaired);
  }
  return { repaired, unrepaired };
}

async function rescore(
  archive: Archive,
  row: NonNullable<ReturnType<typeof getTrialDbRow>>,
  damage: readonly TrialDamage[],
  resultSound: boolean,
  rebuilt: readonly Buffer[] | undefined,
  score: ((job: ScoreJob) => Promise<ScoredTrial>) | undefined,
): Promise<TrialRepair> {
  const fail = (why: string): TrialRepair => ({ repaired: [], unrepaired: damage.map((d) => `${d.kind} ${d.digest}: not re-scored, ${why}`) });
  if (score === undefined) return fail('since re-scoring was not asked for');
  if (!resultSound || row.result_digest === null) return fail('since the trial has no sound result to score');
  try {
    const result = rebuilt ?? [await getArtifactAsync(archive, row.result_digest)];
    const size = result.reduce((n, c) => n + c.length, 0);
    if (size > MAX_TEXT_INPUT_BYTES) return fail(`since its result (${describeBytes(size)}) is larger than the ${describeBytes(MAX_TEXT_INPUT_BYTES)} scored as one text here`);
    const manifest = loadStoredManifest(archive, row.manifest_hash);
    if (manifest === undefined) return fail(`since its manifest ${row.manifest_hash} is missing`);
    const scored = await score(scoreJobOf(archive, result, `trial ${row.trial_id}`, manifest.suite.suite_hash, row.pack_digest));
    const repaired: string[] = [];
    const unrepaired: string[] = [];
    for (const d of damage) {
      const text = d.kind === 'score-report' ? scored.reportText : scored.summary;
      if (sha256Text(text) !== d.digest) {
        unrepaired.push(`${d.kind} ${d.digest}: re-scoring gave other bytes (${sha256Text(text)}); left as it is`);
        continue;
      }
      archive.write((archive) => putText(archive, d.kind === 'score-report' ? 'score-report' : 'summary', text));
      repaired.push(`${d.kind} ${d.digest}: re-scored from the result and replaced`);
    }
    return { repaired, unrepaired };
  } catch (error) {
    return fail(`since scoring failed (${reason(error)})`);
  }
}
