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
