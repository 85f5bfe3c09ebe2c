/** Run: choose target, agent, model ID and concurrency; start; watch live progress; cancel; resume. */

import { useEffect, useRef, useState } from 'react';
import { LiveRegion } from '../../a11y/live-region.js';
import type { RunProgressEvent } from '../../../shared/api/contract.js';
import { useAction, useApi, useEvent, useQuery } from '../../app/api-context.js';
import type { Navigate } from '../../app/navigate.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorMessage } from '../../components/ErrorMessage.js';
import { ProgressBar } from '../../components/ProgressBar.js';
import { RunningCard } from '../../components/RunningCard.js';
import { TrialOfRun, UsageCounter } from '../../components/UsageCounter.js';
import { duration, points } from '../../components/format.js';
import type { ApiErrorKind } from '../../../shared/api/result.js';
import { RunForm } from './RunForm.js';
import { TRIAL_LISTS } from '../../app/archive-changes.js';

export function RunView({ go, defaultJobs }: { go: Navigate; defaultJobs: number | null }) {
  const api = useApi();
  const runs = useQuery((a) => a['runs.list']({}), 'runs', TRIAL_LISTS);
  const interrupted = useQuery((a) => a['trials.list']({ filter: { status: 'interrupted' }, limit: 50 }), 'interrupted', TRIAL_LISTS);
  const [ended, setEnded] = useState<readonly RunProgressEvent[]>([]);
  const cancel = useAction<Record<string, never>>();
  const resume = useAction<{ trialId: number }>();
  // The run just started: its card takes the focus as soon as it shows (running, or already ended).
  const [started, setStarted] = useState<number | null>(null);
  // A run that ends while its card has the focus hands the focus to its ended card (the running one goes).
  const [endedFocus, setEndedFocus] = useState<number | null>(null);
  useEffect(() => {
    const [id, selector] = endedFocus !== null ? [endedFocus, '.running.ended'] : [started, '.running'];
    if (id === null) return;
    const card = document.querySelector<HTMLElement>(`${selector}[data-trial="${id}"]`);
    if (card === null) return;
    card.focus();
    setStarted(null);
    setEndedFocus(null);
  });

  // The progress events carry no model ID: remember it from the runs seen running.
  const names = useRef(new Map<number, string>());
  for (const r of runs.data ?? []) names.current.set(r.trialId, r.modelId);
  useEvent('run.progress', (p) => {
    if (p.state === 'running') return;
    if (document.activeElement?.closest(`.running[data-trial="${p.trialId}"]`) != null) setEndedFocus(p.trialId);
    setEnded((list) => [p, ...list.filter((e) => e.trialId !== p.trialId)].slice(0, 5));
    runs.refetch();
    interrupted.refetch();
  });

  return (
    <section className="view">
      <header className="view-header">
        <h1 tabIndex={-1}>Run</h1>
        <p>Evaluate an agent on a manifest. Every episode is replayed and checked; the result is the same as `emberbench evaluation run` writes.</p>
      </header>
      <RunForm
        defaultJobs={defaultJobs}
        onStarted={(trialId) => {
          setStarted(trialId);
          runs.refetch();
        }}
      />
      <LiveRegion text={ended[0] === undefined ? '' : `${ENDED_TEXT[ended[0].state === 'running' ? 'complete' : ended[0].state]}: trial ${ended[0].trialId}${names.current.has(ended[0].trialId) ? ` of ${names.current.get(ended[0].trialId)}` : ''}, ${ended[0].finished} of ${ended[0].scheduled} episodes`} />

      <div className="card">
        <h2>Running</h2>
        <ErrorMessage error={runs.error ?? cancel.error} onDismiss={cancel.error !== null ? cancel.clear : undefined} />
        {runs.data === null || runs.data.length === 0 ? (
          ended.length === 0 && <EmptyState title="Nothing is running.">Start an evaluation above; its progress appears here.</EmptyState>
        ) : (
          runs.data.map((r) => (
            <RunningCard key={r.trialId} run={r} cancelling={cancel.busy} onCancel={() => void cancel.run(() => api['runs.cancel']({ trialId: r.trialId }))} onOpen={() => go({ view: 'trial', trialId: r.trialId })} />
          ))
        )}
        {ended.map((e) => (
          <EndedRun key={e.trialId} event={e} modelId={names.current.get(e.trialId)} onOpen={() => go({ view: 'trial', trialId: e.trialId })} />
        ))}
      </div>

      <div className="card">
        <h2>Interrupted trials</h2>
        <ErrorMessage error={interrupted.error ?? resume.error} onDismiss={resume.error !== null ? resume.clear : undefined} />
        {interrupted.data === null || interrupted.data.rows.length === 0 ? (
          <EmptyState title="No interrupted trial.">A trial stopped by a quit, a crash or Cancel shows up here, ready to resume.</EmptyState>
        ) : (
          <table className="table">
            <tbody>
              {interrupted.data.rows.map((t) => (
                <tr key={t.trialId}>
                  <td>{t.modelId}</td>
                  <td className="muted">{t.agentLabel}</td>
                  <td className="num">
                    {t.episodesCompleted + t.episodesFailed} of {t.episodesScheduled} episodes
                  </td>
                  <td className="actions">
                    <button type="button" disabled={resume.busy} onClick={() => void resume.run(() => api['runs.resume']({ trialId: t.trialId })).then(() => runs.refetch())}>
                      Resume
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}

const ENDED_TEXT: Record<Exclude<RunProgressEvent['state'], 'running'>, string> = {
  complete: 'Finished',
  incomplete: 'Finished with failed episodes',
  cancelled: 'Cancelled: resume it below when you are ready',
  failed: 'Stopped by an error',
};

function EndedRun({ event, modelId, onOpen }: { event: RunProgressEvent; modelId: string | undefined; onOpen: () => void }) {
  const state = event.state === 'running' ? 'complete' : event.state;
  // The trial's own score (over all of its episodes, also those before a resume), as its page shows it.
  const trial = useQuery((a) => a['trials.get']({ trialId: event.trialId }), `ended-trial-${event.trialId}`, [{ trialId: event.trialId }]);
  const score = trial.data?.trial.score ?? null;
  const percent = event.scheduled === 0 ? 0 : Math.floor((event.finished / event.scheduled) * 100);
  return (
    <div className={`running ended ${state}`} data-trial={event.trialId} role="group" aria-label={`Evaluation of trial ${event.trialId}${modelId !== undefined ? `, ${modelId}` : ''}: ${ENDED_TEXT[state]}`} tabIndex={-1}>
      <div className="running-head">
        <strong>{ENDED_TEXT[state]}</strong>
        {modelId !== undefined && <span className="muted">{modelId}</span>}
        <span className="spacer" />
        <button type="button" onClick={onOpen}>
          Open trial
        </button>
      </div>
      <ProgressBar done={event.finished} total={event.scheduled} label={`Trial ${event.trialId}`} />
      <div className="running-figures">
        <span className="run-percent">{percent}%</span>
        <span className="run-episodes">
          {event.finished} of {event.scheduled} episodes
        </span>
        {score !== null ? (
          <span className="run-score">score {points(score)}</span>
        ) : (
          <span className="run-score">mean episode score {event.runningScore === null ? '–' : points(event.runningScore)}</span>
        )}
        <span className="run-elapsed">elapsed {duration(event.elapsedMs)}</span>
      </div>
      <TrialOfRun trial={event.trial} usage={event.usage} />
      <UsageCounter usage={event.usage} />
      {event.error !== undefined && <ErrorMessage error={{ kind: event.error.kind as ApiErrorKind, message: event.error.message }} />}
    </div>
  );
}
