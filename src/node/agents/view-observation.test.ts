/**
 * The module host's rebuilding of observations from view deltas, and its
 * reduction of action sets to digits: any set that is not exactly one valid
 * action per active person goes back whole (undefined), whatever its order.
 */

import { describe, expect, it } from 'vitest';
import { personId } from '../../core/sim/observation.js';
import { stringRecordEntries } from '../../shared/agent-protocol.js';
import { ViewObservations } from './view-observation.js';

const MAP = ['#E###', '#...#', '#...#', '#####'];

/** A host view after step 0 (persons 0..3 on row 1 and 2) and step 1 (person 1 gone, person 3 moved). */
function twoSteps(): ViewObservations {
  const views = new ViewObservations();
  views.observe({ step: 0, evacuated: 0, dead: 0, start: { max_steps: 10, map: MAP }, gone: [], people: [0, 6, 1, 7, 2, 11, 3, 12], added: [] });
  views.observe({ step: 1, evacuated: 1, dead: 0, gone: [1], people: [3, 13], added: [8] });
  return views;
}

const entriesOf = (set: Record<string, string>) => stringRecordEntries(set)!;

describe('ViewObservations', () => {
  it('rebuilds the full observation of each step from its delta', () => {
    const views = new ViewObservations();
    views.observe({ step: 0, evacuated: 0, dead: 0, start: { max_steps: 10, map: MAP }, gone: [], people: [0, 6, 1, 7, 2, 11, 3, 12], added: [] });
    const observation = views.observe({ step: 1, evacuated: 1, dead: 0, gone: [1], people: [3, 13], added: [8] });
    expect(observation).toEqual({
      step: 1,
      max_steps: 10,
      map: MAP,
      exits: [[0, 1]],
      burning: [[1, 3]],
      people: [
        { id: personId(0), cell: [1, 1] },
        { id: personId(2), cell: [2, 1] },
        { id: personId(3), cell: [2, 3] },
      ],
      evacuated: 1,
      dead: 0,
    });
  });

  it('reduces a set in observation order, in any other order, and in a partly ordered one to the same digits', () => {
    const views = twoSteps();
    const [a, b, c] = [personId(0), personId(2), personId(3)];
    expect(views.movesOf(entriesOf({ [a]: 'N', [b]: 'STAY', [c]: 'W' }))).toBe('104');
    expect(views.movesOf(entriesOf({ [c]: 'W', [a]: 'N', [b]: 'STAY' }))).toBe('104');
    expect(views.movesOf(entriesOf({ [a]: 'N', [c]: 'W', [b]: 'STAY' }))).toBe('104');
  });

  it('sends back whole any set that is not one valid action per active person', () => {
    const views = twoSteps();
    const [a, b, c, gone] = [personId(0), personId(2), personId(3), personId(1)];
    for (const set of [
      { [a]: 'N', [b]: 'STAY' }, // one missing
      { [a]: 'N', [b]: 'STAY', [c]: 'W', [gone]: 'E' }, // one too many
      { [a]: 'N', [b]: 'STAY', [gone]: 'E' }, // a person who left
      { [a]: 'N', [b]: 'STAY', p9999: 'E' }, // a person who never was
      { [a]: 'N', [b]: 'UP', [c]: 'W' }, // not an action, in order
      { [c]: 'W', [a]: 'N', [b]: 'up' }, // not an action, out of order
      { [a]: 'N', [b]: 'STAY', constructor: 'W' }, // a key that is no person
    ]) {
      expect(views.movesOf(entriesOf(set))).toBeUndefined();
    }
  });
});

describe('stringRecordEntries', () => {
  it('gives the entries of a plain object of strings, and undefined for anything else', () => {
    expect(stringRecordEntries({ a: 'N', b: 'S' })).toEqual([
      ['a', 'N'],
      ['b', 'S'],
    ]);
    expect(stringRecordEntries(Object.assign(Object.create(null) as object, { a: 'N' }))).toEqual([['a', 'N']]);
    for (const value of [null, 'N', ['N'], { a: 1 }, { a: 'N', b: null }, new Map([['a', 'N']]), Object.create({ a: 'N' }) as object]) {
      expect(stringRecordEntries(value)).toBeUndefined();
    }
  });
});
