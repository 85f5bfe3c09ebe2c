import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACTIONS, actionToDirection, type ActionSet } from '../sim/actions.js';
import type { Agent } from '../sim/agent.js';
import { personId, type Observation } from '../sim/observation.js';
import { MovePredictor } from '../sim/predict.js';
import { WALL, gridFromMap, neighbour } from '../world/grid.js';
import { BASELINE_IDS, baselineFactory, isBaselineId } from './registry.js';
import { RANDOM_LEGAL_SEED } from './random-legal.js';
import { observeMap } from '../../../test/kits/worlds.js';


function make(id: string): Agent {
  const factory = baselineFactory(id);
  if (factory === undefined) throw new Error(`no baseline ${id}`);
  return factory() as Agent;
}

function act(agent: Agent, observation: Observation): ActionSet {
  const actions = agent.act(observation);
  if (actions instanceof Promise) throw new Error('baselines act synchronously');
  return actions;
}

/** Every failure of the action check (environment.md 4, step 2), as messages; [] when the set is valid. */
function actionCheck(observation: Observation, actions: ActionSet): string[] {
  const grid = gridFromMap(observation.map);
  const burning = new Set(observation.burning.map(([r, c]) => r * grid.cols + c));
  const errors: string[] = [];
  const ids = observation.people.map((p) => p.id);
  const keys = Object.keys(actions);
  if (keys.length !== ids.length || !ids.every((id) => Object.hasOwn(actions, id))) errors.push(`keys ${keys} != ${ids}`);
  for (const person of observation.people) {
    const action = actions[person.id];
    if (action === undefined || !ACTIONS.includes(action)) {
      errors.push(`${person.id}: ${String(action)}`);
      continue;
    }
    const dir = actionToDirection(action);
    if (dir === 0) continue;
    const target = neighbour(grid, person.cell[0] * grid.cols + person.cell[1], dir);
    if (target < 0 || grid.kinds[target] === WALL || burning.has(target)) errors.push(`${person.id}: illegal ${action} from ${person.cell}`);
  }
  return errors;
}

/**
 * A random small world and a few observations of it: the fire grows from
 * step to step, people leave (the rest keep their order and IDs) and stand
 * anywhere on distinct non-burning floor cells.
 */
const episodeArb = fc
  .record({ rows: fc.integer({ min: 1, max: 8 }), cols: fc.integer({ min: 1, max: 8 }) })
  .chain(({ rows, cols }) => {
    const size = rows * cols;
    return fc.record({
      rows: fc.constant(rows),
      cols: fc.constant(cols),
      chars: fc.array(fc.constantFrom('#', '.', '.', '.', '.', 'E'), { minLength: size, maxLength: size }),
      exitAt: fc.nat(size - 1),
      steps: fc.array(
        fc.record({
          ignite: fc.array(fc.nat(size - 1), { maxLength: 4 }),
          leave: fc.array(fc.boolean(), { minLength: size, maxLength: size }),
          shuffle: fc.array(fc.nat(size - 1), { minLength: size, maxLength: size }),
        }),
        { minLength: 1, maxLength: 4 },
      ),
    });
  })
  .map(({ rows, cols, chars, exitAt, steps }) => {
    const cells = chars.slice();
    cells[exitAt] = 'E';
    const map = Array.from({ length: rows }, (_, r) => cells.slice(r * cols, (r + 1) * cols).join(''));
    const burning = new Set<number>();
    let ids: number[] | undefined;
    const observations: Observation[] = [];
    steps.forEach((s, t) => {
      for (const c of s.ignite) if (cells[c] !== '#') burning.add(c);
      const free = cells.map((_, c) => c).filter((c) => cells[c] === '.' && !burning.has(c));
      // Random distinct cells: order the free cells by the shuffle keys.
      const spots = free.slice().sort((a, b) => s.shuffle[a]! - s.shuffle[b]! || a - b);
      ids = (ids ?? spots.map((_, i) => i)).filter((_, i) => i < spots.length && !(t > 0 && s.leave[i]));
      const people = ids.map((index, k) => ({ id: personId(index), cell: [Math.floor(spots[k]! / cols), spots[k]! % cols] as const }));
      const burningCells = [...burning].sort((a, b) => a - b).map((c) => [Math.floor(c / cols), c % cols] as const);
      observations.push({ ...observeMap(map, [], burningCells, t), people });
    });
    return observations;
  });

