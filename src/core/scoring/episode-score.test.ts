import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { canonicalJson } from '../json/canonical.js';
import { COMPONENT_PLACES, SCORE_PLACES, SCORING_CONSTANTS, SCORING_CONSTANTS_DIGEST } from './constants.js';
import { SCORING_PRECISION, toExact } from './decimal.js';
import { BETA, episodeScoreDigits, scoreEpisode, type EpisodeScoreInput } from './episode-score.js';

/** Perfect except as overridden: M* = population = 100, all quality components 1, replanning undefined. */
function episode(over: Partial<EpisodeScoreInput> = {}): EpisodeScoreInput {
  return {
    maxEvacuated: 100,
    population: 100,
    evacuated: 100,
    avoidableCasualties: 0,
    avoidableStranded: 0,
    time: { bound: 50, actual: 50 },
    hazard: { dangerStates: 0, fewestDangerStates: 0, evacuationSteps: 50 },
    path: { bound: 20, actual: 20 },
    replanning: null,
    ...over,
  };
}

function lossEpisode(m: number, c: number, s: number, over: Partial<EpisodeScoreInput> = {}): EpisodeScoreInput {
  return episode({ maxEvacuated: m, population: m, evacuated: m - c - s, avoidableCasualties: c, avoidableStranded: s, ...over });
}

function points(input: EpisodeScoreInput): number {
  // Comparing the 9-place strings as numbers is exact enough for the orderings tested here.
  return Number(scoreEpisode(input).score);
}

describe('the official constants', () => {
  it('are pinned by the SHA-256 of their canonical JSON', () => {
    const digest = createHash('sha256').update(canonicalJson(SCORING_CONSTANTS)).digest('hex');
    expect(SCORING_CONSTANTS_DIGEST).toBe(digest);
    // A change of any constant changes the scoring version (section 1): update this pin only with it.
    expect(SCORING_CONSTANTS_DIGEST).toBe('005f4c31d163428ff781eea842fa2367ba2c7d8fa3b132e18384938b045d7925');
  });

  it('agree with the arithmetic settings in use', () => {
    expect(Number(SCORING_CONSTANTS.precision)).toBe(SCORING_PRECISION);
    expect(COMPONENT_PLACES).toBe(12);
    expect(SCORE_PLACES).toBe(9);
  });

  it('give beta = ln 0.6 / ln 0.5 = 0.7369655941662...', () => {
    expect(toExact(BETA)).toBe('0.7369655941662061664165804855415736671050169853321');
    expect(scoreEpisode(episode()).beta).toBe('0.736965594166');
  });
});

