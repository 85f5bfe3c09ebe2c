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
      {/* Names begin with what the buttons show (WCAG 2.5.3); the hidden words say what a bare "‹ 1" means. */}
      <button type="button" onClick={() => clock.stepBy(-clock.max)} title="Jump to the start (Home)">
        Start
      </button>
      <button type="button" onClick={() => clock.stepBy(-1)} title="One step back (←)">
        ‹ 1<span className="visually-hidden"> step back</span>
      </button>
      <button type="button" className="play" onClick={() => clock.toggle()} aria-label={playing ? 'Pause' : 'Play'} title="Play or pause (Space)">
        {playing ? '❚❚ Pause' : '▶ Play'}
      </button>
      <button type="button" onClick={() => clock.stepBy(1)} title="One step forward (→)">
        1 ›<span className="visually-hidden"> step forward</span>
      </button>
      <button type="button" onClick={() => clock.stepBy(clock.max)} title="Jump to the end (End)">
        End
      </button>
      <input
        type="range"
        min={0}
        max={max}
        step={1}
        value={step}
        aria-label={`${label} step`}
        aria-valuetext={`step ${step} of ${max}`}
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

/** Input types whose own keys (typing, caret, arrows) must never move the replay. */
const TEXT_INPUTS = /^(text|search|number|password|email|url|tel|date|time|datetime-local|month|week|range|color|file)$/;

/** True when the focused element uses `key` itself: a text field, a list box or slider, or Space on something Space presses. */
export function keyBelongsToFocus(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return TEXT_INPUTS.test(target.type) || key === ' ';
  return key === ' ' && (target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement || target.tagName === 'SUMMARY' || target.getAttribute('role') === 'button');
}

/**
 * Space, ← →, Home and End drive the clock wherever the focus is, except in
 * a text field, a select or the slider (their own keys), Space on a button
 * or checkbox (it presses it), and a key something focused already used
 * (the map's, a table's).
 */
export function useReplayKeys(clock: PlaybackClock): void {
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.defaultPrevented || keyBelongsToFocus(e.target, e.key)) return;
      if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
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
