/**
 * Mounts one ReplayScene in a box, redraws it whenever the clock moves, and
 * turns the pointer into zoom (wheel), pan (drag) and picking (click). The
 * box is one tab stop and does the same from the keyboard (MAP_KEYS). The
 * scene is created once per episode; React never re-renders per frame.
 */

import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { nextPersonOnMap } from '../a11y/replay-step-text.js';
import type { PlaybackClock } from './clock.js';
import type { EpisodeData } from './episode-data.js';
import { ReplayScene, type SceneOptions } from './scene.js';

export interface ReplayCanvasProps {
  readonly data: EpisodeData;
  readonly clock: PlaybackClock;
  readonly options: SceneOptions;
  readonly selected: number | null;
  readonly follow: boolean;
  readonly onPick: (person: number | null) => void;
  /** Follow the chosen person on or off (the F key). */
  readonly onFollow?: (on: boolean) => void;
  /** The id of the element holding the text alternative of the step shown. */
  readonly describedBy?: string;
  /** Receives the scene once it exists (PNG export, the bench), and null when it goes. */
  readonly onScene?: (scene: ReplayScene | null) => void;
  readonly height?: number;
  readonly label: string;
}

/** The map's own keys, said in its description and in docs/app.md. */
export const MAP_KEYS = '+ and − zoom, Shift with the arrows pans, 0 fits the map, N and P choose the next or previous person, F follows them, Escape lets go; Space, ← → and Home End drive the replay.';

const PAN_PIXELS = 48;
const ZOOM_STEP = 1.25;

export function ReplayCanvas({ data, clock, options, selected, follow, onPick, onFollow, onScene, height = 520, label, describedBy }: ReplayCanvasProps) {
  const box = useRef<HTMLDivElement>(null);
  const sceneRef = useRef<ReplayScene | null>(null);
  const [error, setError] = useState<string | null>(null);
  const onSceneRef = useRef(onScene);
  onSceneRef.current = onScene;
  const view = useRef({ options, selected, follow });
  view.current = { options, selected, follow };

  useEffect(() => {
    const host = box.current!;
    let scene: ReplayScene | null = null;
    let gone = false;
    let unsubscribe = () => {};
    const observer = new ResizeObserver(() => scene?.resize(host.clientWidth, height));
    ReplayScene.create(data, Math.max(200, host.clientWidth), height).then(
      (made) => {
        if (gone) {
          made.destroy();
          return;
        }
        scene = made;
        sceneRef.current = made;
        // The focusable box around it carries the name and the text alternative.
        made.element.setAttribute('aria-hidden', 'true');
        made.element.dataset.testid = 'replay-canvas';
        host.appendChild(made.element);
        // Every change of the view, from this box's keys and pointer or from outside (Fit map), is marked on the box.
        made.onView = markView;
        observer.observe(host);
        made.selected = view.current.selected;
        made.follow = view.current.follow;
        made.setOptions(view.current.options);
        made.draw(clock.time);
        unsubscribe = clock.subscribe((c) => made.draw(c.time));
        markView();
        onSceneRef.current?.(made);
      },
      (e: unknown) => setError(`WebGL is not available here, so the replay cannot be drawn: ${e instanceof Error ? e.message : String(e)}`),
    );
    return () => {
      gone = true;
      unsubscribe();
      observer.disconnect();
      onSceneRef.current?.(null);
      sceneRef.current = null;
      scene?.destroy();
    };
  }, [data, clock, height, label]);

  useEffect(() => {
    const scene = sceneRef.current;
    if (scene === null) return;
    scene.selected = selected;
    scene.follow = follow;
    scene.setOptions(options);
  }, [options, selected, follow]);

  // Wheel zoom needs a non-passive listener (React's onWheel is passive).
  useEffect(() => {
    const host = box.current!;
    const onWheel = (e: WheelEvent) => {
      const scene = sceneRef.current;
      if (scene === null) return;
      e.preventDefault();
      const rect = host.getBoundingClientRect();
      scene.zoomAt(e.clientX - rect.left, e.clientY - rect.top, Math.exp(-e.deltaY * 0.0015));
    };
    host.addEventListener('wheel', onWheel, { passive: false });
    return () => host.removeEventListener('wheel', onWheel);
  }, []);

  /** The zoom and pan on the box (data-zoom, data-pan-x/y, data-fitted): what a test, or a bug report, can read. */
  function markView(): void {
    const scene = sceneRef.current;
    const host = box.current;
    if (scene === null || host === null) return;
    const v = scene.view;
    host.dataset.zoom = v.scale.toFixed(4);
    host.dataset.panX = v.x.toFixed(1);
    host.dataset.panY = v.y.toFixed(1);
    host.dataset.fitted = String(v.fitted);
  }

  function onKeyDown(e: KeyboardEvent) {
    const scene = sceneRef.current;
    if (scene === null || e.altKey || e.ctrlKey || e.metaKey) return;
    const { width, height: h } = scene.size;
    const pan: Record<string, [number, number]> = { ArrowLeft: [PAN_PIXELS, 0], ArrowRight: [-PAN_PIXELS, 0], ArrowUp: [0, PAN_PIXELS], ArrowDown: [0, -PAN_PIXELS] };
    const move = pan[e.key];
    if (move !== undefined) {
      // Plain arrows step the replay (useReplayKeys); with Shift they move the map.
      if (!e.shiftKey) return;
      scene.panBy(move[0], move[1]);
    } else if (e.key === '+' || e.key === '=') scene.zoomAt(width / 2, h / 2, ZOOM_STEP);
    else if (e.key === '-' || e.key === '_') scene.zoomAt(width / 2, h / 2, 1 / ZOOM_STEP);
    else if (e.key === '0') scene.fit();
    else if (e.key === 'n' || e.key === 'N' || e.key === 'p' || e.key === 'P') {
      const next = nextPersonOnMap(data.frames, clock.step, selected, e.key.toLowerCase() === 'n' ? 1 : -1);
      if (next !== null) onPick(next);
    } else if ((e.key === 'f' || e.key === 'F') && selected !== null) onFollow?.(!follow);
    else if (e.key === 'Escape' && selected !== null) onPick(null);
    else return;
    e.preventDefault();
    // Following a person moves the map in draw(), which does not report it: mark the view here too.
    markView();
  }

  const drag = useRef<{ x: number; y: number; moved: boolean } | null>(null);
  return (
    <div
      className="replay-canvas"
      ref={box}
      style={{ height }}
      data-testid="replay-map"
      tabIndex={0}
      role="application"
      aria-roledescription="replay map"
      aria-label={`${label}. Keys: ${MAP_KEYS}`}
      aria-describedby={describedBy}
      onKeyDown={onKeyDown}
      onPointerDown={(e) => {
        drag.current = { x: e.clientX, y: e.clientY, moved: false };
        (e.target as Element).setPointerCapture?.(e.pointerId);
      }}
      onPointerMove={(e) => {
        const d = drag.current;
        if (d === null) return;
        const dx = e.clientX - d.x;
        const dy = e.clientY - d.y;
        if (!d.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
        d.moved = true;
        d.x = e.clientX;
        d.y = e.clientY;
        sceneRef.current?.panBy(dx, dy);
      }}
      onPointerUp={(e) => {
        const d = drag.current;
        drag.current = null;
        if (d === null || d.moved || sceneRef.current === null) return;
        const rect = box.current!.getBoundingClientRect();
        onPick(sceneRef.current.pick(e.clientX - rect.left, e.clientY - rect.top));
      }}
    >
      {error !== null && (
        <p role="alert" className="replay-error">
          {error}
        </p>
      )}
    </div>
  );
}
