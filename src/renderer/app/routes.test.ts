// The app's addresses (router.ts): every place has one, reading it back
// gives the same place, and an address that names nothing is a not-found
// place carrying what was asked for, never a thrown error.
import { describe, expect, test } from 'vitest';
import { hashOf, locationOf } from './routes.js';
import { VIEWS, type Location } from './views.js';

const places: Location[] = [
  { view: 'overview' },
  ...VIEWS.filter((v) => v.id !== 'overview' && v.id !== 'compare').map((v) => ({ view: v.id }) as Location),
  { view: 'compare', a: [], b: [] },
  { view: 'compare', a: [12, 13], b: [14] },
  { view: 'compare', a: [12], b: [14], episode: 0 },
  { view: 'trial', trialId: 7 },
  { view: 'replay', trialId: 7, index: 0 },
  { view: 'replay', trialId: 7, index: 29, step: 140 },
  { view: 'models', model: 'gpt-4o-mini' },
  { view: 'models', model: 'lab/model a&b?=#' },
];

describe('router', () => {
  test.each(places.map((p) => [hashOf(p), p] as const))('%s round-trips', (hash, place) => {
    expect(locationOf(hash)).toEqual(place);
  });

  test('the addresses people read', () => {
    expect(hashOf({ view: 'trial', trialId: 12 })).toBe('#/trials/12');
    expect(hashOf({ view: 'replay', trialId: 12, index: 3, step: 40 })).toBe('#/trials/12/episodes/3?step=40');
    expect(hashOf({ view: 'replay', trialId: 12, index: 3, step: 0 })).toBe('#/trials/12/episodes/3');
    expect(hashOf({ view: 'compare', a: [12, 13], b: [14], episode: 3 })).toBe('#/compare?a=12,13&b=14&episode=3');
    expect(hashOf({ view: 'trials' })).toBe('#/trials');
    expect(locationOf('#/overview')).toEqual({ view: 'overview' });
    expect(hashOf({ view: 'models', model: 'scripted planner' })).toBe('#/models?model=scripted+planner');
  });

  test('no address at all leaves the start to the caller', () => {
    expect(locationOf('')).toBeNull();
    expect(locationOf('#')).toBeNull();
  });

  test.each([
    '#/nowhere',
    '#/trials/0',
    '#/trials/-1',
    '#/trials/012',
    '#/trials/abc',
    '#/trials/3/episodes',
    '#/trials/3/episodes/x',
    '#/trials/3/episodes/1/extra',
    '#/trials/3/episodes/1?step=-2',
    '#/trials/3/replay/1',
    '#/compare?a=1,x&b=2',
    '#/compare?a=1&b=2&episode=one',
    '#/run/extra',
    '#/models?model=',
    '#/models?other=1',
    'trials/3',
    '#trials/3',
  ])('%s is a not-found place', (hash) => {
    expect(locationOf(hash)).toEqual({ view: 'not-found', hash });
  });
});
