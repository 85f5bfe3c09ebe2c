import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { prepareEpisode } from './episode-start.js';
import { buildFireWorld } from './fire.js';
import { placePeople } from './people.js';
import { parseScenarioText } from './scenario.js';

const scenario = parseScenarioText(readFileSync(new URL('../../../test/fixtures/world/mixed.json', import.meta.url), 'utf8'), 'mixed.json');

describe('prepareEpisode', () => {
  it('bundles the fire world and the placed people of (scenario, seed)', () => {
    const start = prepareEpisode(scenario, '1');
    expect(start.scenario).toBe(scenario);
    expect(start.seed).toBe('1');
    // Python reference digest (fire.test.ts).
    expect(start.fire.digest).toBe('7a8a9971ddbccfcdcbe00bf6bf642b2b20081e57fd598005f9d3897321bb6f60');
    expect(start.fire.newlyBurning).toEqual(buildFireWorld(scenario, '1').newlyBurning);
    expect(start.startCells).toEqual(placePeople(scenario, '1'));
  });

  it('rejects a malformed seed', () => {
    expect(() => prepareEpisode(scenario, '007')).toThrow(ValidationError);
    expect(() => prepareEpisode(scenario, '18446744073709551616')).toThrow(/^seed: must be a decimal string/);
  });
});

describe('prepareEpisode reuse', () => {
  it('returns the same frozen start for the same scenario object and seed, and a fresh one otherwise', () => {
    const text = JSON.stringify({
      schema_version: '1.0',
      scenario_id: 'reuse',
      title: 'Reuse',
      families: ['f'],
      map: ['#E#', '#.#', '#.#', '###'],
      people: [{ cell: [2, 1] }],
      fire: { ignitions: [], ignition_candidates: { cells: [[1, 1]], count: 1 }, spread_probability: '0.5' },
      max_steps: 5,
      development_seed: '0',
    });
    const a = parseScenarioText(text, 'a.json');
    const b = parseScenarioText(text, 'b.json');
    const first = prepareEpisode(a, '7');
    expect(prepareEpisode(a, '7')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(prepareEpisode(b, '7')).not.toBe(first);
    expect(prepareEpisode(b, '7').fire.digest).toBe(first.fire.digest);
    // Older seeds are evicted after a few others; the recomputed start is equal.
    for (const seed of ['1', '2', '3', '4']) prepareEpisode(a, seed);
    const again = prepareEpisode(a, '7');
    expect(again).not.toBe(first);
    expect(Array.from(again.startCells)).toEqual(Array.from(first.startCells));
  });
});
