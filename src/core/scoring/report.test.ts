// The score report's aggregation (scoring-v1.0.md sections 6 and 7) on real
// replayed fixture episodes, checked against a direct recomputation.
import { beforeAll, describe, expect, it } from 'vitest';
import { baselineFactory } from '../baselines/registry.js';
import { MismatchError, ValidationError } from '../errors.js';
import { sha256Hex } from '../hash.js';
import { canonicalJson } from '../json/canonical.js';
import { Rational, mean } from '../stats/rational.js';
import { SCORING_CONSTANTS_DIGEST } from './constants.js';
import type { EpisodeEvidence } from './evidence.js';
import { buildScoreReport, buildScoreReportSteps, scoreReportDigest, scoreReportText, type ScoreReport } from './report.js';
import { ATTRIBUTION, DOOR, ROUTE_CUT, SEALED, TWO_EXITS, fixtureSuite, holdingAgent, manifestOf, runTrial, type Trial } from '../../../test/kits/score-kit.js';

const fireAware = baselineFactory('fire-aware-shortest-path-v1')!;

// Five scenarios, four families ("crowd" has two scenarios, "sealed" is never applicable), two seeds.
const SUITE = fixtureSuite([
  { ...ATTRIBUTION, spread: '0.3' },
  { ...DOOR, family: 'crowd' },
  { ...TWO_EXITS, family: 'crowd' },
  SEALED,
  ROUTE_CUT,
]);
const MANIFEST = manifestOf(SUITE, ['0', '1']);

let good: Trial;
let worse: Trial;
let report: ScoreReport;

beforeAll(async () => {
  good = await runTrial(SUITE, MANIFEST, 'model-x', fireAware);
  // Same model, second trial: p0000 never moves, episode 3 is missing and episode 4 timed out.
  worse = await runTrial(SUITE, MANIFEST, 'model-x', holdingAgent(fireAware, ['p0000']), {
    skip: new Set([3, 4]),
    failures: [{ index: 4, kind: 'timeout', message: 'act deadline' }],
  });
  report = buildScoreReport({ suite: SUITE, trials: [good.authenticated, worse.authenticated], target: { kind: 'suite' }, resamples: 200 });
});

const r = (text: string) => Rational.parse(text);

/** An independent recomputation of the hierarchy: episodes -> scenarios -> families -> mean. */
function headline(episodes: readonly EpisodeEvidence[]): { score: Rational; scenarios: Map<string, Rational> } {
  const byScenario = new Map<string, { family: string; values: Rational[] }>();
  for (const e of episodes) {
    if (!e.applicable) continue;
    const entry = byScenario.get(e.scenario_id) ?? { family: e.primary_family, values: [] };
    entry.values.push(mean(e.trials.map((t) => r(t.score!))));
    byScenario.set(e.scenario_id, entry);
  }
  const scenarios = new Map([...byScenario].map(([id, s]) => [id, mean(s.values)]));
  const families = new Map<string, Rational[]>();
  for (const [id, s] of byScenario) families.set(s.family, [...(families.get(s.family) ?? []), scenarios.get(id)!]);
  return { score: mean([...families.values()].map(mean)), scenarios };
}

