import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { sha256Hex } from '../hash.js';
import { canonicalJson, type JsonObject } from '../json/canonical.js';
import { buildFireWorld, fireGrowth, fireWorldDigest, spreadThresholds } from './fire.js';
import { parseScenarioText, validateScenario } from './scenario.js';
import { NEVER } from './scenario-types.js';

const fixture = (name: string) =>
  parseScenarioText(readFileSync(new URL(`../../../test/fixtures/world/${name}`, import.meta.url), 'utf8'), name);

// Vectors of an independent Python implementation of environment.md section 5
// (hashlib, fractions.Fraction for T_k, a full row-major scan per step),
// run on test/fixtures/world/*.json when these tests were written.
const PY_MIXED_DIGESTS: Record<string, string> = {
  '0': '326460f2e74de0208ea013da558d20ddfb8869ff231444b6da0021045340cb83',
  '1': '7a8a9971ddbccfcdcbe00bf6bf642b2b20081e57fd598005f9d3897321bb6f60',
  '18446744073709551615': '22489af1f631cdc6cbdc9fa44fe29b248cdd4e1cf938b655a0cf3bda7cb26902',
};
// The same reference, but skipping the draw of a cell scheduled to ignite at
// t+1: what a wrong implementation would give for seed 0.
const PY_MIXED_0_SKIPPING_SCHEDULED_DRAWS = '510a20b53bfa906be04b56e9018aae51c355fce46499a0920acebe81eb182417';
const PY_MIXED_0_STEPS = [[[1,8],[3,5],[6,5]],[[2,8],[3,4],[3,6],[6,6]],[[2,4],[2,7],[2,9],[2,11],[3,3],[3,7],[3,8],[5,6]],[[1,7],[1,9],[2,6],[3,2],[4,3],[6,4]],[[1,6],[2,3],[3,9],[4,2],[4,4],[4,8],[6,1],[6,7],[7,6]],[[1,3],[1,4],[2,2],[3,10],[4,1],[4,9],[6,2],[6,3],[6,8]],[[1,2],[2,10],[3,1],[4,6],[4,7],[4,10],[5,2],[6,9]],[[1,10]],[[2,1]],[[1,1]],[],[],[],[],[],[[6,10]],...Array<never[]>(25).fill([])];
const PY_HALL_0 = { digest: 'f6910c873f471655274996df6af0ff3652611e05fa081b7269b4765d603b90cc', burned: 2209, lastIgnition: 81 };

describe('spreadThresholds', () => {
  // python3: [int((1 - (1 - Fraction(p)) ** k) * 2 ** 32) for k in 1..4]
  it.each([
    ['0.25', [1073741824, 1879048192, 2483027968, 2936012800]],
    ['1', [4294967296, 4294967296, 4294967296, 4294967296]],
    ['0', [0, 0, 0, 0]],
    ['0.1', [429496729, 816043786, 1163936137, 1477039253]],
    ['0.5', [2147483648, 3221225472, 3758096384, 4026531840]],
    ['0.999', [4290672328, 4294963001, 4294967291, 4294967295]],
    ['0.3333333333333333333333333', [1431655765, 2386092942, 3022384393, 3446578694]],
  ])('p = %s', (p, expected) => {
    expect(spreadThresholds(p)).toEqual([0, ...expected]);
  });

  it('rejects a non-canonical probability', () => {
    expect(() => spreadThresholds('0.50')).toThrow(ValidationError);
    expect(() => spreadThresholds('1.5')).toThrow(ValidationError);
  });
});

function corridor(p: string, ignitions: JsonObject[], maxSteps = 5) {
  return validateScenario(
    {
      schema_version: '1.0',
      scenario_id: 'corridor',
      title: 'Corridor',
      families: ['test'],
      map: ['#######', 'E.....#', '#######'],
      people: [{ cell: [1, 1] }],
      fire: { ignitions, spread_probability: p },
      max_steps: maxSteps,
      development_seed: '0',
    },
    'corridor.json',
  );
}

