/** Project overview: what is in the archive, what is running, and what a quit left unfinished. */

import { useApi, useAction, useQuery } from '../../app/api-context.js';
import type { Navigate } from '../../app/navigate.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorMessage } from '../../components/ErrorMessage.js';
import { Busy } from '../../components/ProgressBar.js';
import { RunningCard } from '../../components/RunningCard.js';
import { count, dateTime, shortHash } from '../../components/format.js';
import { TrialScore } from '../../components/TrialScore.js';
import { EVERYTHING } from '../../app/archive-changes.js';

export function OverviewView({ go }: { go: Navigate }) {
  const api = useApi();
  const overview = useQuery((a) => a.overview({}), 'overview', EVERYTHING);
  const resume = useAction<{ trialId: number }>();
  const o = overview.data;

  return (
    <section className="view">
      <header className="view-header">
        <h1 tabIndex={-1}>Project</h1>
        <p>Everything in this archive: suites, manifests, packs, models and trials.</p>
      </header>
      <ErrorMessage error={overview.error} />
      {o === null ? (
        overview.error === null && <Busy label="Loading the archive…" />
      ) : (
        <>
          <div className="stats">
            <Stat label="Suites" value={o.suites.length} />
            <Stat label="Manifests" value={o.manifests.length} />
            <Stat label="Packs" value={o.packs.length} />
            <Stat label="Models" value={o.models.length} />
          </div>

          {o.running.length > 0 && (
            <div className="card">
              <h2>Running</h2>
              {o.running.map((r) => (
                <RunningCard key={r.trialId} run={r} onOpen={() => go({ view: 'run' })} />
              ))}
            </div>
          )}

          {o.interrupted.length > 0 && (
            <div className="card warn">
              <h2>Interrupted trials</h2>
              <p className="muted">A quit, a crash or a cancel stopped these before their last episode. Resume runs only the episodes still missing, with the same agent.</p>
              <ErrorMessage error={resume.error} onDismiss={resume.clear} />
              <table className="table">
                <tbody>
                  {o.interrupted.map((t) => (
                    <tr key={t.trialId}>
                      <td>{t.modelId}</td>
                      <td>{t.agentLabel}</td>
                      <td className="num">
                        {t.episodesCompleted + t.episodesFailed} of {t.episodesScheduled} episodes
                      </td>
                      <td className="actions">
                        <button type="button" disabled={resume.busy} onClick={() => void resume.run(() => api['runs.resume']({ trialId: t.trialId })).then((r) => r && go({ view: 'run' }))}>
                          Resume
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}

          <div className="card">
            <div className="card-head">
              <h2>Recent trials</h2>
              <button type="button" className="link" onClick={() => go({ view: 'trials' })}>
                All trials →
              </button>
            </div>
            {o.recentTrials.length === 0 ? (
              <EmptyState title="No trials yet.">
                Create a manifest in <button type="button" className="link" onClick={() => go({ view: 'manifests' })}>Manifests</button>, then start an
                evaluation in <button type="button" className="link" onClick={() => go({ view: 'run' })}>Run</button> — or import a result made with the CLI in{' '}
                <button type="button" className="link" onClick={() => go({ view: 'trials' })}>Trials</button>.
              </EmptyState>
            ) : (
              <table className="table">
                <thead>
                  <tr>
                    <th>Model</th>
                    <th>Suite</th>
                    <th className="num">Score</th>
                    <th>Status</th>
                    <th>Date</th>
                  </tr>
                </thead>
                <tbody>
                  {o.recentTrials.map((t) => (
                    <tr key={t.trialId} className="clickable" tabIndex={0} onClick={() => go({ view: 'trial', trialId: t.trialId })} onKeyDown={(e) => e.key === 'Enter' && go({ view: 'trial', trialId: t.trialId })}>
                      <td>{t.modelId}</td>
                      <td>{t.suiteId}</td>
                      <td className="num">
                        <TrialScore trial={t} />
                      </td>
                      <td>
                        <span className={`pill ${t.status}`}>{t.status}</span>
                      </td>
                      <td>{dateTime(t.created)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>

          <div className="grid2">
            <div className="card">
              <h2>Suites</h2>
              {o.suites.length === 0 ? (
                <EmptyState title="No suite.">Add a suite folder in Suites and packs.</EmptyState>
              ) : (
                <ul className="plain">
                  {o.suites.map((s) => (
                    <li key={s.suiteHash}>
                      <strong>{s.suiteId}</strong> <span className="muted">v{s.suiteVersion} · {count(s.scenarioCount, 'scenario')} · {s.source}</span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
            <div className="card">
              <h2>Manifests and packs</h2>
              {o.manifests.length === 0 ? (
                <EmptyState title="No manifest.">Create one from a suite and seeds in Manifests.</EmptyState>
              ) : (
                <ul className="plain">
                  {o.manifests.map((m) => (
                    <li key={m.manifestHash}>
                      <code>{shortHash(m.manifestHash)}</code> <span className="muted">{m.suiteId} · {count(m.episodeCount, 'episode')} · {count(m.seedCount, 'seed')}</span>
                      {o.packs
                        .filter((p) => p.manifestHash === m.manifestHash)
                        .map((p) => (
                          <span key={p.packDigest} className="pill official">pack {p.packId}</span>
                        ))}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </div>

          <div className="card">
            <h2>Models</h2>
            {o.models.length === 0 ? <EmptyState title="No model evaluated yet." /> : <p>{o.models.join(' · ')}</p>}
          </div>
        </>
      )}
    </section>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="stat">
      <div className="stat-value">{value.toLocaleString()}</div>
      <div className="stat-label">{label}</div>
    </div>
  );
}
