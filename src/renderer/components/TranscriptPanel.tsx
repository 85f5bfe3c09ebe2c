/**
 * The transcript of a language-model episode (episodes.transcript): every
 * model call in order, the step its answer drove, its outcome, tokens and
 * latency, and the prompt and raw answer on demand. Meant to sit next to a
 * replay: the host passes the replay's current step, the call that drove it
 * is marked (direct mode: the call of that step; planner mode: the last
 * plan at or before it), and clicking a call's step asks the host to seek
 * there. For trials without transcripts (baselines, imports) it renders
 * nothing.
 */

import { useEffect, useRef } from 'react';
import { useQuery } from '../app/api-context.js';
import { ErrorMessage } from './ErrorMessage.js';
import { drivingCall } from './transcript-steps.js';

export function TranscriptPanel({ trialId, index, step, onSeek }: { trialId: number; index: number; step: number; onSeek?: (step: number) => void }) {
  const q = useQuery((a) => a['episodes.transcript']({ trialId, index }), `transcript/${trialId}/${index}`, [{ trialId }]);
  const current = q.data === null ? -1 : drivingCall(q.data.lines, step);
  const list = useRef<HTMLOListElement | null>(null);
  // Keep the marked call in view while the replay plays.
  useEffect(() => {
    const el = list.current?.querySelector('[data-current="true"]');
    if (el instanceof HTMLElement && typeof el.scrollIntoView === 'function') el.scrollIntoView({ block: 'nearest' });
  }, [current]);
  // A trial without transcripts is not an error for this panel: it is simply not shown.
  if (q.error?.kind === 'not_found' && q.error.field === 'trialId') return null;
  const lines = q.data?.lines ?? [];
  const tokens = lines.reduce((s, l) => ({ input: s.input + (l.inputTokens ?? 0), output: s.output + (l.outputTokens ?? 0) }), { input: 0, output: 0 });
  return (
    <div className="card transcript-panel" data-testid="transcript">
      <h2>Transcript</h2>
      {q.error?.kind === 'not_found' && q.error.field === 'index' ? <p className="hint">No transcript of this episode: it has not run (yet).</p> : <ErrorMessage error={q.error} />}
      {q.data !== null && (
        <p className="hint">
          {lines.length} model calls · {tokens.input.toLocaleString('en-US')} input + {tokens.output.toLocaleString('en-US')} output tokens · the prompts as sent (the system prompt is the adapter's, docs/llm.md)
        </p>
      )}
      <ol className="transcript-calls" ref={list}>
        {lines.map((l, i) => (
          <li key={i} data-current={i === current} aria-current={i === current ? 'step' : undefined} className={i === current ? 'current' : undefined} data-step={l.step}>
            <div className="transcript-head">
              {onSeek === undefined ? (
                <strong>step {l.step}</strong>
              ) : (
                <button type="button" className="link" onClick={() => onSeek(l.step)} title="Show this step in the replay">
                  step {l.step}
                </button>
              )}
              <span className={l.outcome === 'ok' ? 'pill complete' : 'pill incomplete'}>{l.outcome}</span>
              <span className="muted small">
                {l.inputTokens ?? '?'} in · {l.outputTokens ?? '?'} out · {l.latencyMs === null ? '–' : `${l.latencyMs} ms`} ·{' '}
                <span className="transcript-retries">{l.retries === 0 ? 'no retry' : `${l.retries} ${l.retries === 1 ? 'retry' : 'retries'} (${l.attempts} attempts)`}</span>
              </span>
            </div>
            <details>
              <summary>Prompt</summary>
              <pre className="transcript-text" tabIndex={0}>{l.prompt}</pre>
            </details>
            <details open={i === current}>
              <summary>Answer</summary>
              <pre className="transcript-text" tabIndex={0}>{l.answer ?? '(no answer)'}</pre>
            </details>
          </li>
        ))}
      </ol>
    </div>
  );
}
