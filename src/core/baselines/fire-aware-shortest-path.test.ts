import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACTIONS, type Action, type ActionSet } from '../sim/actions.js';
import { runEpisode } from '../sim/episode.js';
import type { Observation } from '../sim/observation.js';
import { recordText } from '../sim/record.js';
import { prepareEpisode } from '../world/episode-start.js';
import { validateScenario } from '../world/scenario.js';
import { FireAwareField, FireAwareShortestPathAgent } from './fire-aware-shortest-path.js';
import { descend } from './gradient.js';
import { ObservedWorld } from './observed-world.js';
import { observeMap } from '../../../test/kits/worlds.js';

type Cell = readonly [number, number];

/** The agent as it was before refreshes could be skipped: a field brought up to date at every change of the fire. */
class AlwaysRefreshing {
  private world: ObservedWorld | undefined;
  private field: FireAwareField | undefined;

  act(observation: Observation): ActionSet {
    const world = (this.world ??= new ObservedWorld(observation.map));
    const field = (this.field ??= new FireAwareField(world));
    if (world.update(observation)) field.refresh();
    const out: Record<string, Action> = {};
    observation.people.forEach((person, i) => {
      out[person.id] = ACTIONS[descend(world, field.dist, field.danger, world.cells[i]!)]!;
    });
    return out;
  }
}


// A floor with an exit on the left and a room sealed off on the right (column 5 is wall).
const SEALED = ['E....#...', '.....#...', '.....#...', '.....#...'];

describe('fire-aware-shortest-path-v1 beside a sealed room', () => {
  it('acts as an agent that refreshes at every step while the stranded wait, and when someone is no longer cut off', () => {
    const agent = new FireAwareShortestPathAgent();
    const reference = new AlwaysRefreshing();
    const burning: Cell[] = [[3, 2]];
    const stranded: Cell[] = [
      [1, 7],
      [2, 8],
    ];
    let step = 0;
    const both = (people: readonly Cell[]): ActionSet => {
      const observation = observeMap(SEALED, people, burning, step++);
      const actions = agent.act(observation) as ActionSet;
      expect(actions).toEqual(reference.act(observation));
      return actions;
    };
    both(stranded);
    // The fire grows across row 1 while only the stranded are left: they STAY.
    for (const cell of [[1, 0], [1, 1], [1, 2], [1, 3]] as const) {
      burning.push(cell);
      expect(Object.values(both(stranded))).toEqual(['STAY', 'STAY']);
    }
    // Someone appears below the fire with the fire unchanged (observations
    // are arbitrary): routed round it by column 4 on the current fire, not
    // north or west as the field of the first fire would have it.
    expect(both([...stranded, [2, 3]])['p0002']).toBe('E');
    burning.push([2, 2]);
    both([...stranded, [2, 4]]);
    both([...stranded, [0, 3]]);
  });

  it('acts as an agent that refreshes at every step, on arbitrary observations', () => {
    const cell = fc.tuple(fc.nat(3), fc.nat(8));
    const observation = fc.record({ people: fc.array(cell, { maxLength: 4 }), ignite: fc.array(cell, { maxLength: 3 }), shrink: fc.boolean() });
    fc.assert(
      fc.property(fc.array(observation, { minLength: 1, maxLength: 12 }), (sequence) => {
        const agent = new FireAwareShortestPathAgent();
        const reference = new AlwaysRefreshing();
        let burning: Cell[] = [];
        sequence.forEach(({ people, ignite, shrink }, step) => {
          // Mostly a fire that grows; now and then one that lost cells (a rebuild).
          burning = shrink ? burning.slice(1) : burning;
          for (const c of ignite) if (SEALED[c[0]]![c[1]] === '.' && !burning.some((b) => b[0] === c[0] && b[1] === c[1])) burning.push(c);
          const open = people.filter((c) => SEALED[c[0]]![c[1]] !== '#' && !burning.some((b) => b[0] === c[0] && b[1] === c[1]));
          const seen = observeMap(SEALED, open, burning, step);
          expect(agent.act(seen)).toEqual(reference.act(seen));
        });
      }),
      { numRuns: 400, seed: 21 },
    );
  });

  it('writes the same record as before through move views, over a long growing fire', async () => {
    const map = Array.from({ length: 12 }, (_, r) => Array.from({ length: 16 }, (_, c) => (r === 0 && c === 1 ? 'E' : r === 0 || c === 0 || r === 11 || c === 15 || c === 10 ? '#' : '.')).join(''));
    const scenario = validateScenario(
      {
        schema_version: '1.0',
        scenario_id: 'sealed-test',
        title: 'A growing fire beside a sealed room',
        families: ['test'],
        map,
        people: [
          { zone: [2, 11, 9, 14], count: 6 },
          { zone: [2, 2, 9, 8], count: 6 },
        ],
        fire: { ignitions: [{ cell: [6, 5], step: 0 }], spread_probability: '0.2' },
        max_steps: 80,
        development_seed: '0',
      },
      'test',
    );
    for (const seed of ['0', '1', '2', '3']) {
      const start = prepareEpisode(scenario, seed);
      const viewed = await runEpisode(start, new FireAwareShortestPathAgent());
      const observed = await runEpisode(start, new AlwaysRefreshing());
      expect(recordText(viewed.record)).toBe(recordText(observed.record));
    }
  });
});
