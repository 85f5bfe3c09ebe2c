import { describe, expect, it } from 'vitest';
import { ModelOutputError } from '../errors.js';
import { ACTIVE, DEAD, EVACUATED, STRANDED } from './events.js';
import { BLOCKED_CONFLICT, BLOCKED_CYCLE, BLOCKED_OCCUPIED, NOT_BLOCKED } from './resolver.js';
import { EpisodeSimulation } from './simulation.js';
import { testEpisodeStart, type TestWorldSpec } from '../../../test/kits/worlds.js';

function sim(spec: TestWorldSpec): EpisodeSimulation {
  return new EpisodeSimulation(testEpisodeStart(spec));
}

/** Plays one step from an action set keyed by person ID. */
function play(s: EpisodeSimulation, actions: Record<string, string>) {
  return s.step(s.checkActions(actions));
}

describe('EpisodeSimulation step', () => {
  it('moves a chain into a vacated cell and numbers evacuations by step', () => {
    const s = sim({ map: ['#####', '#PPE#', '#####'], maxSteps: 10 });
    const first = play(s, { p0000: 'E', p0001: 'E' });
    expect(Array.from(first.resolution.evacuated)).toEqual([0, 1]);
    expect(Array.from(first.resolution.blocked)).toEqual([NOT_BLOCKED, NOT_BLOCKED]);
    expect(s.t).toBe(1);
    expect(Array.from(s.active)).toEqual([0]);
    expect(s.cells[0]).toBe(7); // [1,2]
    play(s, { p0000: 'E' });
    expect(s.done).toBe(true);
    const outcome = s.outcome();
    expect(outcome.termination).toBe('all_resolved');
    expect(outcome.steps).toBe(2);
    expect(Array.from(outcome.status)).toEqual([EVACUATED, EVACUATED]);
    expect(Array.from(outcome.statusStep)).toEqual([2, 1]);
  });

  it('lets one person through an exit per step: the later claimant is blocked by conflict', () => {
    const s = sim({ map: ['#####', '#PEP#', '#####'], maxSteps: 10 });
    const event = play(s, { p0000: 'E', p0001: 'W' });
    expect(Array.from(event.resolution.evacuated)).toEqual([1, 0]);
    expect(Array.from(event.resolution.blocked)).toEqual([NOT_BLOCKED, BLOCKED_CONFLICT]);
    expect(event.resolution.contested).toEqual([7]);
    expect(s.status[1]).toBe(ACTIVE);
    expect(s.cells[1]).toBe(8);
    play(s, { p0001: 'W' });
    expect(Array.from(s.outcome().statusStep)).toEqual([1, 2]);
    expect(s.evacuated).toBe(2);
  });

  it('blocks a swap as a cycle and a mover into a stationary person as occupied', () => {
    const s = sim({ map: ['######', '#PPP.#', '#....E', '######'], maxSteps: 10 });
    const event = play(s, { p0000: 'E', p0001: 'W', p0002: 'STAY' });
    expect(Array.from(event.resolution.blocked)).toEqual([BLOCKED_CYCLE, BLOCKED_CYCLE, NOT_BLOCKED]);
    const next = play(s, { p0000: 'STAY', p0001: 'E', p0002: 'STAY' });
    expect(Array.from(next.resolution.blocked)).toEqual([NOT_BLOCKED, BLOCKED_OCCUPIED, NOT_BLOCKED]);
    expect(Array.from(s.cells)).toEqual([7, 8, 9]);
  });

  it('kills a person whose cell burns at t+1, whether it stayed or moved there', () => {
    const s = sim({
      map: ['#####', '#P..#', '#P..#', '#..E#', '#####'],
      fire: [
        { cell: [1, 1], step: 2 },
        { cell: [2, 2], step: 1 },
      ],
      maxSteps: 10,
    });
    const first = play(s, { p0000: 'STAY', p0001: 'E' });
    expect(Array.from(first.died)).toEqual([1]);
    expect(first.newlyBurning).toEqual([12]);
    expect(s.status[1]).toBe(DEAD);
    expect(s.statusStep[1]).toBe(1);
    expect(s.dead).toBe(1);
    const second = play(s, { p0000: 'STAY' });
    expect(Array.from(second.died)).toEqual([0]);
    expect(s.done).toBe(true);
    expect(s.outcome()).toMatchObject({ termination: 'all_resolved', steps: 2 });
    expect(Array.from(s.outcome().statusStep)).toEqual([2, 1]);
  });

  it('evacuates a mover onto an exit that starts burning at t+1 (movement comes before fire)', () => {
    const s = sim({ map: ['####', '#PE#', '####'], fire: [{ cell: [1, 2], step: 1 }], maxSteps: 5 });
    const event = play(s, { p0000: 'E' });
    expect(Array.from(event.resolution.evacuated)).toEqual([1]);
    expect(Array.from(event.died)).toEqual([]);
    expect(s.status[0]).toBe(EVACUATED);
  });

  it('strands every active person at the horizon with step H', () => {
    const s = sim({ map: ['#####', '#P#P#', '###E#'], maxSteps: 3 });
    play(s, { p0000: 'STAY', p0001: 'STAY' });
    play(s, { p0000: 'STAY', p0001: 'STAY' });
    expect(s.done).toBe(false);
    const last = play(s, { p0000: 'STAY', p0001: 'S' });
    expect(Array.from(last.active)).toEqual([0, 1]);
    expect(s.done).toBe(true);
    const outcome = s.outcome();
    expect(outcome.termination).toBe('horizon');
    expect(outcome.steps).toBe(3);
    expect(Array.from(outcome.status)).toEqual([STRANDED, EVACUATED]);
    expect(Array.from(outcome.statusStep)).toEqual([3, 3]);
    expect(s.active.length).toBe(0);
    expect(() => s.checkActions({})).toThrow(/already ended/);
  });

  it('prefers all_resolved over horizon when the last person resolves at step H', () => {
    const s = sim({ map: ['####', '#PE#', '####'], maxSteps: 1 });
    play(s, { p0000: 'E' });
    expect(s.outcome().termination).toBe('all_resolved');
  });
});