describe('scoreEpisode', () => {
  it('scores a perfect episode 100 with every component 1', () => {
    const r = scoreEpisode(episode());
    expect(r).toEqual({
      status: 'scored',
      components: { evacuation: '1.000000000000', casualty: '1.000000000000', stranding: '1.000000000000', time: '1.000000000000', hazard: '1.000000000000', path: '1.000000000000', replanning: null },
      safety: '1.000000000000',
      quality: '1.000000000000',
      beta: '0.736965594166',
      severity: '1.000000000000',
      severe: [],
      ceiling: '100.000000000',
      score: '100.000000000',
    });
  });

  it('computes one avoidable casualty in 100 as 100 * 0.99^2 * 0.6 * 0.99^4', () => {
    const r = scoreEpisode(lossEpisode(100, 1, 0));
    expect(r.components.evacuation).toBe('0.980100000000');
    expect(r.components.casualty).toBe('0.576357606000');
    // 0.9801 * 0.576357606 = 0.5648880896406 (13 places, exact).
    expect(r.safety).toBe('0.564888089641');
    expect(r.score).toBe('56.488808964');
    expect(episodeScoreDigits(lossEpisode(100, 1, 0)).score).toBe('56.48880896406');
  });

  it('accepts bigint and number counts alike', () => {
    const big: EpisodeScoreInput = { ...lossEpisode(100, 3, 2), maxEvacuated: 100n, evacuated: 95n, avoidableCasualties: 3n, avoidableStranded: 2n, population: 100n };
    expect(scoreEpisode(big)).toEqual(scoreEpisode(lossEpisode(100, 3, 2)));
  });

  it('is not_applicable when M* = 0', () => {
    const r = scoreEpisode(episode({ maxEvacuated: 0, population: 7, evacuated: 0, time: null, hazard: null, path: null }));
    expect(r.status).toBe('not_applicable');
    expect(r.score).toBeNull();
    expect(r.safety).toBeNull();
  });

  it('applies the catastrophic gate exactly at (c + s) / M* >= 1/2', () => {
    expect(scoreEpisode(lossEpisode(100, 30, 19)).status).toBe('scored');
    expect(scoreEpisode(lossEpisode(100, 30, 20)).status).toBe('catastrophic');
    expect(scoreEpisode(lossEpisode(101, 0, 50)).status).toBe('scored');
    const gated = scoreEpisode(lossEpisode(101, 1, 50));
    expect(gated.status).toBe('catastrophic');
    expect(gated.score).toBe('0.000000000');
    expect(gated.safety).toBe('0.000000000000');
    expect(gated.ceiling).toBe('0.000000000');
    // The Safety factors are still reported.
    expect(Number(gated.components.evacuation)).toBeGreaterThan(0);
  });

  it('reports Quality as undefined without an evacuee (always catastrophic)', () => {
    const r = scoreEpisode(lossEpisode(4, 3, 1, { time: null, hazard: null, path: null }));
    expect(r.status).toBe('catastrophic');
    expect(r.quality).toBeNull();
    expect(r.components.time).toBeNull();
    expect(r.score).toBe('0.000000000');
  });

  it('decides severe failures on exact ratios, strictly, not on rounded values', () => {
    // 0.4999999999999999 rounds to 0.500000000000 but is below 1/2: severe.
    const justBelow = scoreEpisode(episode({ time: { bound: 4999999999999999n, actual: 10000000000000000n } }));
    expect(justBelow.components.time).toBe('0.500000000000');
    expect(justBelow.severe).toEqual(['time']);
    expect(scoreEpisode(episode({ time: { bound: 1, actual: 2 } })).severe).toEqual([]);
    // Hazard: an avoidable rate of exactly 1/4 is not severe, one state more is.
    expect(scoreEpisode(episode({ hazard: { dangerStates: 35, fewestDangerStates: 10, evacuationSteps: 100 } })).severe).toEqual([]);
    expect(scoreEpisode(episode({ hazard: { dangerStates: 36, fewestDangerStates: 10, evacuationSteps: 100 } })).severe).toEqual(['hazard']);
  });

  it('multiplies phi * q / q_severe per severe component, in component order', () => {
    const one = scoreEpisode(episode({ time: { bound: 2, actual: 5 } }));
    expect(one.severity).toBe('0.640000000000');
    expect(one.ceiling).toBe('64.000000000');
    const two = scoreEpisode(episode({ path: { bound: 1, actual: 4 }, time: { bound: 2, actual: 5 }, replanning: { bound: 1, actual: 1 } }));
    expect(two.severe).toEqual(['time', 'path']);
    expect(two.severity).toBe('0.256000000000'); // 0.8 * 0.8 * 0.8 * 0.5
    expect(Number(two.score)).toBeLessThan(64);
  });

  it('makes Quality 0 when a defined component is 0', () => {
    const r = scoreEpisode(episode({ hazard: { dangerStates: 50, fewestDangerStates: 0, evacuationSteps: 50 } }));
    expect(r.components.hazard).toBe('0.000000000000');
    expect(r.quality).toBe('0.000000000000');
    expect(r.score).toBe('0.000000000');
    expect(r.status).toBe('scored');
  });

  it('renormalizes the weights over the defined components', () => {
    // Only Time is below 1: with replanning defined Quality = 0.9 ^ (3/8), without it 0.9 ^ (3/6) (digits from Python).
    const withR = episodeScoreDigits(episode({ time: { bound: 9, actual: 10 }, replanning: { bound: 3, actual: 3 } }));
    const withoutR = episodeScoreDigits(episode({ time: { bound: 9, actual: 10 } }));
    expect(withR.quality).toBe('0.9612601554586078208698841765113514982818199307692');
    expect(withoutR.quality).toBe('0.94868329805051379959966806332981556011586654179757');
  });

  const reject: [string, Partial<EpisodeScoreInput>][] = [
    ['a negative count', { avoidableStranded: -1, evacuated: 101 }],
    ['a non-integer count', { population: 100.5 }],
    ['M* above the population', { maxEvacuated: 101, evacuated: 101 }],
    ['counts that do not add up to M*', { evacuated: 99 }],
    ['an actual time below its bound', { time: { bound: 51, actual: 50 } }],
    ['a zero actual value', { path: { bound: 0, actual: 0 } }],
    ['danger states below D*', { hazard: { dangerStates: 1, fewestDangerStates: 2, evacuationSteps: 50 } }],
    ['avoidable danger states above the steps', { hazard: { dangerStates: 51, fewestDangerStates: 0, evacuationSteps: 50 } }],
    ['a missing component with evacuees', { time: null }],
    ['a replanning ratio above 1', { replanning: { bound: 3, actual: 2 } }],
  ];
  it.each(reject)('rejects %s as a scoring input error', (_name, over) => {
    expect(() => scoreEpisode(episode(over))).toThrow(ValidationError);
    expect(() => scoreEpisode(episode(over))).toThrow(/^scoring input error: /);
  });

  it('rejects components or replanning that cannot exist without savable people', () => {
    expect(() => scoreEpisode(episode({ maxEvacuated: 0, evacuated: 0, population: 1 }))).toThrow(/undefined without an evacuee/);
    expect(() => scoreEpisode(episode({ maxEvacuated: 0, evacuated: 0, time: null, hazard: null, path: null, replanning: { bound: 1, actual: 1 } }))).toThrow(/M\* is 0/);
  });
});

