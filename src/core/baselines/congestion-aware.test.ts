import { describe, expect, it } from 'vitest';
import { actionToDirection, type ActionSet } from '../sim/actions.js';
import type { Agent } from '../sim/agent.js';
import { personId, type Observation } from '../sim/observation.js';
import { MovePredictor } from '../sim/predict.js';
import { MovementResolver } from '../sim/resolver.js';
import { WALL, gridFromMap, manhattan } from '../world/grid.js';
import { CongestionAwareAgent } from './congestion-aware.js';
import { FireAwareShortestPathAgent } from './fire-aware-shortest-path.js';

type Cell = readonly [number, number];

function observe(map: readonly string[], people: readonly Cell[], burning: readonly Cell[] = []): Observation {
  const exits: Cell[] = [];
  map.forEach((row, r) => [...row].forEach((ch, c) => ch === 'E' && exits.push([r, c])));
  return { step: 0, max_steps: 100, map, exits, burning, people: people.map((cell, i) => ({ id: personId(i), cell })), evacuated: 0, dead: 0 };
}

function act(agent: Agent, observation: Observation): ActionSet {
  return agent.act(observation) as ActionSet;
}

function blockedIds(observation: Observation, actions: ActionSet): string[] {
  return new MovePredictor(observation.map)
    .predict(observation, actions)
    .filter((m) => m.blocked !== null)
    .map((m) => m.id);
}

describe('congestion-aware-v1 on small cases', () => {
  it('splits two people between two equally distant doors', () => {
    // Both people are 3 steps from each door. fire-aware sends both north
    // (N first); the queue model sends the second one south.
    const map = ['##E##', '#...#', '#...#', '#...#', '##E##'];
    const observation = observe(map, [[2, 1], [2, 3]]);
    expect(act(new FireAwareShortestPathAgent(), observation)).toEqual({ p0000: 'N', p0001: 'N' });
    expect(act(new CongestionAwareAgent(), observation)).toEqual({ p0000: 'N', p0001: 'S' });
  });

  it('evacuates them both at step 3, where fire-aware needs 4', () => {
    const map = ['##E##', '#...#', '#...#', '#...#', '##E##'];
    const people: Cell[] = [[2, 1], [2, 3]];
    expect(simulate(map, people, [], new CongestionAwareAgent(), 10).evacuationSteps).toEqual([3, 3]);
    expect(simulate(map, people, [], new FireAwareShortestPathAgent(), 10).evacuationSteps).toEqual([3, 4]);
  });

  it('does not send a later person into a cell an earlier one takes', () => {
    // p0000 and p0001 both want (2,1); p0000 wins the conflict, so p0001 waits.
    const map = ['#E#', '#.#', '...'];
    const observation = observe(map, [[2, 0], [2, 2]]);
    const fireAware = act(new FireAwareShortestPathAgent(), observation);
    expect(fireAware).toEqual({ p0000: 'E', p0001: 'W' });
    expect(blockedIds(observation, fireAware)).toEqual(['p0001']);
    const congestion = act(new CongestionAwareAgent(), observation);
    expect(congestion).toEqual({ p0000: 'E', p0001: 'STAY' });
    expect(blockedIds(observation, congestion)).toEqual([]);
  });

  it('replaces a move the resolver would block with one onto a cell that frees up', () => {
    // p0000 (2,2) steps N; p0001 (1,1) has no free way on and waits; p0002
    // (2,1) plans N into p0001's cell (blocked) and instead takes (2,2),
    // which p0000 vacates: still one step closer to the exit.
    const map = ['##E##', '#...#', '#...#'];
    const observation = observe(map, [[2, 2], [1, 1], [2, 1]]);
    const fireAware = act(new FireAwareShortestPathAgent(), observation);
    expect(blockedIds(observation, fireAware)).toContain('p0002');
    const congestion = act(new CongestionAwareAgent(), observation);
    expect(congestion).toEqual({ p0000: 'N', p0001: 'STAY', p0002: 'E' });
    expect(blockedIds(observation, congestion)).toEqual([]);
  });

  it('steps a blocked person away from the fire rather than waiting beside it', () => {
    // p0000 evacuates, p0001 follows into (1,1), p0002 finds (1,1) claimed and
    // waits; p0003 at (1,3), beside the fire at (2,3), would queue behind
    // p0002 (blocked): it retreats east instead, away from the fire.
    const map = ['#E####', '#....#', '#....#'];
    const observation = observe(map, [[1, 1], [2, 1], [1, 2], [1, 3]], [[2, 3]]);
    const fireAware = act(new FireAwareShortestPathAgent(), observation);
    expect(fireAware['p0003']).toBe('W');
    expect(blockedIds(observation, fireAware)).toContain('p0003');
    const congestion = act(new CongestionAwareAgent(), observation);
    expect(congestion).toEqual({ p0000: 'N', p0001: 'N', p0002: 'STAY', p0003: 'E' });
    expect(blockedIds(observation, congestion)).toEqual([]);
  });

  it('lets people with no route step away from a fire that is close', () => {
    const map = ['E#....'];
    const observation = observe(map, [[0, 3]], [[0, 2]]);
    expect(act(new CongestionAwareAgent(), observation)).toEqual({ p0000: 'E' });
    expect(act(new FireAwareShortestPathAgent(), observation)).toEqual({ p0000: 'STAY' });
  });
});

interface Outcome {
  evacuated: number;
  dead: number;
  /** Evacuation step of each evacuee, ascending. */
  evacuationSteps: number[];
}

