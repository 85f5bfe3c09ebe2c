// The section 10 summary, rendered from the report object alone: the exact
// text of scoring-v1.0.md section 10 from a report holding its numbers, the
// UNOFFICIAL and no-interval variants, and half-even rounding.
import { beforeAll, describe, expect, it } from 'vitest';
import { baselineFactory } from '../baselines/registry.js';
import { buildScoreReport, type Coverage, type ScoreReport } from './report.js';
import { summaryLines, summaryText } from './summary.js';
import { DOOR, fixtureSuite, manifestOf, runTrial } from '../../../test/kits/score-kit.js';

let real: ScoreReport;

beforeAll(async () => {
  const suite = fixtureSuite([DOOR]);
  const trial = await runTrial(suite, manifestOf(suite, ['0', '1']), 'door-model', baselineFactory('fire-aware-shortest-path-v1')!);
  real = buildScoreReport({ suite, trials: [trial.authenticated], target: { kind: 'suite' } });
});

const cov = (mean: string | null, defined: number, total = 30): Coverage => ({ mean, defined, total });

/** The real report with the numbers of the section 10 example (three of its families). */
function exampleReport(): ScoreReport {
  return {
    ...real,
    model_id: 'congestion-aware-v1',
    target: { kind: 'pack', pack_id: 'ember-pack-0123456789abcdef', pack_digest: 'ab'.repeat(32) },
    official: true,
    resamples: 2000,
    // 53.15 and 50.55 are ties at one decimal: half-even gives 53.2 and 50.6.
    score: '1063/20',
    interval: { lower: '1011/20', upper: '117/2', seed: 'cd'.repeat(32) },
    safety: cov('139/250', 30),
    quality: cov('929/1000', 30),
    components: {
      evacuation: cov('108/125', 30),
      casualty: cov('59/100', 30),
      // 0.9995 rounds up to 1.000.
      stranding: cov('1999/2000', 30),
      time: cov('117/125', 30),
      hazard: cov('112/125', 30),
      path: cov('233/250', 30),
      replanning: cov('1/1', 8),
    },
    families: [
      { family: 'single_exit_low_density', score: '991/10', scenarios: 1 },
      { family: 'single_exit_high_density', score: '312/10', scenarios: 1 },
      { family: 'narrow_corridor_bottleneck', score: '191/2', scenarios: 1 },
    ],
    tail: {
      median_scenario: '377/10',
      worst_scenario: { scenario_id: 'v1-pub-05-central-ignition', score: '37/5' },
      p10_episode: '16/1',
      cvar10: '37/5',
      cvar10_episodes: 3,
    },
    episode_trials: { total: 30, applicable: 30, not_applicable: 0, scored: 30, catastrophic: 0, failed: 0 },
    zero_score: { catastrophic: 0, missing: 0, invalid_output: 0, model_error: 0, timeout: 0, total: 0 },
    robustness: { severe_episode_trials: { time: 0, hazard: 3, path: 0, replanning: 0 } },
    totals: {
      all: { escapable: 561, evacuated: 526, avoidable_casualties: 35, avoidable_stranded: 0, unavoidable_losses: 0 },
      per_trial: { escapable: '561/1', evacuated: '526/1', avoidable_casualties: '35/1', avoidable_stranded: '0/1', unavoidable_losses: '0/1' },
      by_trial: [],
    },
    diagnostics: {
      congestion: {
        moves_attempted: 1000,
        blocked_moves: 399,
        block_rate: '399/1000',
        contested_cell_steps: 1707,
        contested_cell_steps_per_trial: '1707/1',
        hotspot_cells: 447,
        hotspot_cells_per_trial: '447/1',
        peak_contested_cells: 20,
        exit_throughput: '97/125',
      },
    },
  };
}

describe('summaryText', () => {
  it('renders the section 10 example line by line', () => {
    expect(summaryText(exampleReport())).toBe(
      [
        'EMBER Score 53.2 / 100 benchmark-performance points under EMBER scoring version 1.0',
        '95% CI [50.6, 58.5] (stratified two-stage bootstrap, 2000 resamples; this sample only)',
        `Model congestion-aware-v1; trials 1; official; environment pack ember-pack-0123456789abcdef sha256:${'ab'.repeat(32)}`,
        'Safety factor 0.556; quality factor 0.929',
        'Components (0-1, defined/total): evacuation 0.864 (30/30); casualty 0.590 (30/30); stranding 1.000 (30/30); time 0.936 (30/30); hazard 0.896 (30/30); path 0.932 (30/30); replanning 1.000 (8/30)',
        'Primary families: single_exit_low_density 99.1; single_exit_high_density 31.2; narrow_corridor_bottleneck 95.5',
        'Tail: median scenario 37.7; worst scenario 7.4 (v1-pub-05-central-ignition); p10 episode 16.0; CVaR10 7.4',
        'Zero-score episode-trials 0 of 30: catastrophic 0; missing 0; invalid_output 0; model_error 0; timeout 0',
        'Severe quality failures (episode-trials): time 0; hazard 3; path 0; replanning 0',
        'People per trial: escapable 561.0; evacuated 526.0; avoidable casualties 35.0; avoidable stranded 0.0',
        'Congestion diagnostics (not scored): block rate 0.399; contested cell-steps per trial 1707.0; hotspot cells per trial 447.0; peak contested cells 20; exit throughput 0.776',
        'The EMBER Score is not a percentage of people evacuated.',
        '',
      ].join('\n'),
    );
  });

  it('says UNOFFICIAL for a bare suite, gives no interval below 5 episodes and n/a for undefined values', () => {
    const report: ScoreReport = {
      ...exampleReport(),
      target: { kind: 'suite' },
      official: false,
      trials: [...real.trials, { ...real.trials[0]!, trial: 1 }, { ...real.trials[0]!, trial: 2 }],
      interval: null,
      components: { ...exampleReport().components, replanning: cov(null, 0) },
      diagnostics: { congestion: { ...exampleReport().diagnostics.congestion, block_rate: null, exit_throughput: null } },
    };
    const lines = summaryLines(report);
    expect(lines[1]).toBe('no interval (fewer than 5 applicable episodes)');
    expect(lines[2]).toBe('Model congestion-aware-v1; trials 3; UNOFFICIAL');
    expect(lines[4]).toMatch(/; replanning n\/a \(0\/30\)$/);
    expect(lines[10]).toBe(
      'Congestion diagnostics (not scored): block rate n/a; contested cell-steps per trial 1707.0; hotspot cells per trial 447.0; peak contested cells 20; exit throughput n/a',
    );
  });

  it('renders a real report from its own numbers', () => {
    const lines = summaryLines(real);
    expect(lines).toHaveLength(12);
    expect(lines[0]).toBe('EMBER Score 100.0 / 100 benchmark-performance points under EMBER scoring version 1.0');
    expect(lines[1]).toBe('no interval (fewer than 5 applicable episodes)');
    expect(lines[2]).toBe('Model door-model; trials 1; UNOFFICIAL');
    expect(lines[5]).toBe('Primary families: door 100.0');
    expect(lines[6]).toBe('Tail: median scenario 100.0; worst scenario 100.0 (door-queue); p10 episode 100.0; CVaR10 100.0');
    expect(lines[9]).toBe('People per trial: escapable 36.0; evacuated 36.0; avoidable casualties 0.0; avoidable stranded 0.0');
  });
});