describe('EpisodeSimulation observe', () => {
  it('reports snapshot t: map, exits, B(t) row-major, active people in order and counts', () => {
    const s = sim({
      map: ['E....', '.P.P.', '....E'],
      fire: [
        { cell: [2, 0], step: 0 },
        { cell: [0, 3], step: 0 },
        { cell: [0, 1], step: 1 },
      ],
      maxSteps: 4,
    });
    const o0 = s.observe();
    expect(o0).toEqual({
      step: 0,
      max_steps: 4,
      map: ['E....', '.....', '....E'],
      exits: [
        [0, 0],
        [2, 4],
      ],
      burning: [
        [0, 3],
        [2, 0],
      ],
      people: [
        { id: 'p0000', cell: [1, 1] },
        { id: 'p0001', cell: [1, 3] },
      ],
      evacuated: 0,
      dead: 0,
    });
    play(s, { p0000: 'STAY', p0001: 'E' });
    const o1 = s.observe();
    expect(o1.step).toBe(1);
    expect(o1.burning).toEqual([
      [0, 1],
      [0, 3],
      [2, 0],
    ]);
    expect(o1.people).toEqual([
      { id: 'p0000', cell: [1, 1] },
      { id: 'p0001', cell: [1, 4] },
    ]);
    // Shared parts are frozen: an agent cannot corrupt the next observation.
    expect(Object.isFrozen(o1.burning)).toBe(true);
    expect(Object.isFrozen(o1.map)).toBe(true);
    // One frozen map for every episode of the scenario (agents derive their grid from it once).
    expect(new EpisodeSimulation(s.start).observe().map).toBe(o1.map);
    expect(Object.isFrozen(o1.people[0]!.cell)).toBe(true);
    play(s, { p0000: 'STAY', p0001: 'S' });
    expect(s.observe()).toMatchObject({ step: 2, evacuated: 1, dead: 0, people: [{ id: 'p0000', cell: [1, 1] }] });
  });
});