describe('buildFireWorld', () => {
  it('spreads one cell per step when p = 1 (hand-checked), burning the exit too', () => {
    const world = buildFireWorld(corridor('1', [{ cell: [1, 5], step: 0 }], 6), '9');
    expect(world.newlyBurning).toEqual([[12], [11], [10], [9], [8], [7], []]);
    expect(Array.from(world.ignitionStep.slice(7, 14))).toEqual([5, 4, 3, 2, 1, 0, NEVER]);
    expect(world.ignitionStep[0]).toBe(NEVER);
    expect(world.maxSteps).toBe(6);
  });

  it('only burns the scheduled cells when p = 0, at their steps', () => {
    const world = buildFireWorld(corridor('0', [{ cell: [1, 5], step: 0 }, { cell: [1, 2], step: 3 }, { cell: [1, 0], step: 5 }]), '0');
    expect(world.newlyBurning).toEqual([[12], [], [], [9], [], [7]]);
    expect(world.ignitionStep[9]).toBe(3);
  });

  it('adds nothing for a scheduled cell that already burns', () => {
    const world = buildFireWorld(corridor('1', [{ cell: [1, 5], step: 0 }, { cell: [1, 4], step: 2 }]), '0');
    expect(world.newlyBurning).toEqual([[12], [11], [10], [9], [8], [7]]);
  });

  it('writes the digest as the SHA-256 of canonical [[row, col], ...] arrays', () => {
    const world = buildFireWorld(corridor('1', [{ cell: [1, 5], step: 0 }]), '0');
    const value = [[[1, 5]], [[1, 4]], [[1, 3]], [[1, 2]], [[1, 1]], [[1, 0]]];
    expect(world.digest).toBe(sha256Hex(canonicalJson(value)));
    expect(fireWorldDigest(corridor('1', []).grid, [[], [7, 12]])).toBe(sha256Hex('[[],[[1,0],[1,5]]]'));
  });

  it.each(Object.entries(PY_MIXED_DIGESTS))('matches the Python reference on the mixed fixture, seed %s', (seed, digest) => {
    expect(buildFireWorld(fixture('mixed.json'), seed).digest).toBe(digest);
  });

  it('matches the Python trajectory step by step, drawing for cells scheduled at t+1', () => {
    const scenario = fixture('mixed.json');
    const world = buildFireWorld(scenario, '0');
    const cols = scenario.grid.cols;
    expect(world.newlyBurning.map((cells) => cells.map((c) => [Math.floor(c / cols), c % cols]))).toEqual(PY_MIXED_0_STEPS);
    expect(world.digest).not.toBe(PY_MIXED_0_SKIPPING_SCHEDULED_DRAWS);
    // ignitionStep agrees with newlyBurning.
    world.newlyBurning.forEach((cells, t) => cells.forEach((c) => expect(world.ignitionStep[c]).toBe(t)));
    const burned = world.newlyBurning.reduce((n, cells) => n + cells.length, 0);
    expect(Array.from(world.ignitionStep).filter((s) => s !== NEVER)).toHaveLength(burned);
  });

  it('is deterministic and depends on the seed', () => {
    const scenario = fixture('mixed.json');
    const a = buildFireWorld(scenario, '5');
    const b = buildFireWorld(scenario, '5');
    expect(b.digest).toBe(a.digest);
    expect(b.newlyBurning).toEqual(a.newlyBurning);
    expect(buildFireWorld(scenario, '6').digest).not.toBe(a.digest);
  });

  it('matches the Python reference on the 60 x 40 large hall (H = 300)', () => {
    const world = buildFireWorld(fixture('large-hall.json'), '0');
    expect(world.digest).toBe(PY_HALL_0.digest);
    expect(world.newlyBurning).toHaveLength(301);
    expect(world.newlyBurning.reduce((n, cells) => n + cells.length, 0)).toBe(PY_HALL_0.burned);
    expect(Math.max(...Array.from(world.ignitionStep).filter((s) => s !== NEVER))).toBe(PY_HALL_0.lastIgnition);
  });

  it('computes step by step as an episode reads it, with the very cells of the whole computation', () => {
    const scenario = fixture('large-hall.json');
    const whole = buildFireWorld(scenario, '0');
    const lazy = buildFireWorld(scenario, '0');
    const growth = fireGrowth(lazy);
    for (let t = 0; t <= 40; t++) {
      expect(growth.newlyAt(t)).toEqual(whole.newlyBurning[t]);
      // Up to t, membership in B(t) reads right; nothing later is marked yet.
      for (let cell = 0; cell < growth.ignitionStep.length; cell++) {
        const step = whole.ignitionStep[cell]!;
        expect(growth.ignitionStep[cell]).toBe(step <= t ? step : NEVER);
      }
    }
    // A later snapshot first, then an earlier one; then the whole trajectory and its digest.
    expect(growth.newlyAt(200)).toEqual(whole.newlyBurning[200]);
    expect(growth.newlyAt(60)).toEqual(whole.newlyBurning[60]);
    expect(lazy.newlyBurning).toEqual(whole.newlyBurning);
    expect(growth.ignitionStep).toBe(lazy.ignitionStep);
    expect(lazy.digest).toBe(PY_HALL_0.digest);
    expect(() => growth.newlyAt(301)).toThrow(RangeError);
  });

  it('reads a fire world given whole (a plain object) as it is, and refuses one short of its horizon', () => {
    const whole = buildFireWorld(corridor('1', [{ cell: [1, 5], step: 0 }], 6), '9');
    const plain = { maxSteps: 6, ignitionStep: whole.ignitionStep, newlyBurning: whole.newlyBurning, digest: whole.digest };
    expect(fireGrowth(plain).newlyAt(3)).toEqual([9]);
    expect(fireGrowth(plain).ignitionStep).toBe(whole.ignitionStep);
    expect(() => fireGrowth({ ...plain, newlyBurning: whole.newlyBurning.slice(0, 6) })).toThrow(RangeError);
  });
});
