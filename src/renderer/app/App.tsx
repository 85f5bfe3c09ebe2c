/** The workbench shell: navigation, the current view, keyboard shortcuts, and the remembered location. */

import { useCallback, useEffect } from 'react';
import { useQuery, useEvent } from './api-context.js';
import { Nav } from './Nav.js';
import { VIEWS, type Location, type ViewId } from './views.js';
import { loadLocation, replaceLocation, saveLocation, useHashLocation, useHistoryKeys } from './router.js';
import { NotFoundView } from '../views/not-found/NotFoundView.js';
import type { Navigate } from './navigate.js';
import { OverviewView } from '../views/overview/OverviewView.js';
import { SuitesView } from '../views/suites/SuitesView.js';
import { ManifestsView } from '../views/manifests/ManifestsView.js';
import { RunView } from '../views/run/RunView.js';
import { TrialsView } from '../views/trials/TrialsView.js';
import { TrialView } from '../views/trial/TrialView.js';
import { ReplayView } from '../views/replay/ReplayView.js';
import { CompareView } from '../views/compare/CompareView.js';
import { LeaderboardView } from '../views/leaderboard/LeaderboardView.js';
import { ModelsView } from '../views/models/ModelsView.js';
import { GenerateView } from '../views/generate/GenerateView.js';
import { SigningView } from '../views/signing/SigningView.js';
import { TRIAL_LISTS } from './archive-changes.js';

export function App() {
  const [location, move] = useHashLocation(loadLocation);
  const info = useQuery((api) => api['app.info']({}), 'info', []);
  const runs = useQuery((api) => api['runs.list']({}), 'runs', TRIAL_LISTS);
  useHistoryKeys(info.data?.mode === 'desktop');
  useEvent('run.progress', (p) => {
    if (p.state !== 'running') runs.refetch();
  });

  const go = useCallback<Navigate>((next) => move(next), [move]);
  // Remembered for a later start without an address; a place that names nothing is not worth returning to.
  useEffect(() => {
    if (location.view !== 'not-found') saveLocation(location);
  }, [location]);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (!event.altKey || event.ctrlKey || event.metaKey) return;
      const view = VIEWS.find((v) => v.key === event.key || `Digit${v.key}` === event.code);
      if (view === undefined) return;
      event.preventDefault();
      go({ view: view.id });
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go]);

  useEffect(() => {
    document.querySelector<HTMLElement>('main h1')?.focus();
    const label =
      location.view === 'trial'
        ? `Trial ${location.trialId}`
        : location.view === 'replay'
          ? `Trial ${location.trialId} episode ${location.index}`
          : location.view === 'not-found'
            ? 'Not found'
            : VIEWS.find((v) => v.id === location.view)?.label;
    document.title = label === undefined ? 'EMBER Workbench' : `${label} · EMBER Workbench`;
  }, [location.view, location.view === 'trial' || location.view === 'replay' ? location.trialId : 0, location.view === 'replay' ? location.index : 0]);

  const running = runs.data?.length ?? 0;
  return (
    <div className="shell">
      <Nav location={location} onGo={(view: ViewId) => go({ view })} running={running} />
      <main className="content">{renderView(location, go, info.data?.defaultJobs ?? null)}</main>
      <footer className="statusbar">
        {info.data === null ? (
          <span>{info.error === null ? 'Connecting…' : info.error.message}</span>
        ) : (
          <>
            <span>{info.data.mode === 'browser' ? 'Browser mode' : 'Desktop'}</span>
            <span title="The archive file every trial is stored in">Archive: {info.data.archivePath}</span>
            <span>
              {info.data.cores} cores · EMBER {info.data.version}
            </span>
          </>
        )}
      </footer>
    </div>
  );
}

function renderView(location: Location, go: Navigate, defaultJobs: number | null) {
  switch (location.view) {
    case 'overview':
      return <OverviewView go={go} />;
    case 'suites':
      return <SuitesView />;
    case 'manifests':
      return <ManifestsView go={go} />;
    case 'run':
      return <RunView go={go} defaultJobs={defaultJobs} />;
    case 'trials':
      return <TrialsView go={go} />;
    case 'trial':
      return <TrialView trialId={location.trialId} go={go} />;
    case 'replay':
      return (
        <ReplayView
          key={`${location.trialId}/${location.index}`}
          trialId={location.trialId}
          index={location.index}
          step={location.step ?? 0}
          onStep={(step) => replaceLocation({ view: 'replay', trialId: location.trialId, index: location.index, step })}
          go={go}
        />
      );
    case 'compare':
      return <CompareView key={`${location.a?.join(',') ?? ''}/${location.b?.join(',') ?? ''}`} chosen={location} go={go} />;
    case 'not-found':
      return <NotFoundView hash={location.hash} what="page" go={go} />;
    case 'leaderboard':
      return <LeaderboardView go={go} />;
    case 'generate':
      return <GenerateView go={go} />;
    case 'signing':
      return <SigningView />;
    case 'models':
      return <ModelsView key={location.model ?? ''} model={location.model} go={go} />;
  }
}
