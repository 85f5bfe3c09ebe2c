import { describe, expect, it } from 'vitest';
import type { Observation } from '../../core/sim/observation.js';
import { actionWords, stepWindow } from './step-window.js';

const observation: Observation = {
  step: 3,
  max_steps: 10,
  map: ['#####', '#...E', '#...#', '#####'],
  exits: [[1, 4]],
  burning: [[2, 1]],
  people: [
    { id: 'p0000', cell: [1, 2] },
    { id: 'p0002', cell: [2, 3] },
  ],
  evacuated: 1,
  dead: 0,
};

describe('stepWindow', () => {
  it('draws the observation around a person: fire, other people, exits, walls, and blanks off the map', () => {
    expect(stepWindow(observation, 'p0000', 2)).toEqual(['     ', '#####', '#.@.E', '#*.P#', '#####']);
    expect(stepWindow(observation, 'p0002', 1)).toEqual(['P.E', '.@#', '###']);
  });

  it('is null for a person the observation does not list', () => {
    expect(stepWindow(observation, 'p0001')).toBeNull();
  });

  it('names actions in words', () => {
    expect([actionWords('N'), actionWords('STAY')]).toEqual(['N (north)', 'STAY (stay put)']);
  });
});
