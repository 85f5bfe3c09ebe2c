// Episode scoring on REAL replayed episodes: small fixture scenarios run by
// the real runner with real (or wrapped) agents, written as result files and
// authenticated by the real loader before they are scored.
import { describe, expect, it } from 'vitest';
import { baselineFactory } from '../baselines/registry.js';
import { blockScrubFactory } from '../baselines/block-scrub.js';
import { ValidationError } from '../errors.js';
import { Rational } from '../stats/rational.js';
import { episodeFacts, episodeReferences, routeEventsOf } from './episode-evaluation.js';
import { mergeFailures } from './scored-trials.js';
import { scoreEpisode } from './episode-score.js';
import { scoreFromFacts, scoreInputOf, type EpisodeTrialEvidence } from './evidence.js';
import { buildScoreReport } from './report.js';
import { ATTRIBUTION, DOOR, SEALED, TWO_EXITS, exitSeekingAgent, fixtureSuite, holdingAgent, manifestOf, nearestExit, runTrial, type FixtureSpec } from '../../../test/kits/score-kit.js';

const fireAware = baselineFactory('fire-aware-shortest-path-v1')!;

/** The single episode-trial evidence of `agent` on a one-scenario suite, seed 0. */
async function scoreOne(spec: FixtureSpec, agent = fireAware): Promise<EpisodeTrialEvidence> {
  const suite = fixtureSuite([spec]);
  const trial = await runTrial(suite, manifestOf(suite, ['0']), 'model', agent);
  return buildScoreReport({ suite, trials: [trial.authenticated], target: { kind: 'suite' } }).episodes[0]!.trials[0]!;
}

const ratio = (value: string | null | undefined): Rational => Rational.parse(value!);

const TWO_EXITS_OPEN = TWO_EXITS.map.map((row) => row.replaceAll('P', '.'));

describe('test_real_episode_person_level_attribution', () => {
  it('a savable person who dies is an avoidable casualty even when an unsavable person is stranded (c = 1, not 0)', async () => {
    const t = await scoreOne(ATTRIBUTION, holdingAgent(fireAware, ['p0000']));
    expect(t.status).toBe('scored');
    expect(t.people).toEqual({
      population: 5,
      evacuated: 3,
      avoidable_casualties: 1,
      avoidable_stranded: 0,
      avoidable_casualty_ids: ['p0000'],
      avoidable_stranded_ids: [],
      unavoidable_casualty_ids: [],
      unavoidable_stranded_ids: ['p0004'],
    });
    expect(t.references!.max_evacuated).toBe(4);
    // The aggregate draft rule c = max(0, C - (N - M*)) = max(0, 1 - 1) would charge nobody.
    // Person-level: one casualty in a population of 4 (scoring-v1.0.md section 5: 10.7), below the 60 cap.
    expect(t.score).toBe('10.678710938');
    expect(ratio(t.breakdown!.components.casualty).cmp(Rational.parse('0.6'))).toBeLessThan(0);
  });

  it('the same scenario played well charges nothing: the unsavable person is an unavoidable loss only', async () => {
    const t = await scoreOne(ATTRIBUTION);
    expect([t.people!.avoidable_casualties, t.people!.avoidable_stranded, t.people!.unavoidable_stranded_ids]).toEqual([0, 0, ['p0004']]);
    expect(t.score).toBe('100.000000000');
  });
});

describe('test_real_episode_unavoidable_door_queue_is_not_charged', () => {
  it('queueing at the only door costs no Time: Q_cut > Q_exit > sum(L_i) and Time = 1', async () => {
    const t = await scoreOne(DOOR);
    const ref = t.references!;
    expect(t.people!.evacuated).toBe(18);
    expect(ref.earliest_sum).toBeLessThan(ref.evacuee_time_queue_bound);
    // The door (one per step) binds harder than the two exits: the cut bound sees it, the exit bound cannot.
    expect(ref.evacuee_time_queue_bound).toBeLessThan(ref.evacuee_time_cut_bound);
    expect(t.actual!.evacuation_steps).toBe(ref.evacuee_time_cut_bound);
    expect(t.breakdown!.components.time).toBe('1.000000000000');
    // Judged against sum(L_i) alone, the same run would look slow.
    expect(ref.earliest_sum / t.actual!.evacuation_steps).toBeLessThan(0.7);
    expect(t.score).toBe('100.000000000');
  });
});

