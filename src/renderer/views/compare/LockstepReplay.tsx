/**
 * The same episode of two trials side by side, driven by ONE clock: one
 * scrubber, one play button, one speed. Each record is authenticated on its
 * own; a side that fails is shown failing and the other still plays.
 */

import { useEffect, useMemo, useRef } from 'react';
import { useQuery } from '../../app/api-context.js';
import { ErrorMessage } from '../../components/ErrorMessage.js';
import { Busy } from '../../components/ProgressBar.js';
import { PlaybackClock } from '../../replay/clock.js';
import { ReplayControls, useReplayKeys } from '../../replay/ReplayControls.js';
import { ReplayStage } from '../../replay/ReplayStage.js';
import { downloadPng, FailedReplay, useLoadedEpisode } from '../replay/ReplayView.js';
import type { ReplayScene } from '../../replay/scene.js';

export function LockstepReplay({ trialA, trialB, index }: { trialA: number; trialB: number; index: number }) {
  const qa = useQuery((a) => a['episodes.replay']({ trialId: trialA, index }), `${trialA}/${index}`, [{ trialId: trialA }]);
  const qb = useQuery((a) => a['episodes.replay']({ trialId: trialB, index }), `${trialB}/${index}`, [{ trialId: trialB }]);
  const la = useLoadedEpisode(qa.data);
  const lb = useLoadedEpisode(qb.data);
  const clock = useMemo(() => new PlaybackClock(0), []);
  const max = Math.max(la?.ok === true ? la.data.frames.steps : 0, lb?.ok === true ? lb.data.frames.steps : 0);
  useEffect(() => clock.setMax(max), [clock, max]);
  useEffect(() => () => clock.dispose(), [clock]);
  useReplayKeys(clock);
  const scenes = useRef<(ReplayScene | null)[]>([null, null]);
  const sides = [
    { q: qa, l: la, trial: trialA, side: 'A' },
    { q: qb, l: lb, trial: trialB, side: 'B' },
  ] as const;
  return (
    <div className="card" data-testid="lockstep">
      <h2>
        Episode {index} side by side{qa.data !== null ? ` · ${qa.data.scenarioId}` : ''}
      </h2>
      <ReplayControls clock={clock} label="Lockstep" />
      <div className="side-by-side">
        {sides.map(({ q, l, trial, side }, k) => (
          <div key={side} data-side={side}>
            <h3>
              {side}: {q.data?.modelId ?? `trial ${trial}`} <span className="muted small">(trial {trial})</span>
            </h3>
            <ErrorMessage error={q.error} />
            {l === null ? (
              q.error === null && <Busy label="Loading…" />
            ) : !l.ok ? (
              <FailedReplay loaded={l} />
            ) : (
              <>
                <ReplayStage data={l.data} clock={clock} label={`${side}`} height={380} onScene={(s) => (scenes.current[k] = s)} />
                <button type="button" className="small" onClick={() => downloadPng(scenes.current[k] ?? null, `trial-${trial}-episode-${index}-step-${clock.step}.png`)}>
                  Save PNG of {side} at this step
                </button>
              </>
            )}
          </div>
        ))}
      </div>
    </div>
  );
}