describe('aggregation', () => {
  it('averages trials per episode, then scenarios, primary families and families, leaving out not-applicable episodes', () => {
    const { score, scenarios } = headline(report.episodes);
    expect(report.score).toBe(score.toFraction());
    expect(report.means.family_balanced).toBe(report.score);
    expect(report.means.scenario_balanced).toBe(mean([...scenarios.values()]).toFraction());
    const applicable = report.episodes.filter((e) => e.applicable);
    expect(report.means.micro).toBe(mean(applicable.map((e) => r(e.score!))).toFraction());
    expect(report.families.map((f) => [f.family, f.scenarios])).toEqual([['attribution', 1], ['crowd', 2], ['route', 1]]);
    expect(report.scenarios.map((s) => s.scenario_id)).toEqual(['attribution', 'door-queue', 'two-exits', 'route-cut']);
    for (const s of report.scenarios) expect(s.score).toBe(scenarios.get(s.scenario_id)!.toFraction());
    expect(report.episodes.filter((e) => e.scenario_id === 'sealed').every((e) => !e.applicable && e.score === null)).toBe(true);
  });

  it('aggregates components, Safety and Quality over the episode-trials where they are defined, with coverage', () => {
    const trials = report.episodes.filter((e) => e.applicable).flatMap((e) => e.trials);
    expect(report.episodes.map((e) => e.trials.map((t) => t.status).join(','))).toEqual([
      'scored,scored',
      'scored,scored',
      'scored,scored',
      'scored,failed',
      'scored,failed',
      'scored,scored',
      'not_applicable,not_applicable',
      'not_applicable,not_applicable',
      // route-cut has one person: held in place, the only savable person is lost.
      'scored,catastrophic',
      'scored,catastrophic',
    ]);
    expect(report.episode_trials).toEqual({ total: 20, applicable: 16, not_applicable: 4, scored: 12, catastrophic: 2, failed: 2 });
    const defined = (k: 'time' | 'replanning') => trials.filter((t) => t.breakdown?.components[k] != null).length;
    expect(report.components.time).toMatchObject({ defined: defined('time'), total: 16 });
    expect(report.components.replanning.defined).toBe(defined('replanning'));
    expect(report.components.replanning.defined).toBeGreaterThan(0);
    expect(report.components.replanning.defined).toBeLessThan(16);
    // Replanning is defined only on route-cut: its mean is the mean over those trials.
    const route = report.episodes.filter((e) => e.scenario_id === 'route-cut').flatMap((e) => e.trials.map((t) => t.breakdown?.components.replanning ?? null));
    const values = route.filter((v): v is string => v !== null).map(r);
    expect(report.components.replanning.mean).toBe(mean(values).toFraction());
    expect(report.safety.defined).toBe(14);
  });

  it('counts zero-score causes, severe failures, people totals per trial and the congestion diagnostics', () => {
    expect(report.zero_score).toEqual({ catastrophic: 2, missing: 1, invalid_output: 0, model_error: 0, timeout: 1, total: 4 });
    expect(report.totals.by_trial).toHaveLength(2);
    const [first, second] = report.totals.by_trial;
    expect(first!.avoidable_casualties + first!.avoidable_stranded).toBe(0);
    expect(second!.avoidable_casualties + second!.avoidable_stranded).toBeGreaterThan(0);
    expect(report.totals.all.escapable).toBe(first!.escapable + second!.escapable);
    expect(report.totals.per_trial.evacuated).toBe(Rational.of(report.totals.all.evacuated, 2).toFraction());
    // The unsavable person in `attribution` is an unavoidable loss in every authenticated trial (sealed is not counted).
    expect(first!.unavoidable_losses).toBe(2);
    const c = report.diagnostics.congestion;
    expect(c.block_rate).toBe(Rational.of(c.blocked_moves, c.moves_attempted).toFraction());
    expect(c.contested_cell_steps_per_trial).toBe(Rational.of(c.contested_cell_steps, 2).toFraction());
    expect(c.peak_contested_cells).toBeGreaterThan(0);
    // The held person of route-cut is censored at the horizon in both catastrophic trials: severe replanning.
    expect(report.robustness.severe_episode_trials).toEqual({ time: 0, hazard: 0, path: 0, replanning: 2 });
  });

  it('computes the tail from scenario and episode scores', () => {
    const scenarioScores = report.scenarios.map((s) => r(s.score));
    const worst = report.scenarios.reduce((a, b) => (r(b.score).cmp(r(a.score)) < 0 ? b : a));
    expect(report.tail.worst_scenario).toEqual({ scenario_id: worst.scenario_id, score: worst.score });
    const sorted = scenarioScores.slice().sort((a, b) => a.cmp(b));
    expect(report.tail.median_scenario).toBe(sorted[1]!.add(sorted[2]!).div(Rational.of(2)).toFraction());
    const episodes = report.episodes.filter((e) => e.applicable).map((e) => r(e.score!)).sort((a, b) => a.cmp(b));
    expect(report.tail.cvar10_episodes).toBe(1);
    expect(report.tail.cvar10).toBe(episodes[0]!.toFraction());
    // Type 7 at p = 0.1 with n = 8: h = 0.7.
    expect(report.tail.p10_episode).toBe(episodes[0]!.add(Rational.of(7, 10).mul(episodes[1]!.sub(episodes[0]!))).toFraction());
  });
});

