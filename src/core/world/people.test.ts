import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { FLOOR } from './grid.js';
import { findZoneShortfall, placePeople, staticEligibility } from './people.js';
import { parseScenarioText } from './scenario.js';
import type { Scenario } from './scenario-types.js';

const fixture = (name: string) =>
  parseScenarioText(readFileSync(new URL(`../../../test/fixtures/world/${name}`, import.meta.url), 'utf8'), name);

// People cells from an independent Python implementation of environment.md
// sections 2 and 5 (see fire.test.ts), on test/fixtures/world/mixed.json.
const PY_MIXED_PEOPLE: Record<string, number[][]> = {
  '0': [[1,1],[3,4],[2,4],[3,2],[2,1],[3,3],[3,7],[4,3],[4,7],[3,8],[4,2],[3,9],[6,9]],
  '1': [[1,1],[3,1],[4,3],[3,2],[2,2],[2,1],[4,7],[4,6],[4,4],[3,9],[3,4],[6,6],[6,9]],
  '18446744073709551615': [[1,1],[2,3],[4,3],[3,1],[4,4],[2,1],[4,7],[5,2],[3,10],[6,4],[4,2],[4,1],[6,9]],
};
const PY_HALL_0_FIRST_20 = [[25,50],[38,38],[19,11],[26,10],[15,48],[1,18],[14,55],[20,24],[26,37],[19,17],[17,4],[34,28],[3,19],[19,16],[38,37],[27,22],[34,4],[19,30],[30,58],[27,41]];

const pairs = (scenario: Scenario, cells: Int32Array) =>
  Array.from(cells, (c) => [Math.floor(c / scenario.grid.cols), c % scenario.grid.cols]);

describe('placePeople', () => {
  it.each(Object.entries(PY_MIXED_PEOPLE))('matches the Python reference on the mixed fixture, seed %s', (seed, expected) => {
    const scenario = fixture('mixed.json');
    expect(pairs(scenario, placePeople(scenario, seed))).toEqual(expected);
  });

  it('matches the Python reference on the large hall (400 people drawn from one zone)', () => {
    const scenario = fixture('large-hall.json');
    const cells = placePeople(scenario, '0');
    expect(cells).toHaveLength(400);
    expect(pairs(scenario, cells).slice(0, 20)).toEqual(PY_HALL_0_FIRST_20);
    expect(new Set(cells).size).toBe(400);
  });

  it('is deterministic and depends on the seed', () => {
    const scenario = fixture('mixed.json');
    expect(placePeople(scenario, '42')).toEqual(placePeople(scenario, '42'));
    expect(placePeople(scenario, '42')).not.toEqual(placePeople(scenario, '43'));
  });

  it('keeps the eligibility rules for every seed', () => {
    const scenario = fixture('mixed.json');
    const forbidden = new Set<number>([
      ...scenario.ignitions.filter((i) => i.step === 0).map((i) => i.cell),
      ...scenario.candidateCells,
    ]);
    const explicit = scenario.placements.flatMap((p) => (p.kind === 'cell' ? [p.cell] : []));
    for (let seed = 0; seed < 200; seed++) {
      const cells = Array.from(placePeople(scenario, String(seed)));
      expect(new Set(cells).size).toBe(cells.length);
      // Placement order: cell, 5 of zone 0, 6 of zone 1, cell.
      expect(cells[0]).toBe(explicit[0]);
      expect(cells[12]).toBe(explicit[1]);
      const zoneCells = cells.slice(1, 12);
      for (const cell of zoneCells) {
        expect(scenario.grid.kinds[cell]).toBe(FLOOR);
        expect(forbidden.has(cell)).toBe(false);
        expect(explicit.includes(cell)).toBe(false);
      }
      for (const cell of zoneCells.slice(0, 5)) expect(inZone(scenario, cell, 1, 1, 4, 4)).toBe(true);
      for (const cell of zoneCells.slice(5)) expect(inZone(scenario, cell, 3, 1, 6, 10)).toBe(true);
    }
  });

  it('fails closed when a hand-built scenario runs a zone out of cells', () => {
    const scenario = fixture('mixed.json');
    const broken: Scenario = { ...scenario, placements: [{ kind: 'zone', r0: 1, c0: 1, r1: 1, c1: 2, count: 3 }], population: 3 };
    expect(() => placePeople(broken, '0')).toThrow(ValidationError);
    expect(() => placePeople(broken, '0')).toThrow('test-mixed: people[0].zone: 2 eligible cells for count 3');
    const miscounted: Scenario = { ...scenario, population: 12 };
    expect(() => placePeople(miscounted, '0')).toThrow('test-mixed: people: placements give 13 people, population is 12');
  });
});

describe('zone eligibility', () => {
  const scenario = fixture('mixed.json');

  it('excludes walls, exits, step-0 ignitions, candidates and explicit cells, but not later ignitions', () => {
    const eligible = staticEligibility(scenario.grid, scenario.placements, scenario.ignitions, scenario.candidateCells);
    const at = (r: number, c: number) => eligible[r * scenario.grid.cols + c];
    expect([at(0, 0), at(0, 5), at(3, 5), at(1, 8), at(4, 8), at(1, 1), at(6, 9)]).toEqual([0, 0, 0, 0, 0, 0, 0]);
    // (3, 6) ignites at step 1 and (6, 1) at step 4: still eligible.
    expect([at(3, 6), at(6, 1), at(2, 2)]).toEqual([1, 1, 1]);
  });

  it('reports the worst case of earlier overlapping zones', () => {
    const grid = scenario.grid;
    const eligible = new Uint8Array(grid.kinds.length).fill(1);
    const zone = (r0: number, c0: number, r1: number, c1: number, count: number) => ({ kind: 'zone' as const, r0, c0, r1, c1, count });
    // A 2x2 zone after a zone of count 3 covering half of it: at most 2 taken, 2 left.
    expect(findZoneShortfall(grid, [zone(0, 0, 0, 5, 3), zone(0, 0, 1, 1, 2)], eligible)).toBeNull();
    expect(findZoneShortfall(grid, [zone(0, 0, 0, 5, 3), zone(0, 0, 1, 1, 3)], eligible)).toEqual({
      index: 1,
      eligible: 4,
      reservable: 2,
      count: 3,
    });
    // Disjoint zones do not interact; a later zone does not constrain an earlier one.
    expect(findZoneShortfall(grid, [zone(0, 0, 0, 1, 2), zone(1, 0, 1, 1, 2)], eligible)).toBeNull();
    expect(findZoneShortfall(grid, [zone(0, 0, 0, 0, 1), zone(0, 0, 3, 3, 15)], eligible)).toBeNull();
    expect(findZoneShortfall(grid, [zone(0, 0, 0, 0, 1), zone(0, 0, 3, 3, 16)], eligible)?.index).toBe(1);
  });
});

function inZone(scenario: Scenario, cell: number, r0: number, c0: number, r1: number, c1: number): boolean {
  const r = Math.floor(cell / scenario.grid.cols);
  const c = cell % scenario.grid.cols;
  return r >= r0 && r <= r1 && c >= c0 && c <= c1;
}
