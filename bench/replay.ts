/**
 * Frame time of the workbench replay with 5,000 people, in headless Debian
 * Chromium (WebGL through SwiftShader when there is no GPU): a generated
 * 96 x 128 hall with 5,000 people and a central fire, one episode simulated
 * with a builtin baseline, then the renderer's own replay code (bundled with
 * esbuild from src/renderer/replay/frame-probe.ts) authenticates, decodes and plays it at
 * 4x. Figures: the median and 95th percentile of the per-frame draw time
 * (people moved plus the render submitted) and of the interval between
 * animation frames (60 fps = 16.7 ms).
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumMissing, CHROMIUM_PATH } from '../e2e/browser.js';
import { baselineFactory } from '../src/core/baselines/registry.js';
import { recordText } from '../src/core/sim/record.js';
import { runEpisode } from '../src/core/sim/episode.js';
import { prepareEpisode } from '../src/core/world/episode-start.js';
import { parseScenarioText } from '../src/core/world/scenario.js';
import { ROOT, type Figure } from './harness.js';

export const REPLAY_PEOPLE = 5000;
const ROWS = 96;
const COLS = 128;

/** A walled hall with eight exits, 5,000 people spread over it, and a fire lit in the middle. */
export function crowdScenarioText(people = REPLAY_PEOPLE): string {
  const map: string[] = [];
  const exitCols = new Set([20, 64, 108]);
  const exitRows = new Set([30, 66]);
  for (let r = 0; r < ROWS; r++) {
    let row = '';
    for (let c = 0; c < COLS; c++) {
      const edgeRow = r === 0 || r === ROWS - 1;
      const edgeCol = c === 0 || c === COLS - 1;
      if (edgeRow && !edgeCol) row += exitCols.has(c) ? 'E' : '#';
      else if (edgeCol && !edgeRow) row += exitRows.has(r) ? 'E' : '#';
      else if (edgeRow || edgeCol) row += '#';
      else row += '.';
    }
    map.push(row);
  }
  const scenario = {
    schema_version: '1.0',
    scenario_id: 'bench-replay-crowd',
    title: `Bench hall with ${people} people`,
    families: ['large_hall_crowd'],
    map,
    people: [{ zone: [2, 2, ROWS - 3, COLS - 3], count: people }],
    fire: { ignitions: [{ cell: [48, 64], step: 0 }], spread_probability: '0.15' },
    max_steps: 400,
    development_seed: '0',
  };
  return JSON.stringify(scenario, null, 2) + '\n';
}

interface Probe {
  readonly people: number;
  readonly steps: number;
  readonly renderer: string;
  readonly loadMs: number;
  readonly draw: number[];
  readonly interval: number[];
  readonly controlInterval: number[];
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export async function benchReplay(): Promise<Figure[]> {
  const missing = chromiumMissing();
  if (missing !== null) {
    console.log(`  replay frame time skipped: ${missing}`);
    return [];
  }
  const scenarioText = crowdScenarioText();
  const scenario = parseScenarioText(scenarioText, 'bench-replay-crowd.json');
  const run = await runEpisode(prepareEpisode(scenario, '0'), await baselineFactory('static-shortest-path-v1')!());
  const record = recordText(run.record);

  const dir = mkdtempSync(join(tmpdir(), 'ember-bench-replay-'));
  try {
    await build({ entryPoints: [join(ROOT, 'src/renderer/replay/frame-probe.ts')], bundle: true, format: 'esm', outfile: join(dir, 'main.js'), logLevel: 'error', target: 'es2022' });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><body style="margin:0"><script type="module" src="main.js"></script>');
    const files: Record<string, [string, string]> = {
      '/': [join(dir, 'index.html'), 'text/html'],
      '/main.js': [join(dir, 'main.js'), 'text/javascript'],
    };
    const server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/scenario.json' || path === '/record.json') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(path === '/scenario.json' ? scenarioText : record);
        return;
      }
      const file = files[path];
      if (file === undefined) res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': file[1] }).end(readFileSync(file[0]));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`http://127.0.0.1:${port}/?frames=${process.env.EMBER_REPLAY_FRAMES ?? 600}&aa=${process.env.EMBER_REPLAY_AA ?? 0}&w=${process.env.EMBER_REPLAY_W ?? 1280}&h=${process.env.EMBER_REPLAY_H ?? 800}`);
      const probe = await page.evaluate(() => (globalThis as unknown as { emberReplayProbe: Promise<Probe> }).emberReplayProbe);
      const label = `replay, ${probe.people.toLocaleString('en-US')} people, ${probe.steps} steps (headless Chromium, ${probe.renderer})`;
      return [
        { name: `${label}: frames measured (at most 600, or 15 s of them)`, value: probe.draw.length, unit: '' },
        { name: 'load average of the machine (1 min) after the replay run', value: loadavg()[0]!, unit: '' },
        { name: `${label}: authenticate (replay check) and decode, once`, value: probe.loadMs, unit: 'ms' },
        { name: `${label}: draw time per frame, median`, value: quantile(probe.draw, 0.5), unit: 'ms' },
        { name: `${label}: draw time per frame, 95th percentile`, value: quantile(probe.draw, 0.95), unit: 'ms', goal: '<= 16.7 ms (60 fps)', ok: quantile(probe.draw, 0.95) <= 16.7 },
        { name: `${label}: frame interval, median`, value: quantile(probe.interval, 0.5), unit: 'ms', goal: '<= 16.7 ms (60 fps)', ok: quantile(probe.interval, 0.5) <= 17.5 },
        { name: `${label}: frame interval, 95th percentile`, value: quantile(probe.interval, 0.95), unit: 'ms' },
        // The control: a bare WebGL canvas of the same size, only cleared. When it is slow too, the
        // browser's compositing (software WebGL, a busy CPU) is the limit, not the replay.
        { name: 'control: bare WebGL canvas of the same size, cleared each frame: frame interval, median', value: quantile(probe.controlInterval, 0.5), unit: 'ms' },
      ];
    } finally {
      await browser.close();
      server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
