/**
 * Mounts one ReplayScene in a box, redraws it whenever the clock moves, and
 * turns the pointer into zoom (wheel), pan (drag) and picking (click). The
 * scene is created once per episode; React never re-renders per frame.
 */

import { useEffect, useRef, useState } from 'react';
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
  /** Receives the scene once it exists (PNG export, the bench), and null when it goes. */
  readonly onScene?: (scene: ReplayScene | null) => void;
  readonly height?: number;
  readonly label: string;
}

export function ReplayCanvas({ data, clock, options, selected, follow, onPick, onScene, height = 520, label }: ReplayCanvasProps) {
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
        made.element.setAttribute('aria-label', label);
        made.element.setAttribute('role', 'img');
        made.element.dataset.testid = 'replay-canvas';
        host.appendChild(made.element);
        observer.observe(host);
        made.selected = view.current.selected;
        made.follow = view.current.follow;
        made.setOptions(view.current.options);
        made.draw(clock.time);
        unsubscribe = clock.subscribe((c) => made.draw(c.time));
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

  const drag = useRef<{ x: number; y: number; moved: boolean } | null>(null);
  return (
    <div
      className="replay-canvas"
      ref={box}
      style={{ height }}
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
