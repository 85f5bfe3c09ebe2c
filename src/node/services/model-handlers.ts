/**
 * The Models view's services: the archive's models, one model's scores
 * over its trials (model-history.ts), and several models compared at once.
 * The comparison ranks the chosen trials exactly as the Leaderboard view
 * ranks a board (leaderboard-group.ts: core's buildLeaderboard, the paired
 * outcome of each adjacent pair) and adds each one's family scores from its
 * score report.
 */

import type { Outputs, ParsedInput, SignerView } from '../../shared/api/contract.js';
import type { Archive } from '../archive/archive.js';
import { listModels, modelHistory } from '../archive/model-history.js';
import type { TrialDbRow } from '../archive/queries.js';
import { ServiceError } from './dispatch.js';
import { leaderboardGroup } from './leaderboard-group.js';
import { reportOf, trialRow } from './review-handlers.js';

type ModelProcedures = 'models.list' | 'models.history' | 'models.compare';
export type ModelHandlers = { readonly [N in ModelProcedures]: (input: ParsedInput<N>) => Promise<Outputs[N]> };

const targetOf = (row: TrialDbRow): string => (row.official === 1 ? `pack ${row.pack_id}` : `suite ${row.suite_id} (unofficial)`);

/** The chosen trials, checked to be one board: scored, one per model, one manifest and target. */
function boardRows(archive: Archive, trialIds: readonly number[]): TrialDbRow[] {
  const rows = trialIds.map((id) => trialRow(archive, id, 'trialIds'));
  const first = rows[0]!;
  const models = new Map<string, number>();
  for (const row of rows) {
    if (row.report_digest === null) throw new ServiceError('usage', `trialIds: trial ${row.trial_id} (${row.model_id}) has no score report yet (it is ${row.status}); choose scored trials`, 'trialIds');
    const twin = models.get(row.model_id);
    if (twin !== undefined) throw new ServiceError('usage', `trialIds: trials ${twin} and ${row.trial_id} are both model ${JSON.stringify(row.model_id)}; choose one trial per model`, 'trialIds');
    models.set(row.model_id, row.trial_id);
    if (row.manifest_hash !== first.manifest_hash || row.pack_digest !== first.pack_digest || row.official !== first.official) {
      throw new ServiceError(
        'usage',
        `trialIds: trial ${row.trial_id} (${row.model_id}, ${targetOf(row)}) is not on the manifest and target of trial ${first.trial_id} (${first.model_id}, ${targetOf(first)}); only trials of one manifest and target compare`,
        'trialIds',
      );
    }
  }
  return rows;
}

export function modelHandlers(archive: Archive, signersOf: (trialId: number) => SignerView[]): ModelHandlers {
  return {
    'models.list': () => Promise.resolve(listModels(archive)),
    'models.history': ({ modelId }) => Promise.resolve({ modelId, points: modelHistory(archive, modelId) }),
    'models.compare': ({ trialIds, resamples }) => {
      const rows = boardRows(archive, trialIds);
      const reports = rows.map((row) => reportOf(archive, row, 'trialIds'));
      const first = rows[0]!;
      const head = { target: first.official === 1 ? first.pack_id! : first.suite_id, official: first.official === 1, manifestHash: first.manifest_hash };
      const group = leaderboardGroup(head, rows.map((row, k) => ({ rows: [row], view: reports[k]!.view, report: reports[k]!.report })), resamples, signersOf);
      const families = group.rows.map((entry) => {
        const k = rows.findIndex((r) => r.model_id === entry.modelId);
        return { modelId: entry.modelId, trialId: rows[k]!.trial_id, families: reports[k]!.report.families.map((f) => ({ family: f.family, score: f.score })) };
      });
      return Promise.resolve({ group, families });
    },
  };
}
