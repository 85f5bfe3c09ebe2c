/** One running evaluation: a progress bar, episodes done, ETA and the running score, live from `run.progress`. */

import { useState } from 'react';
import type { RunProgressEvent, RunStatus } from '../../shared/api/contract.js';
import { useEvent } from '../app/api-context.js';
import { LiveRegion } from '../a11y/live-region.js';
import { ProgressBar } from './ProgressBar.js';
import { duration, points } from './format.js';
import { TrialOfRun, UsageCounter } from './UsageCounter.js';

export function RunningCard({ run, onOpen, onCancel, cancelling }: { run: RunStatus; onOpen?: () => void; onCancel?: () => void; cancelling?: boolean }) {
  const [last, setLast] = useState<RunProgressEvent | null>(null);
  useEvent('run.progress', (p) => {
    if (p.trialId === run.trialId) setLast(p);
  });
  const finished = last?.finished ?? run.finished;
  const scheduled = last?.scheduled ?? run.scheduled;
  const eta = last?.etaMs ?? run.etaMs;
  const percent = scheduled === 0 ? 0 : Math.floor((finished / scheduled) * 100);
  return (
    <div className="running" data-trial={run.trialId} role="group" aria-label={`Evaluation of ${run.modelId}`} tabIndex={-1}>
      <div className="running-head">
        <strong>{run.modelId}</strong>
        <span className="muted">{run.agentLabel}</span>
        <span className="spacer" />
        {onOpen !== undefined && (
          <button type="button" className="link" onClick={onOpen}>
            Open
          </button>
        )}
        {onCancel !== undefined && (
          <button type="button" className="danger" onClick={onCancel} disabled={cancelling === true || run.state === 'cancelling'}>
            {cancelling === true || run.state === 'cancelling' ? 'Cancelling…' : 'Cancel'}
          </button>
        )}
      </div>
      <ProgressBar done={finished} total={scheduled} label={`Evaluation of ${run.modelId}`} />
      <div className="running-figures">
        <span className="run-percent">{percent}%</span>
        <span className="run-episodes">
          {finished} of {scheduled} episodes
        </span>
        <span>ETA {finished === 0 || finished >= scheduled ? '–' : duration(eta)}</span>
        <span>running score {last?.runningScore === undefined || last.runningScore === null ? '–' : points(last.runningScore)}</span>
        {last?.episode !== undefined && <span className="muted">last: {last.episode.scenarioId} {last.episode.status}</span>}
      </div>
      <TrialOfRun trial={last?.trial} usage={last?.usage} />
      <UsageCounter usage={last?.usage} />
      <LiveRegion intervalMs={2000} text={`${run.modelId}${last?.trial !== undefined ? `, trial ${last.trial.index} of ${last.trial.count}` : ''}: ${finished} of ${scheduled} episodes, ${percent}%${last?.usage !== undefined ? `, ${last.usage.calls} model calls, ${last.usage.inputTokens + last.usage.outputTokens} tokens` : ''}`} />
    </div>
  );
}