/**
 * A minimal episode loop for comparing policies (environment.md 4): the
 * public resolver moves people, the fire follows `fire` (the cells that
 * start burning at each step t >= 1, a fixed schedule instead of the seeded
 * spread), and anyone on a burning cell dies. The action check is strict.
 */
function simulate(map: readonly string[], start: readonly Cell[], fire: readonly (readonly Cell[])[], agent: Agent, horizon: number): Outcome {
  const grid = gridFromMap(map);
  const cols = grid.cols;
  const burning = new Set<number>((fire[0] ?? []).map(([r, c]) => r * cols + c));
  let active = start.map((cell, i) => ({ index: i, cell: cell[0] * cols + cell[1] }));
  const resolver = new MovementResolver(grid);
  const outcome: Outcome = { evacuated: 0, dead: 0, evacuationSteps: [] };
  for (let t = 0; t < horizon && active.length > 0; t++) {
    const pair = (c: number): Cell => [Math.floor(c / cols), c % cols];
    const observation: Observation = {
      ...observe(map, [], [...burning].sort((a, b) => a - b).map(pair)),
      step: t,
      max_steps: horizon,
      people: active.map((p) => ({ id: personId(p.index), cell: pair(p.cell) })),
    };
    const actions = act(agent, observation);
    expect(Object.keys(actions).sort()).toEqual(active.map((p) => personId(p.index)).sort());
    const moves = active.map((p) => {
      const dir = actionToDirection(actions[personId(p.index)]!);
      const target = [p.cell, p.cell - cols, p.cell + 1, p.cell + cols, p.cell - 1][dir]!;
      if (dir !== 0) {
        expect(manhattan(grid, p.cell, target)).toBe(1);
        expect(grid.kinds[target]).not.toBe(WALL);
        expect(burning.has(target)).toBe(false);
      }
      return dir;
    });
    const result = resolver.resolve(
      active.map((p) => p.cell),
      moves,
    );
    for (const [r, c] of fire[t + 1] ?? []) burning.add(r * cols + c);
    const next: typeof active = [];
    active.forEach((p, k) => {
      if (result.evacuated[k]) {
        outcome.evacuated++;
        outcome.evacuationSteps.push(t + 1);
      } else if (burning.has(result.cells[k]!)) outcome.dead++;
      else next.push({ index: p.index, cell: result.cells[k]! });
    });
    active = next;
  }
  outcome.evacuationSteps.sort((a, b) => a - b);
  return outcome;
}

/** The cells at Manhattan distance exactly `radius` from `center` inside the map, walls excluded. */
function ring(map: readonly string[], center: Cell, radius: number): Cell[] {
  const cells: Cell[] = [];
  map.forEach((row, r) =>
    [...row].forEach((ch, c) => {
      if (ch !== '#' && Math.abs(r - center[0]) + Math.abs(c - center[1]) === radius) cells.push([r, c]);
    }),
  );
  return cells;
}

/** A walled hall with the given exits and a crowd on every `spacing`-th floor cell of columns [c0, c1]. */
function crowdedHall(rows: number, cols: number, exits: readonly Cell[], c0: number, c1: number, spacing: number) {
  const grid = Array.from({ length: rows }, (_, r) =>
    Array.from({ length: cols }, (_, c): string => (r === 0 || c === 0 || r === rows - 1 || c === cols - 1 ? '#' : '.')),
  );
  for (const [r, c] of exits) grid[r]![c] = 'E';
  const map = grid.map((row) => row.join(''));
  const people: Cell[] = [];
  let k = 0;
  for (let r = 1; r < rows - 1; r++) for (let c = c0; c <= c1; c++) if (k++ % spacing === 0) people.push([r, c]);
  return { map, people };
}

describe('congestion-aware-v1 against fire-aware-shortest-path-v1 on crowded halls', () => {
  const cases = [
    {
      // A crowd on the west side, a door on each side wall, fire in the south-east.
      name: 'two doors, crowd near one',
      hall: crowdedHall(14, 24, [[6, 0], [7, 0], [6, 23]], 1, 10, 2),
      center: [11, 17] as Cell,
      every: 3,
    },
    {
      name: 'four doors, central fire',
      hall: crowdedHall(21, 31, [[0, 15], [20, 15], [10, 0], [10, 30]], 1, 29, 3),
      center: [10, 15] as Cell,
      every: 4,
    },
    {
      name: 'one door, dense crowd',
      hall: crowdedHall(12, 16, [[0, 8]], 1, 14, 2),
      center: [10, 14] as Cell,
      every: 5,
    },
  ];

  it.each(cases)('$name: more evacuated, no more deaths, sooner', ({ hall, center, every }) => {
    const horizon = 150;
    // The fire grows by one Manhattan ring every `every` steps.
    const fire = Array.from({ length: horizon + 1 }, (_, t) => (t === 0 ? [center] : t % every === 0 ? ring(hall.map, center, t / every) : []));
    const fireAware = simulate(hall.map, hall.people, fire, new FireAwareShortestPathAgent(), horizon);
    const congestion = simulate(hall.map, hall.people, fire, new CongestionAwareAgent(), horizon);
    expect(congestion.evacuated).toBeGreaterThanOrEqual(fireAware.evacuated);
    expect(congestion.dead).toBeLessThanOrEqual(fireAware.dead);
    // Evacuation steps summed, anyone not evacuated counting the horizon: strictly better.
    const total = (o: Outcome) => o.evacuationSteps.reduce((a, b) => a + b, 0) + (hall.people.length - o.evacuated) * horizon;
    expect(total(congestion)).toBeLessThan(total(fireAware));
  });
});