describe('EpisodeSimulation cell pairs (made on first use)', () => {
  const spec: TestWorldSpec = { map: ['E..P', '.P..', '...E'], fire: [{ cell: [1, 2], step: 0 }], maxSteps: 3 };

  it('gives every cell its [row, col], frozen and shared, whether pair or observe comes first', () => {
    const direct = sim(spec);
    const first = direct.pair(7);
    expect(first).toEqual([1, 3]);
    expect(Object.isFrozen(first)).toBe(true);
    expect(direct.pair(7)).toBe(first);
    for (let cell = 0; cell < 12; cell++) expect(direct.pair(cell)).toEqual([Math.floor(cell / 4), cell % 4]);
    const observed = sim(spec);
    const o = observed.observe();
    expect(o.exits).toEqual([
      [0, 0],
      [2, 3],
    ]);
    expect(Object.isFrozen(o.exits)).toBe(true);
    // The exits, people and burning cells of every observation are the cache's pairs.
    expect(o.exits[1]).toBe(observed.pair(11));
    expect(o.people[0]!.cell).toBe(observed.pair(3));
    expect(o.burning[0]).toBe(observed.pair(6));
    expect(observed.observe().exits).toBe(o.exits);
  });

  it('gives the view and the observation the same snapshot without building pairs for the view', () => {
    const s = sim(spec);
    const view = s.view();
    expect(Array.from(view.persons.subarray(0, view.count))).toEqual([0, 1]);
    expect(Array.from(view.cells.subarray(0, view.count))).toEqual([3, 5]);
    expect(Array.from(view.added)).toEqual([6]);
    const o = s.observe();
    expect(o.people.map((p) => p.cell)).toEqual([
      [0, 3],
      [1, 1],
    ]);
  });
});

describe('action check', () => {
  const spec: TestWorldSpec = {
    map: ['P.#..', '.P...', '.#..E', '...P.'],
    fire: [{ cell: [1, 2], step: 0 }],
    maxSteps: 5,
  };
  const ok = { p0000: 'STAY', p0001: 'STAY', p0002: 'STAY' };

  function rejects(actions: unknown, message: string): void {
    const s = sim(spec);
    let caught: unknown;
    try {
      s.checkActions(actions);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ModelOutputError);
    expect((caught as ModelOutputError).failure).toBe('invalid_output');
    expect((caught as Error).message).toBe(message);
  }

  it('accepts a legal action set and returns direction codes in person order', () => {
    const s = sim(spec);
    expect(Array.from(s.checkActions({ p0002: 'E', p0000: 'S', p0001: 'N' }))).toEqual([3, 1, 2]);
    expect(Array.from(s.checkActions(Object.assign(Object.create(null) as object, ok)))).toEqual([0, 0, 0]);
  });

  it('rejects a value that is not a plain object', () => {
    rejects(null, 'action set must be a JSON object, got null');
    rejects([], 'action set must be a JSON object, got an array');
    rejects('STAY', 'action set must be a JSON object, got "STAY"');
    rejects(new Map(), 'action set must be a JSON object, got an object');
  });

  it('rejects a missing, an unknown and an inactive person', () => {
    rejects({ p0000: 'STAY', p0002: 'STAY' }, 'action set is missing p0001');
    rejects({ ...ok, x: 'STAY' }, 'action set names unknown person x');
    rejects({ ...ok, 'bad key': 'STAY' }, 'action set names unknown person "bad key"');
    const s = sim({ map: ['PE', 'P.'], maxSteps: 5 });
    s.step(s.checkActions({ p0000: 'E', p0001: 'STAY' }));
    expect(() => s.checkActions({ p0000: 'STAY', p0001: 'STAY' })).toThrow('action set names p0000, which is not active (evacuated)');
  });

  it('rejects a value that is not an action', () => {
    rejects({ ...ok, p0001: 'NORTH' }, 'action for p0001: "NORTH" is not one of STAY N E S W');
    rejects({ ...ok, p0001: 1 }, 'action for p0001: 1 is not one of STAY N E S W');
    rejects({ ...ok, p0001: null }, 'action for p0001: null is not one of STAY N E S W');
  });

  it('rejects a move off the grid, into a wall or into a burning cell', () => {
    rejects({ ...ok, p0000: 'N' }, 'action for p0000: move N leaves the grid from [0,0]');
    rejects({ ...ok, p0001: 'S' }, 'action for p0001: move S targets a wall at [2,1]');
    rejects({ ...ok, p0001: 'E' }, 'action for p0001: move E targets a burning cell at [1,2]');
    rejects({ ...ok, p0002: 'S' }, 'action for p0002: move S leaves the grid from [3,3]');
  });

  it('applies the same check to direction codes', () => {
    const s = sim(spec);
    expect(() => s.checkMoves(Uint8Array.of(0, 2, 0))).toThrow('action for p0001: move E targets a burning cell at [1,2]');
    expect(() => s.checkMoves(Uint8Array.of(0, 0))).toThrow(ModelOutputError);
    expect(() => s.checkMoves(Uint8Array.of(0, 0, 5))).toThrow(ModelOutputError);
    expect(() => s.checkMoves(Uint8Array.of(3, 1, 4))).not.toThrow();
  });
});
