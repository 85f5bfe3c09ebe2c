/**
 * The transport of a replay (or of two in lockstep: one clock, one set of
 * controls): jump to start, step back, play/pause, step forward, jump to
 * end, the scrubber, the speed, and the step clock. Re-renders only when
 * the whole step or the play state changes, not on every frame.
 */

import { useEffect, useState, useSyncExternalStore } from 'react';
import { SPEEDS, type PlaybackClock } from './clock.js';

/** The clock's whole step and play state, as React state (changes a few times a second at most per step). */
export function useClockStep(clock: PlaybackClock): { step: number; playing: boolean; speed: number } {
  const [state, setState] = useState({ step: clock.step, playing: clock.playing, speed: clock.speed });
  useEffect(() => {
    setState({ step: clock.step, playing: clock.playing, speed: clock.speed });
    return clock.subscribe((c) => {
      setState((s) => (s.step === c.step && s.playing === c.playing && s.speed === c.speed ? s : { step: c.step, playing: c.playing, speed: c.speed }));
    });
  }, [clock]);
  return state;
}

export function ReplayControls({ clock, label = 'Replay' }: { clock: PlaybackClock; label?: string }) {
  const { step, playing, speed } = useClockStep(clock);
  // The max only changes with the episode; read it through an external store so a lockstep max change shows.
  const max = useSyncExternalStore(
    (notify) => clock.subscribe(notify),
    () => clock.max,
  );
  return (
    <div className="replay-controls" role="group" aria-label={`${label} controls`}>
      <button type="button" onClick={() => clock.stepBy(-clock.max)} title="Jump to the start (Home)" aria-label="Jump to start">
        Start
      </button>
      <button type="button" onClick={() => clock.stepBy(-1)} title="One step back (←)" aria-label="Step back">
        ‹ 1
      </button>
      <button type="button" className="play" onClick={() => clock.toggle()} aria-label={playing ? 'Pause' : 'Play'} title="Play or pause (Space)">
        {playing ? '❚❚ Pause' : '▶ Play'}
      </button>
      <button type="button" onClick={() => clock.stepBy(1)} title="One step forward (→)" aria-label="Step forward">
        1 ›
      </button>
      <button type="button" onClick={() => clock.stepBy(clock.max)} title="Jump to the end (End)" aria-label="Jump to end">
        End
      </button>
      <input
        type="range"
        min={0}
        max={max}
        step={1}
        value={step}
        aria-label={`${label} step`}
        data-testid="replay-scrubber"
        onChange={(e) => {
          clock.pause();
          clock.seek(Number(e.target.value));
        }}
      />
      <span className="replay-clock" data-testid="replay-clock">
        step {step} / {max}
      </span>
      <label className="replay-speed">
        Speed
        <select value={speed} onChange={(e) => clock.setSpeed(Number(e.target.value))} aria-label="Speed">
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              {s}×
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

/** Space, arrows, Home and End drive the clock while focus is not in a form field. */
export function useReplayKeys(clock: PlaybackClock): void {
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      const target = e.target as HTMLElement | null;
      if (target !== null && /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(target.tagName)) return;
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const act: Record<string, () => void> = {
        ' ': () => clock.toggle(),
        ArrowLeft: () => clock.stepBy(-1),
        ArrowRight: () => clock.stepBy(1),
        Home: () => clock.stepBy(-clock.max),
        End: () => clock.stepBy(clock.max),
      };
      const fn = act[e.key];
      if (fn === undefined) return;
      e.preventDefault();
      fn();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [clock]);
}
