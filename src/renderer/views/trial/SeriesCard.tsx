/**
 * A trial of a run of K trials: "trial k of K", and the combined score of
 * the run's scored trials (scoring-v1.0.md sections 6 and 12: each
 * episode's trials averaged, then the usual aggregation), with links to the
 * other trials. Nothing for a trial run alone.
 */

import { useQuery } from '../../app/api-context.js';
import type { Navigate } from '../../app/navigate.js';
import { points } from '../../components/format.js';

export function SeriesCard({ trialId, go }: { trialId: number; go: Navigate }) {
  const series = useQuery((a) => a['trials.series']({ trialId }), String(trialId), [{ trialId }]);
  const s = series.data;
  if (s === null || s === undefined) return null;
  return (
    <div className="card series-card" data-testid="series-card">
      <h2>
        Trial {s.index} of {s.count}
      </h2>
      {s.score === null ? (
        <p className="muted">
          Combined score: when at least two trials of this run are scored ({s.scoredTrialIds.length} of {s.count} so far).
        </p>
      ) : (
        <p>
          <strong>Combined score of {s.scoredTrialIds.length} trials</strong> (mean over trials, each episode&apos;s trials averaged first; scoring-v1.0.md sections 6 and 12):{' '}
          <span className="series-score">{s.scoreRounded ?? points(s.score)}</span>
          {s.intervalLow !== null && s.intervalHigh !== null && ` [${points(s.intervalLow)}, ${points(s.intervalHigh)}]`}
        </p>
      )}
      <p>
        Trials of this run:{' '}
        {s.scoredTrialIds.map((id, k) => (
          <span key={id}>
            {k > 0 && ', '}
            {id === trialId ? (
              <span aria-current="page">trial {id}</span>
            ) : (
              <button type="button" className="link" onClick={() => go({ view: 'trial', trialId: id })}>
                trial {id}
              </button>
            )}
          </span>
        ))}
      </p>
    </div>
  );
}