describe('test_real_episode_avoidable_queue_is_charged', () => {
  it('sending everyone to one exit while the other is free lowers Time clearly, and below a balanced agent', async () => {
    const oneExit = await scoreOne(TWO_EXITS, exitSeekingAgent(() => 0));
    const balanced = await scoreOne(TWO_EXITS, exitSeekingAgent(nearestExit(TWO_EXITS_OPEN)));
    const timeOne = ratio(oneExit.breakdown!.components.time);
    const timeBalanced = ratio(balanced.breakdown!.components.time);
    expect(oneExit.references).toEqual(balanced.references);
    expect(timeOne.cmp(Rational.parse('0.8'))).toBeLessThan(0);
    expect(timeOne.cmp(timeBalanced)).toBeLessThan(0);
    expect(timeBalanced.cmp(Rational.parse('0.95'))).toBeGreaterThan(0);
    expect(Rational.parse(oneExit.score!).cmp(Rational.parse(balanced.score!))).toBeLessThan(0);
    expect(oneExit.people!.evacuated).toBe(9);
  });
});

describe('test_congestion_blocks_are_diagnostics_not_score_inputs', () => {
  it('the same trajectory with and without blocked moves gets the same score and evidence; only the diagnostics differ', async () => {
    const suite = fixtureSuite([DOOR, TWO_EXITS]);
    const manifest = manifestOf(suite, ['0', '1']);
    const plain = await runTrial(suite, manifest, 'model', fireAware);
    const scrubbed = await runTrial(suite, manifest, 'model', blockScrubFactory(fireAware));
    const a = buildScoreReport({ suite, trials: [plain.authenticated], target: { kind: 'suite' } });
    const b = buildScoreReport({ suite, trials: [scrubbed.authenticated], target: { kind: 'suite' } });
    expect(a.diagnostics.congestion.blocked_moves).toBeGreaterThan(0);
    expect(b.diagnostics.congestion.blocked_moves).toBe(0);
    expect(a.diagnostics.congestion.block_rate).not.toBe(b.diagnostics.congestion.block_rate);
    expect(b.score).toBe(a.score);
    expect(b.components).toEqual(a.components);
    const withoutActionLog = (t: EpisodeTrialEvidence) => ({ ...t, record_digest: null, congestion: null });
    a.episodes.forEach((episode, i) => {
      expect(b.episodes[i]!.trials.map(withoutActionLog)).toEqual(episode.trials.map(withoutActionLog));
    });
  });
});