describe('the ceilings of section 5 (random episodes)', () => {
  const quality = fc.record({
    time: fc.integer({ min: 1, max: 1000 }),
    hazard: fc.integer({ min: 0, max: 1000 }),
    path: fc.integer({ min: 1, max: 1000 }),
    replanning: fc.option(fc.integer({ min: 1, max: 1000 }), { nil: undefined }),
  });
  function withQuality(m: number, c: number, s: number, q: { time: number; hazard: number; path: number; replanning: number | undefined }): EpisodeScoreInput {
    return lossEpisode(m, c, s, {
      time: { bound: q.time, actual: 1000 },
      hazard: { dangerStates: 1000 - q.hazard, fewestDangerStates: 0, evacuationSteps: 1000 },
      path: { bound: q.path, actual: 1000 },
      replanning: q.replanning === undefined ? null : { bound: q.replanning, actual: 1000 },
    });
  }
  const run = { numRuns: 150, seed: 20261130 };

  it('any avoidable casualty scores at most 60', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 1_000_000 }), fc.integer({ min: 1, max: 20 }), quality, (m, c, q) => {
        const cc = Math.min(c, m - 1);
        expect(points(withQuality(m, cc, 0, q))).toBeLessThanOrEqual(60);
      }),
      run,
    );
  });

  it('any avoidable stranded person scores at most 100 * 0.8 * (1 - 1/M*)^4 < 80', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 1_000_000 }), fc.integer({ min: 1, max: 20 }), quality, (m, s, q) => {
        const score = points(withQuality(m, 0, Math.min(s, m - 1), q));
        expect(score).toBeLessThan(80);
        expect(score).toBeLessThanOrEqual(80 * (1 - 1 / m) ** 4 + 1e-9);
      }),
      run,
    );
  });

  it('one severe failure scores below 80, two below 64', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 499 }), fc.integer({ min: 1, max: 499 }), (t, p) => {
        expect(points(episode({ time: { bound: t, actual: 1000 } }))).toBeLessThan(80);
        expect(points(episode({ time: { bound: t, actual: 1000 }, path: { bound: p, actual: 1000 } }))).toBeLessThan(64);
      }),
      run,
    );
  });

  it('one avoidable casualty scores below one avoidable stranded person in the same episode (M* >= 3; at M* = 2 both are gated to 0)', () => {
    for (let m = 2; m <= 1000; m++) {
      const casualty = points(lossEpisode(m, 1, 0));
      const stranded = points(lossEpisode(m, 0, 1));
      if (m === 2) expect([casualty, stranded]).toEqual([0, 0]);
      else expect(casualty).toBeLessThan(stranded);
    }
  });
});
