/**
 * Prints the baseline table of the README: every baseline scored on a suite
 * (default: the public suite with the development seeds 0, 1, 2).
 *
 *   node --import tsx scripts/rank-baselines.ts [SUITE_DIR] [SEED...]
 */

import { Rational } from '../src/core/stats/rational.js';
import { scoreBaselines } from '../src/node/workflows/baseline-ranking.js';

const [suiteDir = 'scenarios/public/v1', ...rest] = process.argv.slice(2);
const seeds = rest.length > 0 ? rest : ['0', '1', '2'];
const scores = await scoreBaselines(suiteDir, seeds);
const fixed = (fraction: string | null | undefined) => (fraction == null ? '-' : Rational.parse(fraction).toFixed(1));

const families = scores[0]!.report.families.map((f) => f.family);
console.log(`| baseline | EMBER Score | 95% CI | ${families.join(' | ')} |`);
console.log(`| --- | ---: | --- | ${families.map(() => '---:').join(' | ')} |`);
for (const { id, report } of [...scores].reverse()) {
  const ci = report.interval ? `[${fixed(report.interval.lower)}, ${fixed(report.interval.upper)}]` : '-';
  const byFamily = families.map((f) => fixed(report.families.find((x) => x.family === f)?.score));
  console.log(`| \`${id}\` | ${fixed(report.score)} | ${ci} | ${byFamily.join(' | ')} |`);
}