describe('interval', () => {
  it('seeds the bootstrap with SHA-256 of the canonical seed object and is reproducible', () => {
    const seedObject = {
      constants_digest: SCORING_CONSTANTS_DIGEST,
      episode_scores: report.episodes.map((e) => e.score),
      manifest_hash: report.manifest_hash,
      model_id: 'model-x',
      scoring_version: '1.0',
    };
    expect(report.interval!.seed).toBe(sha256Hex(canonicalJson(seedObject)));
    expect(r(report.interval!.lower).cmp(r(report.interval!.upper))).toBeLessThanOrEqual(0);
    const again = buildScoreReport({ suite: SUITE, trials: [good.authenticated, worse.authenticated], target: { kind: 'suite' }, resamples: 200 });
    expect(scoreReportText(again)).toBe(scoreReportText(report));
    expect(scoreReportDigest(scoreReportText(again))).toBe(scoreReportDigest(scoreReportText(report)));
  });

  it('gives no interval with fewer than 5 applicable episodes', async () => {
    const small = fixtureSuite([DOOR, SEALED]);
    const manifest = manifestOf(small, ['0', '1', '2', '3']);
    const trial = await runTrial(small, manifest, 'model-x', fireAware);
    const out = buildScoreReport({ suite: small, trials: [trial.authenticated], target: { kind: 'suite' } });
    expect(out.episode_trials.applicable).toBe(4);
    expect(out.interval).toBeNull();
    expect(out.score).toBe('100/1');
  });
});

describe('inputs', () => {
  it('rejects trials of different models or manifests (exit 3)', async () => {
    const other = await runTrial(SUITE, MANIFEST, 'model-y', fireAware);
    expect(() => buildScoreReport({ suite: SUITE, trials: [good.authenticated, other.authenticated], target: { kind: 'suite' } })).toThrow(ValidationError);
    const otherManifest = await runTrial(SUITE, manifestOf(SUITE, ['0']), 'model-x', fireAware);
    expect(() => buildScoreReport({ suite: SUITE, trials: [good.authenticated, otherManifest.authenticated], target: { kind: 'suite' } })).toThrow(/same manifest/);
  });

  it('is official only against a pack of the results manifest; a pack of another manifest is a mismatch (exit 5)', () => {
    const pack = { kind: 'pack', pack_id: 'ember-pack-0123456789abcdef', pack_digest: 'ab'.repeat(32) } as const;
    const official = buildScoreReport({ suite: SUITE, trials: [good.authenticated], target: { ...pack, manifest_hash: good.authenticated.manifestHash }, resamples: 50 });
    expect(official.official).toBe(true);
    expect(official.target).toEqual(pack);
    expect(report.official).toBe(false);
    expect(report.target).toEqual({ kind: 'suite' });
    expect(() => buildScoreReport({ suite: SUITE, trials: [good.authenticated], target: { ...pack, manifest_hash: '00'.repeat(32) } })).toThrow(MismatchError);
  });
});

describe('buildScoreReportSteps', () => {
  // Each scheduled episode may need its fire world and M*: a command must see Ctrl+C between them.
  it('yields before each scheduled episode is scored, and builds the same report', () => {
    const input = { suite: SUITE, trials: [good.authenticated, worse.authenticated], target: { kind: 'suite' } as const, resamples: 200 };
    const steps = buildScoreReportSteps(input);
    const scoring: number[] = [];
    let next = steps.next();
    for (; next.done !== true; next = steps.next()) if (next.value.what === 'scoring episodes') scoring.push(next.value.done);
    expect(scoring).toEqual(MANIFEST.episodes.map((_, k) => k));
    expect(scoreReportText(next.value)).toBe(scoreReportText(report));
  });
});
