import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MoveView } from '../sim/move-view.js';
import type { Observation } from '../sim/observation.js';
import { UNREACHABLE } from './distance-fields.js';
import { descend, descentMoves } from './gradient.js';
import { ObservedWorld } from './observed-world.js';

const MAP = ['#####', '#...#', '#...#', '#.E.#', '#####'];
const COLS = 5;
const pair = (cell: number) => [Math.floor(cell / COLS), cell % COLS] as const;

function view(step: number, added: number[], cells: number[]): MoveView {
  return {
    step,
    maxSteps: 10,
    map: MAP,
    count: cells.length,
    persons: Int32Array.from(cells, (_, i) => i),
    cells: Int32Array.from(cells),
    added: Int32Array.from(added),
    evacuated: 0,
    dead: 0,
  };
}

function observation(step: number, burning: number[], cells: number[]): Observation {
  return {
    step,
    max_steps: 10,
    map: MAP,
    exits: [pair(17)],
    burning: [...burning].sort((a, b) => a - b).map(pair),
    people: cells.map((cell, i) => ({ id: `p000${i}`, cell: pair(cell) })),
    evacuated: 0,
    dead: 0,
  };
}

describe('ObservedWorld', () => {
  it('reads views (newly burning cells only) into the state observations give', () => {
    const byView = new ObservedWorld(MAP);
    const byObservation = new ObservedWorld(MAP);
    const steps = [
      { added: [8], cells: [6, 12] },
      { added: [], cells: [7, 12] },
      { added: [13, 7], cells: [12] },
      { added: [6], cells: [11] },
    ];
    const burning: number[] = [];
    steps.forEach(({ added, cells }, step) => {
      burning.push(...added);
      const changedByView = byView.updateFromView(view(step, added, cells));
      const changedByObservation = byObservation.update(observation(step, burning, cells));
      expect(changedByView).toBe(changedByObservation);
      expect(byView.grewOnly).toBe(byObservation.grewOnly);
      expect([...byView.burning]).toEqual([...byObservation.burning]);
      expect([...byView.burningList()]).toEqual([...byObservation.burningList()]);
      if (changedByView) expect([...byView.addedList()].sort()).toEqual([...byObservation.addedList()].sort());
      expect([...byView.cells.subarray(0, byView.personCount)]).toEqual(cells);
    });
  });

  it('refuses a view that skips a step (its newly burning cells would be lost)', () => {
    const world = new ObservedWorld(MAP);
    world.updateFromView(view(0, [], [6]));
    expect(() => world.updateFromView(view(2, [8], [6]))).toThrow(/one per step/);
  });

  it('shares one grid between the worlds of a frozen map (an episode each), and builds its own from a map that may change', () => {
    const frozen = Object.freeze([...MAP]);
    expect(new ObservedWorld(frozen).grid).toBe(new ObservedWorld(frozen).grid);
    const open = [...MAP];
    const first = new ObservedWorld(open).grid;
    open[1] = '#####';
    const second = new ObservedWorld(open).grid;
    expect(second).not.toBe(first);
    expect(second.map).toEqual(open);
  });
});

describe('ObservedWorld.descents and firstUnburning', () => {
  // Random maps of walls, floor and exits, a random fire and an arbitrary
  // field (with unreachable and zero cells): the table plus the fire check
  // must choose exactly what descend chooses without a danger field.
  const world = fc
    .record({ rows: fc.integer({ min: 1, max: 7 }), cols: fc.integer({ min: 1, max: 7 }), seed: fc.array(fc.nat(), { minLength: 147, maxLength: 147 }) })
    .map(({ rows, cols, seed }) => {
      const map = Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => '#.E'[seed[r * cols + c]! % 3]).join(''));
      const field = Int32Array.from({ length: rows * cols }, (_, k) => [UNREACHABLE, 0, 1, 2, 3][seed[49 + k]! % 5]!);
      const burning = Array.from({ length: rows * cols }, (_, k) => k).filter((k) => seed[98 + k]! % 4 === 0 && map[Math.floor(k / cols)]![k % cols] !== '#');
      return { map, field, burning, cols };
    });

  it('choose what descend chooses, on every cell', () => {
    fc.assert(
      fc.property(world, ({ map, field, burning, cols }) => {
        const observed = new ObservedWorld(map);
        observed.update({
          step: 0,
          max_steps: 10,
          map,
          exits: [],
          burning: burning.map((k) => [Math.floor(k / cols), k % cols] as const),
          people: [],
          evacuated: 0,
          dead: 0,
        });
        const descents = descentMoves(observed.grid, field);
        for (let cell = 0; cell < field.length; cell++) {
          expect(observed.firstUnburning(cell, descents[cell]!)).toBe(descend(observed, field, null, cell));
        }
      }),
      { numRuns: 300 },
    );
  });
});
