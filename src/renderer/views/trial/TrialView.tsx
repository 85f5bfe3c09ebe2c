/** One trial: the score report as a page (headline, charts, figures), its episodes, and export. */

import { useState } from 'react';
import type { RunProgressEvent } from '../../../shared/api/contract.js';
import { useEvent, useQuery } from '../../app/api-context.js';
import type { Navigate } from '../../app/navigate.js';
import { EfficiencyCard } from '../../components/EfficiencyCard.js';
import { EmptyState } from '../../components/EmptyState.js';
import { SignerBadge } from '../../components/SignerBadge.js';
import { IsolationBadge } from '../../components/IsolationBadge.js';
import { ErrorMessage } from '../../components/ErrorMessage.js';
import { Busy, ProgressBar } from '../../components/ProgressBar.js';
import { dateTime, duration, points } from '../../components/format.js';
import { ComponentsCard, FamiliesCard, Headline, OperationalCard, PeopleCard, TailAndZeroCard } from './ReportSections.js';
import { TrialOfRun, UsageCounter } from '../../components/UsageCounter.js';
import { SeriesCard } from './SeriesCard.js';
import { EpisodeTable } from './EpisodeTable.js';
import { ExportPanel } from './ExportPanel.js';
import { TrialIntegrity } from './TrialIntegrity.js';
import { TrialReview } from './TrialReview.js';
import { CopyLink } from '../../components/CopyLink.js';
import { NotFoundView } from '../not-found/NotFoundView.js';
import { AnnotationsCard, DeletePanel, RunLogCard } from './TrialHousekeeping.js';

export function TrialView({ trialId, go }: { trialId: number; go: Navigate }) {
  const detail = useQuery((a) => a['trials.get']({ trialId }), String(trialId), [{ trialId }]);
  // While this trial runs, its page follows the progress and reloads when the run ends.
  const [progress, setProgress] = useState<RunProgressEvent | null>(null);
  useEvent('run.progress', (p) => {
    if (p.trialId !== trialId) return;
    setProgress(p);
    if (p.state !== 'running') detail.refetch();
  });
  const d = detail.data;
  const report = d?.report;
  // A link to a trial this archive does not hold (deleted, another archive, a typo) is a place, not an error.
  if (d === null && detail.error?.kind === 'not_found') return <NotFoundView hash={window.location.hash} what="trial" go={go} />;
  return (
    <section className="view">
      <header className="view-header">
        <button type="button" className="link back" onClick={() => go({ view: 'trials' })}>
          ← Trials
        </button>
        <h1 tabIndex={-1}>{d === null ? `Trial ${trialId}` : d.trial.modelId}</h1>
        {d !== null && (
          <p>
            {d.trial.agentLabel} · {d.trial.suiteId} · {d.trial.episodesCompleted} of {d.trial.episodesScheduled} episodes
            {d.trial.episodesFailed > 0 ? ` (${d.trial.episodesFailed} failed)` : ''} · <span className={`pill ${d.trial.status}`}>{d.trial.status}</span> · <IsolationBadge isolation={d.trial.isolation} /> · <SignerBadge signers={d.trial.signers} official={d.trial.official} />
            {d.trial.official ? ' · ' : ''}
            {d.trial.origin === 'import' ? 'imported' : 'run'}{' '}
            {dateTime(d.trial.created)}
            {d.trial.durationMs === null ? '' : ` · ran ${duration(d.trial.durationMs)}`}
            {d.trial.label === '' ? '' : ` · “${d.trial.label}”`}
            {d.trial.tags.map((tag) => (
              <span key={tag} className="pill tag">
                {tag}
              </span>
            ))}
          </p>
        )}
        <div className="header-links">
          {d !== null && (
            <button type="button" className="link" data-testid="model-history-link" onClick={() => go({ view: 'models', model: d.trial.modelId })}>
              History of {d.trial.modelId} in Models →
            </button>
          )}
          <CopyLink />
        </div>
      </header>
      <ErrorMessage error={detail.error} />
      {/* Not while it runs (every committed episode changes it); also when the trial's page cannot load, which damage can cause. */}
      {(d === null ? detail.error !== null : d.trial.status !== 'running') && <TrialIntegrity trialId={trialId} />}
      {d !== null && d.trial.isolation === 'none' && (
        <div className="card warn" role="note">
          This agent ran without a sandbox (isolation none): it had your full rights, so nothing shows that it saw only its observations (docs/agents.md, Sandbox).
        </div>
      )}
      <SeriesCard trialId={trialId} go={go} />
      {progress !== null && progress.state === 'running' && (
        <div className="card">
          <ProgressBar done={progress.finished} total={progress.scheduled} label={`Trial ${trialId}`} />
          <div className="running-figures">
            <span>
              {progress.finished} of {progress.scheduled} episodes
            </span>
            <span>ETA {progress.finished === 0 ? '–' : duration(progress.etaMs)}</span>
            <span>running score {progress.runningScore === null ? '–' : points(progress.runningScore)}</span>
          </div>
          <TrialOfRun trial={progress.trial} usage={progress.usage} />
          <UsageCounter usage={progress.usage} />
        </div>
      )}
      {d === null ? (
        detail.error === null && <Busy label="Loading the trial…" />
      ) : (
        <>
          {report === null || report === undefined ? (
            <div className="card">
              <EmptyState title="No score report yet.">
                {d.trial.status === 'running'
                  ? 'The report is built when the last episode lands; follow the progress in Run.'
                  : d.trial.status === 'interrupted'
                    ? 'This trial stopped early: resume it in Run to finish and score it.'
                    : 'This trial has no applicable result to score.'}
              </EmptyState>
            </div>
          ) : (
            <>
              <Headline report={report} />
              <div className="grid2">
                <ComponentsCard report={report} />
                <FamiliesCard report={report} />
              </div>
              <div className="grid2">
                <TailAndZeroCard report={report} />
                <PeopleCard report={report} />
              </div>
            </>
          )}
          {d.operational !== null && (
            <div className="grid2">
              <OperationalCard record={d.operational} />
              {/* Efficiency needs a cost or tokens: a module or command agent's record has neither. */}
              {(d.operational.cost !== null || d.operational.input_tokens + d.operational.output_tokens > 0) && (
                <EfficiencyCard record={d.operational} report={report ?? null} />
              )}
            </div>
          )}
          {d.summaryText !== null && (
            <details className="card">
              <summary>Summary text (as `emberbench score` prints it)</summary>
              <pre className="summary" data-testid="summary-text">
                {d.summaryText}
              </pre>
            </details>
          )}
          <EpisodeTable trialId={trialId} families={report?.families.map((f) => f.family) ?? []} onOpen={(e) => go({ view: 'replay', trialId, index: e.index })} />
          <AnnotationsCard detail={d} />
          <RunLogCard log={d.log} durationMs={d.trial.durationMs} />
          <ExportPanel trialId={trialId} />
          <TrialReview trialId={trialId} official={d.trial.official} />
          <DeletePanel trial={d.trial} onDeleted={() => go({ view: 'trials' })} />
        </>
      )}
    </section>
  );
}
