/**
 * The summary text of a score report (scoring-v1.0.md section 10), rendered
 * from the report object alone, line by line in the section's shape. Points
 * are shown to 0.1 and factors, components and rates to 0.001, rounded half
 * even from the exact values; "n/a" stands for an undefined value. This is
 * the only place where report numbers are rounded.
 */

import { Rational } from '../stats/rational.js';
import { COMPONENTS, EPISODE_FAILURE_KINDS, QUALITY_COMPONENTS } from './evidence.js';
import type { Coverage, ScoreReport } from './report.js';

const NOT_AVAILABLE = 'n/a';

function oneDecimal(value: string | null): string {
  return value === null ? NOT_AVAILABLE : Rational.parse(value).toFixed(1);
}

function threeDecimals(value: string | null): string {
  return value === null ? NOT_AVAILABLE : Rational.parse(value).toFixed(3);
}

function coverageText(name: string, c: Coverage): string {
  return `${name} ${threeDecimals(c.mean)} (${c.defined}/${c.total})`;
}

/** The summary lines, each without its line break. */
export function summaryLines(report: ScoreReport): string[] {
  const pack = report.target.kind === 'pack' ? report.target : null;
  const provenance = report.official && pack !== null ? `official; environment pack ${pack.pack_id} sha256:${pack.pack_digest}` : 'UNOFFICIAL';
  const tail = report.tail;
  const worst = tail.worst_scenario === null ? NOT_AVAILABLE : `${oneDecimal(tail.worst_scenario.score)} (${tail.worst_scenario.scenario_id})`;
  const zero = report.zero_score;
  const people = report.totals.per_trial;
  const congestion = report.diagnostics.congestion;
  return [
    `EMBER Score ${oneDecimal(report.score)} / 100 benchmark-performance points under EMBER scoring version ${report.scoring_version}`,
    report.interval === null
      ? 'no interval (fewer than 5 applicable episodes)'
      : `95% CI [${oneDecimal(report.interval.lower)}, ${oneDecimal(report.interval.upper)}] (stratified two-stage bootstrap, ${report.resamples} resamples; this sample only)`,
    `Model ${report.model_id}; trials ${report.trials.length}; ${provenance}`,
    `Safety factor ${threeDecimals(report.safety.mean)}; quality factor ${threeDecimals(report.quality.mean)}`,
    `Components (0-1, defined/total): ${COMPONENTS.map((k) => coverageText(k, report.components[k])).join('; ')}`,
    `Primary families: ${report.families.length === 0 ? NOT_AVAILABLE : report.families.map((f) => `${f.family} ${oneDecimal(f.score)}`).join('; ')}`,
    `Tail: median scenario ${oneDecimal(tail.median_scenario)}; worst scenario ${worst}; p10 episode ${oneDecimal(tail.p10_episode)}; CVaR10 ${oneDecimal(tail.cvar10)}`,
    `Zero-score episode-trials ${zero.total} of ${report.episode_trials.applicable}: catastrophic ${zero.catastrophic}; ${EPISODE_FAILURE_KINDS.map((k) => `${k} ${zero[k]}`).join('; ')}`,
    `Severe quality failures (episode-trials): ${QUALITY_COMPONENTS.map((k) => `${k} ${report.robustness.severe_episode_trials[k]}`).join('; ')}`,
    `People per trial: escapable ${oneDecimal(people.escapable)}; evacuated ${oneDecimal(people.evacuated)}; avoidable casualties ${oneDecimal(people.avoidable_casualties)}; avoidable stranded ${oneDecimal(people.avoidable_stranded)}`,
    `Congestion diagnostics (not scored): block rate ${threeDecimals(congestion.block_rate)}; contested cell-steps per trial ${oneDecimal(congestion.contested_cell_steps_per_trial)}; hotspot cells per trial ${oneDecimal(congestion.hotspot_cells_per_trial)}; peak contested cells ${congestion.peak_contested_cells}; exit throughput ${threeDecimals(congestion.exit_throughput)}`,
    'The EMBER Score is not a percentage of people evacuated.',
  ];
}

/** The summary text: the lines joined with LF, with a final LF. */
export function summaryText(report: ScoreReport): string {
  return summaryLines(report).join('\n') + '\n';
}
