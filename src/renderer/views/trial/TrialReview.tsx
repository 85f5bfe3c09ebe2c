/** The Trial view's review exports: the episode table as CSV, and the official bundle with its HTML report. */

import { useState } from 'react';
import type { EpisodeRow } from '../../../shared/api/contract.js';
import type { ApiError } from '../../../shared/api/result.js';
import { useApi, useQuery } from '../../app/api-context.js';
import { ErrorMessage } from '../../components/ErrorMessage.js';
import { BundleExport, downloadCsv } from '../../components/BundleExport.js';

export const EPISODE_CSV_HEADER = ['index', 'scenario', 'family', 'status', 'failure', 'score', 'evacuated', 'dead', 'stranded', 'steps', 'end'] as const;

export function episodeCsvRow(e: EpisodeRow): (string | number | null)[] {
  return [e.index, e.scenarioId, e.family, e.status, e.failureKind, e.score, e.evacuated, e.dead, e.stranded, e.steps, e.termination];
}

export function TrialReview({ trialId, official }: { trialId: number; official: boolean }) {
  const api = useApi();
  const first = useQuery((a) => a['episodes.list']({ trialId, limit: 1000 }), `review-${trialId}`, [{ trialId }]);
  const [csvError, setCsvError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const episodes = first.data?.rows ?? [];

  async function csv() {
    setBusy(true);
    setCsvError(null);
    try {
      const rows: EpisodeRow[] = [];
      for (let offset = 0; ; offset += 1000) {
        const page = await api['episodes.list']({ trialId, offset, limit: 1000 });
        if (!page.ok) {
          setCsvError(page.error);
          return;
        }
        rows.push(...page.value.rows);
        if (rows.length >= page.value.total || page.value.rows.length === 0) break;
      }
      downloadCsv(`trial-${trialId}-episodes.csv`, EPISODE_CSV_HEADER, rows.map(episodeCsvRow));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <div className="card">
        <div className="card-head">
          <h2>Episode table as CSV</h2>
          <button type="button" onClick={() => void csv()} disabled={busy}>
            {busy ? 'Preparing…' : 'Download CSV'}
          </button>
        </div>
        <p className="muted small">Every episode of this trial, one row each, downloaded by the browser. Click an episode in the table above to replay it.</p>
        <ErrorMessage error={csvError ?? first.error} />
      </div>
      <BundleExport a={[trialId]} b={[]} official={official} episodes={episodes.filter((e) => e.status === 'done').map((e) => ({ index: e.index, label: `#${e.index} ${e.scenarioId} (${e.family})` }))} />
    </>
  );
}
