/**
 * The Replay view: one archived episode, fetched with episodes.replay,
 * authenticated by the core replay in this renderer (in a Web Worker:
 * episode-loader.ts), then animated. A record that fails is shown with the
 * failing step or field and never drawn.
 */

import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '../../app/api-context.js';
import type { Navigate } from '../../app/navigate.js';
import { ErrorMessage } from '../../components/ErrorMessage.js';
import { CopyLink } from '../../components/CopyLink.js';
import { NotFoundView } from '../not-found/NotFoundView.js';
import { Busy } from '../../components/ProgressBar.js';
import { PlaybackClock } from '../../replay/clock.js';
import type { EpisodeSource, LoadedEpisode } from '../../replay/episode-data.js';
import { loadEpisodeOffPage } from '../../replay/episode-loader.js';
import { ReplayControls, useReplayKeys } from '../../replay/ReplayControls.js';
import { ReplayStage } from '../../replay/ReplayStage.js';
import { ReplayTranscript } from '../../replay/ReplayTranscript.js';
import type { ReplayScene } from '../../replay/scene.js';
import '../../replay/replay.css';

/** A PNG of the replay as drawn now, downloaded through a link (no server involved). */
export function downloadPng(scene: ReplayScene | null, name: string): void {
  if (scene === null) return;
  const a = document.createElement('a');
  a.href = scene.toPng();
  a.download = name;
  a.click();
}

export function FailedReplay({ loaded }: { loaded: Extract<LoadedEpisode, { ok: false }> }) {
  const what = loaded.stage === 'missing' ? 'This episode has no run record to replay.' : loaded.stage === 'scenario' ? 'The scenario does not parse.' : loaded.stage === 'record' ? 'The run record is malformed.' : 'The run record fails the replay check: it is not what the simulator does, so it is not animated.';
  return (
    <div className="card replay-failed" role="alert" data-testid="replay-failed">
      <h2>{what}</h2>
      <pre>{loaded.message}</pre>
    </div>
  );
}

/** The episode's authenticated data, or null while it loads (off the page's thread); one per episode. */
export function useLoadedEpisode(replay: EpisodeSource | null): LoadedEpisode | null {
  // Keyed by content, not identity: a refetch after an unrelated archive change returns equal texts,
  // and must not authenticate again nor restart the animation.
  const evidence = replay === null ? '' : JSON.stringify(replay.evidence);
  const ref = useRef(replay);
  ref.current = replay;
  const [loaded, setLoaded] = useState<LoadedEpisode | null>(null);
  useEffect(() => {
    setLoaded(null);
    const source = ref.current;
    if (source === null) return;
    let current = true;
    void loadEpisodeOffPage(source).then((value) => {
      if (current) setLoaded(value);
    });
    return () => {
      current = false;
    };
  }, [replay === null, replay?.scenarioText, replay?.recordText, replay?.failure?.message, evidence]);
  return loaded;
}

/**
 * `step` is where the address says to start (router.ts); `onStep` hears the
 * step once the playback rests on it, so that the address (and Copy link)
 * names the step on screen.
 */
/** Reports the step a paused playback rests on (not every frame while it plays: the address is replaced, not spammed). */
function useStepInAddress(clock: PlaybackClock, ready: boolean, onStep: (step: number) => void): void {
  const ref = useRef(onStep);
  ref.current = onStep;
  useEffect(() => {
    if (!ready) return;
    let last = -1;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = clock.subscribe((c) => {
      if (c.playing || c.step === last) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        last = c.step;
        ref.current(c.step);
      }, 150);
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [clock, ready]);
}

export function ReplayView({ trialId, index, step, onStep, go }: { trialId: number; index: number; step: number; onStep: (step: number) => void; go: Navigate }) {
  const q = useQuery((a) => a['episodes.replay']({ trialId, index }), `${trialId}/${index}`, [{ trialId }]);
  const loaded = useLoadedEpisode(q.data);
  const steps = loaded?.ok === true ? loaded.data.frames.steps : 0;
  const clock = useMemo(() => new PlaybackClock(0), []);
  useEffect(() => {
    clock.setMax(steps);
    // Once the episode is known: the step the address names (clamped by the clock to the episode's length).
    if (steps > 0 && step > 0) clock.seek(step);
  }, [clock, steps]);
  useStepInAddress(clock, steps > 0, onStep);
  useEffect(() => () => clock.dispose(), [clock]);
  useReplayKeys(clock);
  const scene = useRef<ReplayScene | null>(null);
  const [ready, setReady] = useState(false);
  const r = q.data;
  if (r === null && q.error?.kind === 'not_found' && q.error.field === 'trialId') return <NotFoundView hash={window.location.hash} what="trial" go={go} />;
  return (
    <section className="view replay-view">
      <header className="view-header">
        <button type="button" className="link back" onClick={() => go({ view: 'trial', trialId })}>
          ← Trial {trialId}
        </button>
        <h1 tabIndex={-1}>
          Replay: episode {index}
          {r !== null ? ` · ${r.scenarioId}` : ''}
        </h1>
        <CopyLink />
        {r !== null && (
          <p>
            {r.modelId} · trial {trialId} {loaded?.ok === true ? `· ${loaded.data.title} · authenticated by replay (record ${loaded.data.frames.people} people, ${steps} steps, ${loaded.data.terminationReason})` : ''}
          </p>
        )}
      </header>
      <ErrorMessage error={q.error} />
      {loaded === null ? (
        q.error === null && <Busy label="Loading and authenticating the episode…" />
      ) : !loaded.ok ? (
        <FailedReplay loaded={loaded} />
      ) : (
        <div className="card">
          <ReplayControls clock={clock} />
          <ReplayStage
            data={loaded.data}
            clock={clock}
            label={`Episode ${index}`}
            onScene={(s) => {
              scene.current = s;
              setReady(s !== null);
            }}
          />
          <div className="form-actions">
            <button type="button" disabled={!ready} onClick={() => downloadPng(scene.current, `trial-${trialId}-episode-${index}-step-${clock.step}.png`)}>
              Save PNG of this step
            </button>
            <span className="muted small">Space plays or pauses; ← → step; Home and End jump (wherever the focus is, but in a text field). On the focused map: + − zoom, Shift+arrows pan, 0 fits, N / P choose a person, F follows them.</span>
          </div>
        </div>
      )}
      {loaded !== null && <ReplayTranscript trialId={trialId} index={index} clock={clock} />}
    </section>
  );
}