describe('episode statuses and failures', () => {
  it('M* = 0 is not applicable, committed or failed, for every model', async () => {
    const suite = fixtureSuite([SEALED, ATTRIBUTION]);
    const manifest = manifestOf(suite, ['0']);
    const committed = await runTrial(suite, manifest, 'model', fireAware);
    const missing = await runTrial(suite, manifest, 'model', fireAware, { skip: new Set([0, 1]) });
    const report = buildScoreReport({ suite, trials: [committed.authenticated, missing.authenticated], target: { kind: 'suite' } });
    const [sealed, attribution] = report.episodes;
    expect(sealed!.applicable).toBe(false);
    expect(sealed!.score).toBeNull();
    expect(sealed!.trials.map((t) => [t.status, t.score, t.failure?.kind ?? null])).toEqual([
      ['not_applicable', null, null],
      ['not_applicable', null, 'missing'],
    ]);
    expect(sealed!.trials[0]!.people!.unavoidable_stranded_ids).toEqual(['p0000']);
    expect(attribution!.trials.map((t) => [t.status, t.score, t.failure?.kind ?? null])).toEqual([
      ['scored', '100.000000000', null],
      ['failed', '0.000000000', 'missing'],
    ]);
    expect(attribution!.score).toBe('50/1');
    expect(report.episode_trials).toEqual({ total: 4, applicable: 2, not_applicable: 2, scored: 1, catastrophic: 0, failed: 1 });
    expect(report.zero_score).toEqual({ catastrophic: 0, missing: 1, invalid_output: 0, model_error: 0, timeout: 0, total: 1 });
  });

  it('an avoidable loss rate of 1/2 or more is catastrophic and scores 0', async () => {
    const t = await scoreOne(ATTRIBUTION, holdingAgent(fireAware, ['p0000', 'p0001']));
    expect([t.status, t.score, t.people!.avoidable_casualties + t.people!.avoidable_stranded]).toEqual(['catastrophic', '0.000000000', 2]);
    expect(t.breakdown!.safety).toBe('0.000000000000');
  });

  it('declared failures keep their kind; extra declarations merge, and conflicts, committed or unscheduled indices are rejected', async () => {
    const suite = fixtureSuite([ATTRIBUTION, DOOR]);
    const manifest = manifestOf(suite, ['0', '1']);
    const trial = await runTrial(suite, manifest, 'model', fireAware, {
      skip: new Set([1, 2, 3]),
      failures: [{ index: 1, kind: 'timeout', message: 'deadline' }],
    });
    const result = trial.authenticated;
    const merged = mergeFailures(result, [{ index: 2, kind: 'model_error', message: 'raised' }, { index: 1, kind: 'timeout', message: 'deadline' }], 'f.json');
    expect([...merged.entries()]).toEqual([
      [1, { kind: 'timeout', message: 'deadline' }],
      [2, { kind: 'model_error', message: 'raised' }],
    ]);
    expect(() => mergeFailures(result, [{ index: 1, kind: 'invalid_output', message: 'deadline' }], 'f.json')).toThrow(/conflicts with the result's own declaration/);
    expect(() => mergeFailures(result, [{ index: 0, kind: 'timeout', message: '' }], 'f.json')).toThrow(/has a committed result/);
    expect(() => mergeFailures(result, [{ index: 4, kind: 'timeout', message: '' }], 'f.json')).toThrow(/not a scheduled episode/);
    const report = buildScoreReport({ suite, trials: [result], failures: [[{ index: 2, kind: 'invalid_output', message: 'bad json' }]], target: { kind: 'suite' } });
    expect(report.episodes.map((e) => e.trials[0]!.failure?.kind ?? e.trials[0]!.status)).toEqual(['scored', 'timeout', 'invalid_output', 'missing']);
    expect(report.trials).toEqual([{ trial: 0, result_digest: result.digest, committed_episodes: 1, declared_failures: 2, missing_episodes: 1 }]);
  });
});

describe('bounds', () => {
  it('rejects an actual value below its privileged bound as a scoring input error', async () => {
    const suite = fixtureSuite([DOOR]);
    const trial = await runTrial(suite, manifestOf(suite, ['0']), 'model', fireAware);
    const episode = trial.authenticated.episodes[0]!;
    const refs = episodeReferences(episode.start);
    const routes = routeEventsOf(episode.start, refs, episode.record, 'door');
    const facts = episodeFacts(episode, refs, routes);
    expect(scoreFromFacts(facts).score).toBe('100.000000000');
    // A forged trajectory: one evacuee claims fewer cells than any escape needs.
    const cellsMoved = Int32Array.from(episode.persons.cellsMoved);
    cellsMoved[0] = 0;
    const forged = { ...episode, persons: { ...episode.persons, cellsMoved } };
    expect(() => episodeFacts(forged, refs, routes)).toThrow(ValidationError);
    expect(() => episodeFacts(forged, refs, routes)).toThrow(/scoring input error: p0000 moved 0 cells/);
    // And the episode score itself refuses a ratio above 1.
    expect(() => scoreEpisode({ ...scoreInputOf(facts), time: { bound: 10, actual: 9 } })).toThrow(/below its privileged bound/);
  });
});
