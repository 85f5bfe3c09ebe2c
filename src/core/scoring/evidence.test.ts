// The evidence validator on evidence from real replayed episodes, and on
// tampered copies of it: every tampering is rejected with a message that
// names the field.
import { beforeAll, describe, expect, it } from 'vitest';
import { baselineFactory } from '../baselines/registry.js';
import { ValidationError } from '../errors.js';
import type { EpisodeEvidence, EpisodeTrialEvidence } from './evidence.js';
import { validateEpisodeEvidence } from './evidence.js';
import { buildScoreReport } from './report.js';
import { ATTRIBUTION, DOOR, SEALED, fixtureSuite, holdingAgent, manifestOf, runTrial, type Mutable } from '../../../test/kits/score-kit.js';

const fireAware = baselineFactory('fire-aware-shortest-path-v1')!;
let episodes: readonly EpisodeEvidence[];

beforeAll(async () => {
  const suite = fixtureSuite([ATTRIBUTION, DOOR, SEALED]);
  const manifest = manifestOf(suite, ['0']);
  // Trial 0 holds p0000 (an avoidable casualty in `attribution`); trial 1 has no result for `door`.
  const held = await runTrial(suite, manifest, 'model', holdingAgent(fireAware, ['p0000']));
  const partial = await runTrial(suite, manifest, 'model', fireAware, { skip: new Set([1]) });
  episodes = buildScoreReport({ suite, trials: [held.authenticated, partial.authenticated], target: { kind: 'suite' } }).episodes;
});

/** A deep copy of episode `index` with `edit` applied to its trial `trial`. */
function tampered(index: number, trial: number, edit: (t: Mutable<EpisodeTrialEvidence>) => void): EpisodeEvidence {
  const copy = structuredClone(episodes[index]!) as Mutable<EpisodeEvidence>;
  edit(copy.trials[trial]!);
  return copy as EpisodeEvidence;
}

function check(episode: EpisodeEvidence): () => void {
  return () => validateEpisodeEvidence(episode, 2, 'episodes[0]');
}

describe('validateEpisodeEvidence', () => {
  it('accepts the evidence of real episodes: scored, failed (missing) and not applicable', () => {
    expect(episodes.map((e) => e.trials.map((t) => t.status))).toEqual([
      ['scored', 'scored'],
      ['scored', 'failed'],
      ['not_applicable', 'not_applicable'],
    ]);
    episodes.forEach((e, i) => expect(() => validateEpisodeEvidence(e, 2, `episodes[${i}]`)).not.toThrow());
    expect(episodes[0]!.trials[0]!.people!.avoidable_casualty_ids).toEqual(['p0000']);
  });

  it('rejects overlapping identity sets', () => {
    const bad = tampered(0, 0, (t) => t.people!.unavoidable_stranded_ids.unshift('p0000'));
    expect(check(bad)).toThrow(ValidationError);
    expect(check(bad)).toThrow(/unavoidable_stranded_ids: p0000 is also in avoidable_casualty_ids/);
  });

  it('rejects unsorted or repeated IDs and IDs outside the population', () => {
    expect(check(tampered(0, 0, (t) => t.people!.unavoidable_stranded_ids.push('p0003')))).toThrow(/\[1\]: p0003 is not sorted after p0004/);
    expect(check(tampered(0, 0, (t) => t.people!.unavoidable_stranded_ids.push('p0004')))).toThrow(/not sorted after p0004/);
    expect(check(tampered(0, 0, (t) => (t.people!.unavoidable_stranded_ids[0] = 'p0009')))).toThrow(/not a person of the episode/);
    expect(check(tampered(0, 0, (t) => (t.people!.unavoidable_stranded_ids[0] = 'P4')))).toThrow(/not a person ID/);
  });

  it('rejects counts that do not match the ID sets or M*', () => {
    expect(check(tampered(0, 0, (t) => (t.people!.avoidable_casualties = 0)))).toThrow(/avoidable_casualties: is 0 but 1 IDs are listed/);
    // Moving the casualty to the stranded class keeps the counts consistent but not the outcome classes' sizes.
    expect(check(tampered(0, 0, (t) => (t.people!.evacuated = 4)))).toThrow(/evacuated \+ avoidable losses = 5, but M\* = 4/);
    expect(check(tampered(0, 0, (t) => (t.references!.max_evacuated = 5)))).toThrow(/the episode's M\* is 4/);
  });

  it("rejects a changed score, breakdown or status: they are recomputed from the evidence's own integers", () => {
    expect(check(tampered(0, 0, (t) => (t.score = '56.500000000')))).toThrow(/score: is 56.500000000, the facts give 10.678710938/);
    expect(check(tampered(0, 0, (t) => (t.breakdown!.components.casualty = '0.600000000000')))).toThrow(/breakdown: differs/);
    expect(check(tampered(0, 0, (t) => (t.breakdown!.severe = ['time'])))).toThrow(/breakdown: differs/);
    expect(check(tampered(0, 0, (t) => (t.status = 'catastrophic')))).toThrow(/status: is catastrophic, the facts give scored/);
    // Changed integers with the old breakdown: the recomputed Time differs.
    expect(check(tampered(0, 0, (t) => (t.actual!.evacuation_steps += 1)))).toThrow(/breakdown: differs/);
  });

  it('rejects an actual value below its bound', () => {
    expect(check(tampered(0, 1, (t) => (t.actual!.cells_moved = t.references!.fewest_moves - 1)))).toThrow(/fewest_moves .* exceeds actual.cells_moved/);
    expect(check(tampered(0, 1, (t) => (t.references!.evacuee_time_cut_bound = t.actual!.evacuation_steps + 1)))).toThrow(/an actual value below its bound/);
  });

  it('rejects a changed episode mean and inconsistent failed or not-applicable records', () => {
    const mean = structuredClone(episodes[1]!) as Mutable<EpisodeEvidence>;
    mean.score = '100/1';
    expect(check(mean as EpisodeEvidence)).toThrow(/score: is "100\/1", the mean over trials is "[0-9]+\/[0-9]+"/);
    expect(check(tampered(1, 1, (t) => (t.score = '100.000000000')))).toThrow(/a failed episode-trial has no breakdown and scores 0.000000000/);
    expect(check(tampered(1, 1, (t) => (t.failure = null)))).toThrow(/either an authenticated result/);
    const na = structuredClone(episodes[2]!) as Mutable<EpisodeEvidence>;
    na.applicable = true;
    expect(() => validateEpisodeEvidence(na as EpisodeEvidence, 2, 'episodes[2]')).toThrow(/applicable: must be false when M\* = 0/);
    expect(() => validateEpisodeEvidence(episodes[2]!, 3, 'episodes[2]')).toThrow(/has 2 records, the report has 3 trials/);
  });
});
