// The score on the public suite (scenarios/public/v1, development seeds 0, 1,
// 2) with every baseline: every episode authenticated, every bound valid,
// and the block scrub leaving trajectories and scores unchanged.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BASELINE_IDS, baselineFactory } from '../baselines/registry.js';
import { blockScrubFactory } from '../baselines/block-scrub.js';
import type { EvaluationManifest } from '../eval/manifest.js';
import { Rational } from '../stats/rational.js';
import { loadSuite, type Suite } from '../world/suite.js';
import type { EpisodeTrialEvidence } from './evidence.js';
import { buildScoreReport, type ScoreReport } from './report.js';
import { manifestOf, runTrial, type Trial } from '../../../test/kits/score-kit.js';

const PUBLIC = join(import.meta.dirname, '..', '..', '..', 'scenarios', 'public', 'v1');

function loadPublicSuite(): Suite {
  const files = new Map(readdirSync(PUBLIC).filter((f) => f !== 'manifest.json').map((f) => [f, readFileSync(join(PUBLIC, f), 'utf8')]));
  return loadSuite(readFileSync(join(PUBLIC, 'manifest.json'), 'utf8'), files, PUBLIC);
}

let suite: Suite;
let manifest: EvaluationManifest;
const trials = new Map<string, Trial>();
const reports = new Map<string, ScoreReport>();

beforeAll(async () => {
  suite = loadPublicSuite();
  manifest = manifestOf(suite, ['0', '1', '2']);
  for (const id of BASELINE_IDS) {
    const trial = await runTrial(suite, manifest, id, baselineFactory(id)!);
    trials.set(id, trial);
    reports.set(id, buildScoreReport({ suite, trials: [trial.authenticated], target: { kind: 'suite' } }));
  }
}, 300_000);

const ONE = Rational.ONE;
const ZERO = Rational.ZERO;

function inUnitInterval(value: string | null, open: boolean): boolean {
  if (value === null) return true;
  const v = Rational.parse(value);
  return (open ? v.cmp(ZERO) > 0 : v.cmp(ZERO) >= 0) && v.cmp(ONE) <= 0;
}

describe('bound validity on every public episode of every baseline', () => {
  it.each(BASELINE_IDS)('%s: sum(L_i) <= Q_exit <= Q_cut <= sum(A_i), every ratio in (0, 1], every component in [0, 1]', (id) => {
    const report = reports.get(id)!;
    expect(report.episodes).toHaveLength(30);
    for (const episode of report.episodes) {
      for (const t of episode.trials) {
        expect(t.status === 'scored' || t.status === 'catastrophic').toBe(true);
        const ref = t.references!;
        const actual = t.actual!;
        expect(ref.earliest_sum).toBeLessThanOrEqual(ref.evacuee_time_queue_bound);
        expect(ref.evacuee_time_queue_bound).toBeLessThanOrEqual(ref.evacuee_time_cut_bound);
        expect(ref.evacuee_time_cut_bound).toBeLessThanOrEqual(actual.evacuation_steps);
        expect(ref.fewest_moves).toBeLessThanOrEqual(actual.cells_moved);
        expect(ref.fewest_danger_states).toBeLessThanOrEqual(actual.danger_states);
        expect(ref.replanning_bound).toBeLessThanOrEqual(actual.replanning_steps);
        const c = t.breakdown!.components;
        for (const k of ['time', 'path', 'replanning'] as const) expect(inUnitInterval(c[k], true), `${id} episode ${episode.index} ${k} ${c[k]}`).toBe(true);
        for (const k of ['evacuation', 'casualty', 'stranding', 'hazard'] as const) expect(inUnitInterval(c[k], false)).toBe(true);
        expect(Rational.parse(t.score!).cmp(Rational.of(100))).toBeLessThanOrEqual(0);
      }
    }
  });
});

/** The state trajectory of a record: what moved, who left, who died and what caught fire, per step. */
function stateTrajectory(trial: Trial, index: number) {
  const record = trial.authenticated.episodes[index]!.record;
  return record.trajectory.map((s) => [s.moved, s.evacuated, s.died, s.burning]);
}

const scoreEvidence = (t: EpisodeTrialEvidence) => ({ ...t, record_digest: null, congestion: null });

describe('test_block_scrub_keeps_trajectory_and_score', () => {
  it('adv-block-scrub and congestion-aware-v1: identical state trajectories, scores and evidence on every public episode', () => {
    const a = trials.get('congestion-aware-v1')!;
    const b = trials.get('adv-block-scrub')!;
    for (let i = 0; i < 30; i++) expect(stateTrajectory(b, i)).toEqual(stateTrajectory(a, i));
    const ra = reports.get('congestion-aware-v1')!;
    const rb = reports.get('adv-block-scrub')!;
    expect(rb.score).toBe(ra.score);
    ra.episodes.forEach((e, i) => expect(rb.episodes[i]!.trials.map(scoreEvidence)).toEqual(e.trials.map(scoreEvidence)));
  });

  it('the scrub of a blocking agent (fire-aware-shortest-path-v1): same trajectories and scores, different block counts', async () => {
    const plain = trials.get('fire-aware-shortest-path-v1')!;
    const scrubbed = await runTrial(suite, manifest, 'fire-aware-shortest-path-v1', blockScrubFactory(baselineFactory('fire-aware-shortest-path-v1')!));
    for (let i = 0; i < 30; i++) expect(stateTrajectory(scrubbed, i)).toEqual(stateTrajectory(plain, i));
    const blocks = (t: Trial) => t.authenticated.episodes.map((e) => e.metrics.blocked_moves.total);
    expect(blocks(scrubbed).every((n) => n === 0)).toBe(true);
    expect(blocks(plain).some((n) => n > 0)).toBe(true);
    const ra = reports.get('fire-aware-shortest-path-v1')!;
    const rb = buildScoreReport({ suite, trials: [scrubbed.authenticated], target: { kind: 'suite' } });
    expect(rb.score).toBe(ra.score);
    ra.episodes.forEach((e, i) => expect(rb.episodes[i]!.trials.map(scoreEvidence)).toEqual(e.trials.map(scoreEvidence)));
    expect(rb.diagnostics.congestion.block_rate).toBe('0/1');
    expect(ra.diagnostics.congestion.block_rate).not.toBe('0/1');
  }, 120_000);
});
