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
