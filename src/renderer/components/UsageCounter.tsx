/** The live token and cost counter of a language-model run (run.progress `usage`): calls, input and output tokens, cost so far. */

import type { RunProgressEvent } from '../../shared/api/contract.js';

export function UsageCounter({ usage }: { usage: RunProgressEvent['usage'] }) {
  if (usage === undefined) return null;
  const n = (value: number) => value.toLocaleString('en-US');
  return (
    <div className="running-figures usage-counter" data-testid="usage-counter" data-input-tokens={usage.inputTokens} data-output-tokens={usage.outputTokens}>
      <span>{n(usage.calls)} model calls</span>
      <span className="usage-tokens">
        {n(usage.inputTokens)} input + {n(usage.outputTokens)} output tokens
      </span>
      <span className="usage-cost">{usage.cost !== null ? `cost ${usage.cost} ${usage.costUnit ?? ''}` : usage.costUnit === null ? 'no cost (no pricing table)' : 'cost unknown (answers without usage fields)'}</span>
    </div>
  );
}

/** "Trial k of K" and the run's totals so far (run.progress `trial`), for a run of several trials. */
export function TrialOfRun({ trial, usage }: { trial: RunProgressEvent['trial']; usage: RunProgressEvent['usage'] }) {
  if (trial === undefined) return null;
  const n = (value: number) => value.toLocaleString('en-US');
  const t = trial.totals;
  return (
    <div className="running-figures run-totals" data-testid="run-totals">
      <strong className="run-trial">
        Trial {trial.index} of {trial.count}
      </strong>
      <span>
        run total: {n(t.episodes)} episodes
        {usage !== undefined && (
          <>
            , {n(t.calls)} model calls, {n(t.inputTokens)} input + {n(t.outputTokens)} output tokens
            {t.cost !== null && usage.costUnit !== null ? `, cost ${t.cost} ${usage.costUnit}` : ''}
          </>
        )}
      </span>
    </div>
  );
}
