/**
 * `npm run bench`: speed and memory figures, printed. Goals are reported as
 * met or MISSED; they are measurements, never test assertions. Run it on an
 * otherwise idle machine: the figures are wall times.
 *
 *   npm run bench               every section
 *   npm run bench -- core       one section (core, evaluation, scoring, llm, archive)
 */

import { benchArchive } from './archive.js';
import { benchCore } from './core.js';
import { benchEvaluation } from './evaluation.js';
import { formatFigure, type Figure } from './harness.js';
import { benchLlm } from './llm.js';
import { benchScoring } from './scoring.js';

const sections: Record<string, [string, () => Promise<Figure[]>]> = {
  core: ['Benchmark core', benchCore],
  evaluation: ['Evaluations', benchEvaluation],
  scoring: ['The EMBER Score', benchScoring],
  llm: ['Language models (builtin:openai-chat against the scripted endpoint)', benchLlm],
  archive: ['The workbench archive', benchArchive],
};

const wanted = process.argv.slice(2);
for (const [key, [title, run]] of Object.entries(sections)) {
  if (wanted.length > 0 && !wanted.includes(key)) continue;
  console.log(title);
  for (const figure of await run()) console.log(formatFigure(figure));
}
// Memory: the peak resident set of the whole bench process (every section run above).
console.log(formatFigure({ name: 'peak resident memory of the bench process', value: process.resourceUsage().maxRSS / 1024, unit: 'MiB' }));