describe('baseline registry', () => {
  it('lists exactly the seven baselines of baselines_version 1.0', () => {
    expect(BASELINE_IDS).toEqual([
      'always-stay',
      'random-legal-v1',
      'nearest-exit-greedy-v1',
      'static-shortest-path-v1',
      'fire-aware-shortest-path-v1',
      'congestion-aware-v1',
      'adv-block-scrub',
    ]);
    for (const id of BASELINE_IDS) expect(typeof baselineFactory(id)).toBe('function');
  });

  it('knows no other ID', () => {
    for (const id of ['', 'random-legal', 'congestion-aware', 'ALWAYS-STAY', 'toString', '__proto__']) {
      expect(baselineFactory(id)).toBeUndefined();
      expect(isBaselineId(id)).toBe(false);
    }
  });

  it('makes a fresh agent on every call', () => {
    const factory = baselineFactory('congestion-aware-v1')!;
    expect(factory()).not.toBe(factory());
  });
});

describe('every baseline on random worlds', () => {
  it.each([...BASELINE_IDS])('%s names exactly the active persons, each with a legal action', (id) => {
    fc.assert(
      fc.property(episodeArb, (observations) => {
        const agent = make(id);
        for (const observation of observations) expect(actionCheck(observation, act(agent, observation))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it.each(['congestion-aware-v1', 'adv-block-scrub'])('%s emits no move the resolver would block', (id) => {
    fc.assert(
      fc.property(episodeArb, (observations) => {
        const agent = make(id);
        const predictor = new MovePredictor(observations[0]!.map);
        for (const observation of observations) {
          const blocked = predictor.predict(observation, act(agent, observation)).filter((m) => m.blocked !== null);
          expect(blocked).toEqual([]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a burning exit is never entered, though it is a legal-looking neighbour', () => {
    const observation = observeMap(['E.', '..'], [[0, 1]], [[0, 0]]);
    for (const id of BASELINE_IDS) expect(act(make(id), observation)['p0000'], id).not.toBe('W');
  });
});

describe('always-stay', () => {
  it('keeps everyone in place', () => {
    const observation = observeMap(['E..', '...'], [[0, 1], [1, 2]]);
    expect(act(make('always-stay'), observation)).toEqual({ p0000: 'STAY', p0001: 'STAY' });
  });
});

describe('random-legal-v1', () => {
  const observation = observeMap(
    ['E...', '.#..', '...E'],
    [[0, 1], [1, 0], [2, 2], [1, 3], [2, 0]],
    [[1, 2]],
  );

  it('starts from the first 16 bytes of SHA-256("random-legal-v1")', async () => {
    const { sha256Bytes } = await import('../hash.js');
    const key = sha256Bytes('random-legal-v1');
    const view = new DataView(key.buffer, key.byteOffset, 16);
    expect(RANDOM_LEGAL_SEED).toEqual([0, 1, 2, 3].map((w) => view.getUint32(4 * w, true)));
  });

  it('matches the Python reference of the documented draw order', () => {
    // Computed with python3: xoshiro128** from RANDOM_LEGAL_SEED, options
    // [STAY, legal N E S W], options[uniform(len)] per person in person order.
    const expected = [
      { p0000: 'E', p0001: 'S', p0002: 'E', p0003: 'STAY', p0004: 'STAY' },
      { p0000: 'E', p0001: 'STAY', p0002: 'W', p0003: 'N', p0004: 'STAY' },
      { p0000: 'W', p0001: 'S', p0002: 'W', p0003: 'N', p0004: 'N' },
    ];
    const agent = make('random-legal-v1');
    expect([0, 1, 2].map(() => act(agent, observation))).toEqual(expected);
  });

  it('repeats its stream in every fresh agent, and varies within one', () => {
    const first = make('random-legal-v1');
    const second = make('random-legal-v1');
    const run = (agent: Agent) => Array.from({ length: 20 }, () => act(agent, observation));
    const a = run(first);
    expect(run(second)).toEqual(a);
    expect(new Set(a.map((s) => JSON.stringify(s))).size).toBeGreaterThan(1);
  });
});

describe('nearest-exit-greedy-v1', () => {
  it('lowers the Manhattan distance to the nearest exit, N before E', () => {
    // From (2,2) the exit (0,4) is 4 away: N and E both lower it; N wins.
    const observation = observeMap(['....E', '.....', '.....'], [[2, 2]]);
    expect(act(make('nearest-exit-greedy-v1'), observation)).toEqual({ p0000: 'N' });
  });

  it('ignores walls, so it can get stuck behind one', () => {
    const observation = observeMap(['..E', '.##', '...'], [[2, 2]]);
    // N is a wall; no other move lowers the distance (2 -> W would raise it).
    expect(act(make('nearest-exit-greedy-v1'), observation)).toEqual({ p0000: 'STAY' });
  });

  it('takes the second-best direction when the first is burning', () => {
    const observation = observeMap(['....E', '.....', '.....'], [[2, 2]], [[1, 2]]);
    expect(act(make('nearest-exit-greedy-v1'), observation)).toEqual({ p0000: 'E' });
  });
});

describe('static-shortest-path-v1', () => {
  it('walks around walls along the shortest path', () => {
    const observation = observeMap(['..E', '.##', '...'], [[2, 2]]);
    expect(act(make('static-shortest-path-v1'), observation)).toEqual({ p0000: 'W' });
  });

  it('keeps its first field: it waits at a fire on its route instead of rerouting', () => {
    // Two routes from (1,2): W to the exit at (1,0) (2 steps) or E then round (longer).
    const map = ['#####', 'E...E', '#####'];
    const agent = make('static-shortest-path-v1');
    expect(act(agent, observeMap(map, [[1, 1]]))).toEqual({ p0000: 'W' });
    // The west exit burns: the static field still points there, the move is illegal, so STAY.
    expect(act(agent, observeMap(map, [[1, 1]], [[1, 0]], 1))).toEqual({ p0000: 'STAY' });
  });
});

describe('fire-aware-shortest-path-v1', () => {
  it('reroutes when the fire takes the nearest exit', () => {
    const map = ['#####', 'E...E', '#####'];
    const agent = make('fire-aware-shortest-path-v1');
    expect(act(agent, observeMap(map, [[1, 1]]))).toEqual({ p0000: 'W' });
    expect(act(agent, observeMap(map, [[1, 1]], [[1, 0]], 1))).toEqual({ p0000: 'E' });
  });

  it('routes around the fire', () => {
    // The direct way north is burning and the east is a dead end; the detour goes west.
    const map = ['.E.', '..#', '...'];
    const observation = observeMap(map, [[2, 1]], [[1, 1]]);
    expect(act(make('fire-aware-shortest-path-v1'), observation)).toEqual({ p0000: 'W' });
  });

  it('prefers the equally short route away from the fire', () => {
    // From (2,0) to the exit (0,2): N and E are both shortest; the fire at
    // (2,3) is 2 from (2,1), so every route through E passes the danger zone.
    const map = ['..E.', '....', '....'];
    const observation = observeMap(map, [[2, 0]], [[2, 3]]);
    expect(act(make('fire-aware-shortest-path-v1'), observation)).toEqual({ p0000: 'N' });
    // Mirror: fire on the other side makes E the safer first step.
    const mirrored = observeMap(['..E.', '....', '....'], [[2, 0]], [[0, 0]]);
    expect(act(make('fire-aware-shortest-path-v1'), mirrored)).toEqual({ p0000: 'E' });
  });

  it('stays when no route is left', () => {
    const observation = observeMap(['E#..', '.#..'], [[1, 3]]);
    expect(act(make('fire-aware-shortest-path-v1'), observation)).toEqual({ p0000: 'STAY' });
  });
});
