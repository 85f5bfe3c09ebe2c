import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACTIONS, actionToDirection, type Action, type ActionSet } from '../sim/actions.js';
import type { Agent, AgentFactory } from '../sim/agent.js';
import { personId, type Observation } from '../sim/observation.js';
import { MovePredictor } from '../sim/predict.js';
import { WALL, gridFromMap, neighbour } from '../world/grid.js';
import { blockScrubFactory, scrubBlockedMoves } from './block-scrub.js';
import { CongestionAwareAgent } from './congestion-aware.js';
import { FireAwareShortestPathAgent } from './fire-aware-shortest-path.js';
import { baselineFactory } from './registry.js';

type Cell = readonly [number, number];

function observe(map: readonly string[], people: readonly Cell[], burning: readonly Cell[] = []): Observation {
  const exits: Cell[] = [];
  map.forEach((row, r) => [...row].forEach((ch, c) => ch === 'E' && exits.push([r, c])));
  return { step: 0, max_steps: 100, map, exits, burning, people: people.map((cell, i) => ({ id: personId(i), cell })), evacuated: 0, dead: 0 };
}

/** An agent that always returns the given action set. */
function fixed(actions: ActionSet): AgentFactory {
  return () => ({ act: () => actions });
}

async function scrubbed(inner: AgentFactory, observation: Observation): Promise<ActionSet> {
  const agent = await blockScrubFactory(inner)();
  return agent.act(observation);
}

describe('adv-block-scrub', () => {
  it('replaces a conflict loser with STAY and keeps the winner', async () => {
    const observation = observe(['#E#', '#.#', '...'], [[2, 0], [2, 2]]);
    expect(await scrubbed(fixed({ p0000: 'E', p0001: 'W' }), observation)).toEqual({ p0000: 'E', p0001: 'STAY' });
  });

  it('scrubs a whole blocked chain and a swap, and leaves a moving chain alone', async () => {
    // Row 0: p0000 stays, p0001 and p0002 queue behind it (blocked, occupied).
    // Row 1: p0003 and p0004 swap (blocked, cycle).
    // Row 2: p0005 follows p0006, who steps onto the exit (both succeed).
    const map = ['.....', '.....', '....E'];
    const observation = observe(map, [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [2, 2], [2, 3]]);
    const inner: ActionSet = { p0000: 'STAY', p0001: 'W', p0002: 'W', p0003: 'E', p0004: 'W', p0005: 'E', p0006: 'E' };
    expect(await scrubbed(fixed(inner), observation)).toEqual({
      p0000: 'STAY',
      p0001: 'STAY',
      p0002: 'STAY',
      p0003: 'STAY',
      p0004: 'STAY',
      p0005: 'E',
      p0006: 'E',
    });
  });

  it('returns the inner action set itself when nothing is blocked', () => {
    const observation = observe(['E..'], [[0, 1]]);
    const inner: ActionSet = { p0000: 'W' };
    expect(scrubBlockedMoves(new MovePredictor(observation.map), observation, inner)).toBe(inner);
  });

  it('passes an action set the resolver cannot take through unchanged, for the host to reject', () => {
    const observation = observe(['#E#', '#.#', '...'], [[2, 0], [2, 2]]);
    const predictor = new MovePredictor(observation.map);
    const intoWall: ActionSet = { p0000: 'N', p0001: 'W' };
    expect(scrubBlockedMoves(predictor, observation, intoWall)).toBe(intoWall);
    const notAnAction = { p0000: 'E', p0001: 'UP' } as unknown as ActionSet;
    expect(scrubBlockedMoves(predictor, observation, notAnAction)).toBe(notAnAction);
  });

  it('wraps asynchronous agents and factories, and forwards close', async () => {
    let closed = 0;
    const inner: AgentFactory = async () => ({
      act: async () => ({ p0000: 'E', p0001: 'W' }) as ActionSet,
      close: () => {
        closed++;
      },
    });
    const agent = await blockScrubFactory(inner)();
    const observation = observe(['#E#', '#.#', '...'], [[2, 0], [2, 2]]);
    const result = agent.act(observation);
    expect(result).toBeInstanceOf(Promise);
    expect(await result).toEqual({ p0000: 'E', p0001: 'STAY' });
    await agent.close?.();
    expect(closed).toBe(1);
  });

  it('is synchronous around a synchronous agent', () => {
    const agent = blockScrubFactory(() => new FireAwareShortestPathAgent())() as Agent;
    const result = agent.act(observe(['E..'], [[0, 2]]));
    expect(result).not.toBeInstanceOf(Promise);
    expect(result).toEqual({ p0000: 'W' });
  });

  it('as registered, runs congestion-aware-v1 (which leaves it nothing to scrub)', () => {
    const observation = observe(['##E##', '#...#', '#...#'], [[2, 2], [1, 1], [2, 1]]);
    const adversary = baselineFactory('adv-block-scrub')!() as Agent;
    expect(adversary.act(observation)).toEqual(new CongestionAwareAgent().act(observation));
  });

  it('leaves no blocked move and every predicted position unchanged (the scrub property)', () => {
    const world = fc
      .record({ rows: fc.integer({ min: 1, max: 6 }), cols: fc.integer({ min: 1, max: 6 }) })
      .chain(({ rows, cols }) =>
        fc.record({
          rows: fc.constant(rows),
          cols: fc.constant(cols),
          chars: fc.array(fc.constantFrom('#', '.', '.', '.', 'E'), { minLength: rows * cols, maxLength: rows * cols }),
          occupy: fc.array(fc.boolean(), { minLength: rows * cols, maxLength: rows * cols }),
          picks: fc.array(fc.nat(4), { minLength: rows * cols, maxLength: rows * cols }),
        }),
      );
    fc.assert(
      fc.property(world, ({ rows, cols, chars, occupy, picks }) => {
        const map = Array.from({ length: rows }, (_, r) => chars.slice(r * cols, (r + 1) * cols).join(''));
        const grid = gridFromMap(map);
        const spots = chars.map((_, c) => c).filter((c) => chars[c] === '.' && occupy[c]);
        const observation = observe(
          map,
          spots.map((c) => [Math.floor(c / cols), c % cols] as const),
        );
        // Any action that stays on the grid and off walls, so the resolver takes it.
        const actions: Record<string, Action> = {};
        spots.forEach((cell, i) => {
          const options = ACTIONS.filter((a) => {
            const t = neighbour(grid, cell, actionToDirection(a));
            return t >= 0 && grid.kinds[t] !== WALL;
          });
          actions[personId(i)] = options[picks[cell]! % options.length]!;
        });
        const predictor = new MovePredictor(map);
        const before = predictor.predict(observation, actions);
        const after = scrubBlockedMoves(predictor, observation, actions);
        const predicted = predictor.predict(observation, after);
        expect(predicted.filter((m) => m.blocked !== null)).toEqual([]);
        expect(predicted.map((m) => [m.cell, m.evacuated])).toEqual(before.map((m) => [m.cell, m.evacuated]));
        for (const move of before) expect(after[move.id]).toBe(move.blocked === null ? actions[move.id] : 'STAY');
      }),
      { numRuns: 500 },
    );
  });
});
