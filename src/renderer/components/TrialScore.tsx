/** A trial's score as the tables show it: one decimal, with the interval when there is one. */

import type { TrialRow } from '../../shared/api/contract.js';
import { points } from './format.js';

export function TrialScore({ trial }: { trial: TrialRow }) {
  if (trial.score === null) return <span className="muted">–</span>;
  return (
    <span>
      <strong>{points(trial.score)}</strong>
      {trial.intervalLow !== null && trial.intervalHigh !== null && (
        <span className="muted small">
          {' '}
          [{points(trial.intervalLow)}, {points(trial.intervalHigh)}]
        </span>
      )}
    </span>
  );
}
