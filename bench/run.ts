/**
 * `npm run bench`: speed and memory figures, printed. Goals are reported as
 * met or MISSED; they are measurements, never test assertions.
 */

import { benchCore } from './core.js';
import { formatFigure, type Figure } from './harness.js';

const sections: [string, () => Promise<Figure[]>][] = [['Benchmark core', benchCore]];

for (const [title, run] of sections) {
  console.log(`${title}`);
  for (const figure of await run()) console.log(formatFigure(figure));
}
