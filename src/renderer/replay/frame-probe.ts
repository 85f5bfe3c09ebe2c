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
  draw: number[];
  interval: number[];
}

declare global {
  interface Window {
    emberReplayProbe: Promise<Probe>;
  }
}

async function probe(): Promise<Probe> {
  const [scenarioText, recordText] = await Promise.all([fetch('scenario.json').then((r) => r.text()), fetch('record.json').then((r) => r.text())]);
  const loaded = loadEpisode({ scenarioId: 'bench', scenarioText, recordText, evidence: null, failure: null });
  if (!loaded.ok) throw new Error(`${loaded.stage}: ${loaded.message}`);
  const params = new URLSearchParams(location.search);
  const scene = await ReplayScene.create(loaded.data, Number(params.get('w') ?? '1280'), Number(params.get('h') ?? '800'), params.get('aa') !== '0');
  document.body.appendChild(scene.canvas);
  const frames = Number(new URLSearchParams(location.search).get('frames') ?? '600');
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
      if (n < frames + 10) requestAnimationFrame(tick);
      else resolve({ people: loaded.data.frames.people, steps, renderer: 'webgl', draw, interval: interval.slice(10) });
    };
    requestAnimationFrame(tick);
  });
}

window.emberReplayProbe = probe();
