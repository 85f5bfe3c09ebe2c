/**
 * `npm run bench`: speed and memory figures, printed. Goals are reported as
 * met or MISSED; they are measurements, never test assertions. Run it on an
 * otherwise idle machine: the figures are wall times.
 *
 *   npm run bench               every section
 *   npm run bench -- core       one section (core, evaluation, scoring, llm, archive, page, stress, replay, big-result)
 *   (big-result, a result of more than 1 GB run, killed, resumed and verified, runs only when named)
 *   npm run bench -- --quick    the stress section on one family only (or EMBER_BENCH_QUICK=1)
 */

import { benchArchive } from './archive.js';
import { benchBigResult } from './big-result.js';
import { benchCore } from './core.js';
import { benchEvaluation } from './evaluation.js';
import { formatFigure, type Figure } from './harness.js';
import { benchLlm } from './llm.js';
import { benchPage } from './page.js';
import { benchReplay } from './replay.js';
import { benchScoring } from './scoring.js';
import { benchStress } from './stress.js';

const sections: Record<string, [string, () => Promise<Figure[]>]> = {
  core: ['Benchmark core', benchCore],
  evaluation: ['Evaluations', benchEvaluation],
  scoring: ['The EMBER Score', benchScoring],
  llm: ['Language models (builtin:openai-chat against the scripted endpoint)', benchLlm],
  archive: ['The workbench archive', benchArchive],
  page: ['The workbench in a browser', benchPage],
  stress: ['Stress scale: generated worlds at 1x, 4x, 16x the work (each stage in its own process)', benchStress],
  replay: ['The workbench replay (pixi.js in headless Chromium)', benchReplay],
  'big-result': ['A result of more than 1 GB: written, killed with -9, resumed and verified (each its own process)', benchBigResult],
};
// Many minutes and several GB of disk: only when asked for by name.
const ON_REQUEST = new Set(['big-result']);

// Flags (--quick) are read by the sections; the other arguments name sections.
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('--'));
for (const [key, [title, run]] of Object.entries(sections)) {
  if (wanted.length > 0 ? !wanted.includes(key) : ON_REQUEST.has(key)) continue;
  console.log(title);
  for (const figure of await run()) console.log(formatFigure(figure));
}
// Memory: the peak resident set of the whole bench process (every section run above).
console.log(formatFigure({ name: 'peak resident memory of the bench process', value: process.resourceUsage().maxRSS / 1024, unit: 'MiB' }));
