/**
 * The replay frame-time probe of `npm run bench -- replay` (bench/replay.ts
 * bundles this file with esbuild; the app never imports it), run in headless
 * Chromium: the workbench's own replay code (authentication, decoding, the
 * pixi scene) on the served scenario and record, played at 4x for a fixed
 * number of animation frames. Reports every frame's draw time (moving the
 * people and submitting the render) and the interval between frames.
 */

import { loadEpisode } from './episode-data.js';
import { ReplayScene } from './scene.js';

interface Probe {
  people: number;
  steps: number;
  renderer: string;
  /** Parse, replay check and decode, once per episode. */
  loadMs: number;
  draw: number[];
  interval: number[];
  /** The frame interval of a bare WebGL canvas of the same size cleared every frame: what the browser itself allows here. */
  controlInterval: number[];
}

declare global {
  interface Window {
    emberReplayProbe: Promise<Probe>;
  }
}

/** Frame intervals of a canvas that is only cleared, for `ms` milliseconds: the machine's own limit. */
function controlIntervals(width: number, height: number, ms: number): Promise<number[]> {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  document.body.appendChild(canvas);
  const gl = canvas.getContext('webgl2')!;
  const out: number[] = [];
  return new Promise((resolve) => {
    let last = 0;
    let until = 0;
    const tick = (now: number) => {
      if (last > 0) out.push(now - last);
      else until = now + ms;
      last = now;
      gl.clearColor(Math.random(), 0.5, 0.5, 1);
      gl.clear(gl.COLOR_BUFFER_BIT);
      if (now < until || out.length < 5) requestAnimationFrame(tick);
      else {
        canvas.remove();
        resolve(out.slice(2));
      }
    };
    requestAnimationFrame(tick);
  });
}

async function probe(): Promise<Probe> {
  const [scenarioText, recordText] = await Promise.all([fetch('scenario.json').then((r) => r.text()), fetch('record.json').then((r) => r.text())]);
  const began = performance.now();
  const loaded = loadEpisode({ scenarioId: 'bench', scenarioText, recordText, evidence: null, failure: null });
  const loadMs = performance.now() - began;
  if (!loaded.ok) throw new Error(`${loaded.stage}: ${loaded.message}`);
  const params = new URLSearchParams(location.search);
  const controlInterval = await controlIntervals(Number(params.get('w') ?? '1280'), Number(params.get('h') ?? '800'), 5000);
  const scene = await ReplayScene.create(loaded.data, Number(params.get('w') ?? '1280'), Number(params.get('h') ?? '800'), params.get('aa') === '1');
  document.body.appendChild(scene.element);
  const frames = Number(params.get('frames') ?? '600');
  // A slow machine (software WebGL) stops after this long rather than after every frame.
  const budgetMs = Number(params.get('budget') ?? '15000');
  const until = performance.now() + budgetMs;
  const draw: number[] = [];
  const interval: number[] = [];
  const steps = loaded.data.frames.steps;
  return new Promise((resolve) => {
    let t = 0;
    let last = 0;
    let n = 0;
    const tick = (now: number) => {
      if (n > 0) interval.push(now - last);
      last = now;
      // 4x speed at 60 frames per second: 16 snapshots per second, wrapping at the end.
      t = (t + 16 / 60) % steps;
      scene.draw(t);
      if (n >= 10) draw.push(scene.lastDrawMs);
      n += 1;
      if (n < frames + 10 && (n < 20 || now < until)) requestAnimationFrame(tick);
      else resolve({ people: loaded.data.frames.people, steps, renderer: 'webgl', loadMs, draw, interval: interval.slice(10), controlInterval });
    };
    requestAnimationFrame(tick);
  });
}

window.emberReplayProbe = probe();
