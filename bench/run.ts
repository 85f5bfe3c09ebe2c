/**
 * `npm run bench`: speed and memory figures, printed. Goals are reported as
 * met or MISSED; they are measurements, never test assertions. Run it on an
 * otherwise idle machine: the figures are wall times.
 *
 *   npm run bench               every section
 *   npm run bench -- core       one section (start-up, cli-run, core, evaluation, scoring, llm, archive, app-run, page, stress, replay, big-result)
 *   (big-result, a result of more than 1 GB run, killed, resumed, verified, scored and bundled, runs only when named)
 *   npm run bench -- --quick    the stress section on one family only (or EMBER_BENCH_QUICK=1)
 */

import { useNativeHash } from '../src/node/native-hash.js';
import { formatFigure, type Figure } from './harness.js';

// As in the CLI and the app: the core's digests with Node's SHA-256.
useNativeHash();

/**
 * Each section's module is imported only when the section runs: loading
 * the browser sections' dependencies (playwright-core, esbuild) slowed the
 * core figures measured after it by 10-15 % (a bigger heap to collect, and
 * the CPU time of the whole process counts every thread).
 */
const sections: Record<string, [string, () => Promise<Figure[]>]> = {
  'start-up': ['The command line starting (a fresh process each, the built CLI)', async () => (await import('./start-up.js')).benchStartUp()],
  'cli-run': ['episode run end to end (a fresh process each, the built CLI)', async () => (await import('./start-up.js')).benchEpisodeRun()],
  core: ['Benchmark core', async () => (await import('./core.js')).benchCore()],
  evaluation: ['Evaluations', async () => (await import('./evaluation.js')).benchEvaluation()],
  scoring: ['The EMBER Score', async () => (await import('./scoring.js')).benchScoring()],
  llm: ['Language models (builtin:openai-chat against the scripted endpoint)', async () => (await import('./llm.js')).benchLlm()],
  archive: ['The workbench archive', async () => (await import('./archive.js')).benchArchive()],
  'app-run': ['An app run with large episodes: how long the main thread is held', async () => (await import('./app-run.js')).benchAppRun()],
  page: ['The workbench in a browser', async () => (await import('./page.js')).benchPage()],
  stress: ['Stress scale: generated worlds at 1x, 4x, 16x the work (each stage in its own process)', async () => (await import('./stress.js')).benchStress()],
  replay: ['The workbench replay (pixi.js in headless Chromium)', async () => (await import('./replay.js')).benchReplay()],
  'big-result': [
    'A result of more than 1 GB: written, killed with -9, resumed, verified, scored and bundled (each its own process)',
    async () => (await import('./big-result.js')).benchBigResult(),
  ],
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
