/**
 * A trial of a run of K trials: "trial k of K", and the combined score of
 * the run's scored trials (scoring-v1.0.md sections 6 and 12: each
 * episode's trials averaged, then the usual aggregation), with links to the
 * other trials. Nothing for a trial run alone.
 *
 * Laid out like the headline below it (the figure first, then what it is),
 * but smaller and labelled "combined", so that the two scores on the page
 * are never taken for one another. Trials are named by their ID ("Trial
 * 12"), as everywhere in the app; their place in the run by "k of K".
 */

import { useQuery } from '../../app/api-context.js';
import type { Navigate } from '../../app/navigate.js';
import { points } from '../../components/format.js';

export function SeriesCard({ trialId, go }: { trialId: number; go: Navigate }) {
  const series = useQuery((a) => a['trials.series']({ trialId }), String(trialId), [{ trialId }]);
  const s = series.data;
  if (s === null || s === undefined) return null;
  const scored = s.scoredTrialIds.length;
  return (
    <section className="card series-card" data-testid="series-card" aria-labelledby="series-card-title">
      <div className="card-head">
        <h2 id="series-card-title">
          Trial {s.index} of {s.count} of this run
        </h2>
        <span className="muted small">
          {scored} of {s.count} trials scored
        </span>
      </div>
      <div className="series-body">
        <div className="series-figure">
          <span className="score-label">Combined score</span>
          {s.score === null ? (
            <span className="series-pending">not yet</span>
          ) : (
            <span className="series-score" data-testid="series-score">
              {s.scoreRounded ?? points(s.score)}
            </span>
          )}
          <span className="score-unit">{s.score === null ? 'needs two scored trials' : `/ 100 points, ${scored} trials`}</span>
        </div>
        <div className="series-detail">
          {s.score !== null && (
            <div data-testid="series-interval">{s.intervalLow !== null && s.intervalHigh !== null ? `95% interval [${points(s.intervalLow)}, ${points(s.intervalHigh)}]` : 'No interval for the combined score.'}</div>
          )}
          <p className="muted small">
            The mean over the run&apos;s scored trials: each episode&apos;s scores are averaged over the trials first, then aggregated as for one trial (scoring v1.0, sections 6 and 12). The Leaderboard ranks
            this score; the EMBER Score below is this trial&apos;s alone.
          </p>
          <p className="small">
            Scored trials of this run:{' '}
            {s.scoredTrialIds.map((id, k) => (
              <span key={id}>
                {k > 0 && ' · '}
                {id === trialId ? (
                  <strong aria-current="page">Trial {id} (this page)</strong>
                ) : (
                  <button type="button" className="link" onClick={() => go({ view: 'trial', trialId: id })}>
                    Trial {id}
                  </button>
                )}
              </span>
            ))}
            {scored === 0 && 'none yet'}
          </p>
        </div>
      </div>
    </section>
  );
}
