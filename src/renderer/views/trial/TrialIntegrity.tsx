/**
 * A damaged trial's mark and its Repair button (trials.check, trials.repair;
 * docs/archive.md, archive check). Nothing shows while the trial reads back
 * whole; a repair rebuilds only what has its recorded digest and says what
 * it could not.
 */

import { useState } from 'react';
import type { TrialIntegrity as Integrity } from '../../../shared/api/contract.js';
import { useAction, useApi, useQuery } from '../../app/api-context.js';
import { ErrorMessage } from '../../components/ErrorMessage.js';

/** What a damage is of, in the trial's words. */
function partOf(d: Integrity['damage'][number]): string {
  switch (d.kind) {
    case 'result':
    case 'result-missing':
      return 'Result';
    case 'episode':
      return `Episode ${d.episode}`;
    case 'episodes-differ':
      return 'Episodes';
    case 'score-report':
      return 'Score report';
    case 'summary':
      return 'Summary';
    case 'operational':
      return 'Operational record';
    case 'manifest':
      return 'Manifest';
  }
}

export function TrialIntegrity({ trialId }: { trialId: number }) {
  const api = useApi();
  const check = useQuery((a) => a['trials.check']({ trialId }), String(trialId), [{ trialId }]);
  const repair = useAction<Integrity>();
  const [outcome, setOutcome] = useState<Integrity | null>(null);
  const found = check.data;
  return (
    <>
      <ErrorMessage error={check.error} />
      {found !== null && found.damaged && (
        <div className="card warn" role="alert" data-testid="trial-damaged">
          <h2>
            <span className="pill failed">damaged</span> This trial's stored data does not read back whole
          </h2>
          <ul className="plain small">
            {found.damage.map((d, k) => (
              <li key={k}>
                <strong>{partOf(d)}:</strong> {d.message}
              </li>
            ))}
          </ul>
          <p className="small muted">Repair rebuilds a damaged result from the trial's stored episodes (the bytes `emberbench evaluation run` writes) and keeps it only if it has the digest the trial recorded; nothing else is changed.</p>
          <ErrorMessage error={repair.error} onDismiss={repair.clear} />
          <div className="form-actions">
            <button
              type="button"
              disabled={repair.busy}
              onClick={() => {
                setOutcome(null);
                void repair.run(() => api['trials.repair']({ trialId })).then((r) => {
                  setOutcome(r);
                  check.refetch();
                });
              }}
            >
              {repair.busy ? 'Repairing…' : 'Repair'}
            </button>
          </div>
        </div>
      )}
      {outcome !== null && (
        <div className={`notice ${outcome.damaged ? 'bad' : 'ok'}`} role="status" data-testid="trial-repair-outcome">
          {outcome.damaged ? 'Repair could not restore everything.' : 'Repaired: the trial reads back whole and exports again.'}
          <ul className="plain small">
            {outcome.repaired.map((line, k) => (
              <li key={`r${k}`}>{line}</li>
            ))}
            {outcome.unrepaired.map((line, k) => (
              <li key={`u${k}`}>Not repaired: {line}</li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}
