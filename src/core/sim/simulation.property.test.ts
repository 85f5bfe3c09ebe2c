import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MismatchError } from '../errors.js';
import { prepareEpisode } from '../world/episode-start.js';
import { EXIT, FLOOR, WALL, neighbour, type Direction } from '../world/grid.js';
import { validateScenario } from '../world/scenario.js';
import type { EpisodeStart } from '../world/scenario-types.js';
import { ACTIVE, DEAD, EVACUATED, STRANDED } from './events.js';
import { parseRecordText } from './record-codec.js';
import { recordDigest, recordText, type RunRecord } from './record.js';
import { NOT_BLOCKED } from './resolver.js';
import { replayRecord } from './authenticate-record.js';
import { runEpisode } from './episode.js';
import { EpisodeSimulation } from './simulation.js';
import { randomLegalAgent, scriptedAgent, testScenario, type TestWorldSpec } from '../../../test/kits/worlds.js';

interface RandomEpisode {
  readonly spec: TestWorldSpec;
  readonly seed: string;
  readonly draws: number[];
}

/** Random small worlds: walls, floors, exits, a few people, scheduled ignitions and spread. */
const randomEpisode: fc.Arbitrary<RandomEpisode> = fc
  .record({
    rows: fc.integer({ min: 1, max: 6 }),
    cols: fc.integer({ min: 2, max: 7 }),
    maxSteps: fc.integer({ min: 1, max: 15 }),
    spread: fc.constantFrom('0', '0.1', '0.3', '0.5', '1'),
    seed: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
    draws: fc.array(fc.nat(), { minLength: 1, maxLength: 40 }),
  })
  .chain(({ rows, cols, maxSteps, spread, seed, draws }) =>
    fc
      .record({
        kinds: fc.array(fc.constantFrom('#', '.', '.', '.', '.', 'E'), { minLength: rows * cols, maxLength: rows * cols }),
        exitAt: fc.nat(rows * cols - 1),
        person: fc.array(fc.boolean(), { minLength: rows * cols, maxLength: rows * cols }),
        fire: fc.array(fc.option(fc.nat(maxSteps), { freq: 4 }), { minLength: rows * cols, maxLength: rows * cols }),
      })
      .map(({ kinds, exitAt, person, fire }) => {
        const cells = kinds.slice();
        if (!cells.includes('E')) cells[exitAt] = 'E';
        const people: [number, number][] = [];
        const ignitions: { cell: [number, number]; step: number }[] = [];
        cells.forEach((kind, i) => {
          const cell: [number, number] = [Math.floor(i / cols), i % cols];
          const isPerson = kind === '.' && person[i]!;
          if (isPerson) people.push(cell);
          const step = fire[i];
          // Nobody starts on a step-0 ignition (scenario consistency).
          if (kind !== '#' && step !== null && step !== undefined && !(isPerson && step === 0)) ignitions.push({ cell, step });
        });
        const map = Array.from({ length: rows }, (_, r) => cells.slice(r * cols, (r + 1) * cols).join(''));
        return { spec: { map, people, fire: ignitions, maxSteps, spreadProbability: spread }, seed: seed.toString(), draws };
      }),
  )
  .filter(({ spec }) => spec.people!.length > 0);

function startOf({ spec, seed }: RandomEpisode): EpisodeStart {
  return prepareEpisode(validateScenario(testScenario(spec).json, 'random'), seed);
}

describe('simulation invariants on random episodes', () => {
  it('keeps people distinct, off walls, exits and fire; conserves the population; fire only grows', () => {
    fc.assert(
      fc.property(randomEpisode, (episode) => {
        const start = startOf(episode);
        const sim = new EpisodeSimulation(start);
        const { grid } = sim;
        const agent = randomLegalAgent(episode.draws);
        let burning = new Set<number>();
        while (!sim.done) {
          const observation = sim.observe();
          const now = new Set(observation.burning.map(([r, c]) => r * grid.cols + c));
          for (const cell of burning) expect(now.has(cell)).toBe(true); // B(t-1) within B(t)
          burning = now;
          const event = sim.step(sim.checkActions(agent.act(observation)));
          const t1 = sim.t;
          // Each person ends on its cell plus the direction it moved.
          event.active.forEach((i, k) => {
            const moved = event.resolution.blocked[k] === NOT_BLOCKED ? event.moves[k]! : 0;
            expect(sim.cells[i]).toBe(neighbour(grid, event.cellsBefore[k]!, moved as Direction));
            if (event.resolution.evacuated[k] === 1) {
              expect(grid.kinds[sim.cells[i]!]).toBe(EXIT);
              expect(start.fire.ignitionStep[sim.cells[i]!]).toBeGreaterThan(t1 - 1); // not in B(t)
              expect(sim.status[i]).toBe(EVACUATED);
            }
          });
          const seen = new Set<number>();
          const counts = [0, 0, 0, 0];
          for (let i = 0; i < sim.population; i++) {
            counts[sim.status[i]!]!++;
            if (sim.status[i] !== ACTIVE) continue;
            const cell = sim.cells[i]!;
            expect(seen.has(cell)).toBe(false);
            seen.add(cell);
            expect(grid.kinds[cell]).toBe(FLOOR);
            expect(grid.kinds[cell]).not.toBe(WALL);
            expect(start.fire.ignitionStep[cell]).toBeGreaterThan(t1); // not in B(t+1)
          }
          expect(counts.reduce((a, b) => a + b, 0)).toBe(sim.population);
          expect(counts[EVACUATED]).toBe(sim.evacuated);
          expect(counts[DEAD]).toBe(sim.dead);
          expect(sim.active.length).toBe(sim.done ? 0 : counts[ACTIVE]);
        }
        const outcome = sim.outcome();
        expect(outcome.status.every((s) => s === EVACUATED || s === DEAD || s === STRANDED)).toBe(true);
        expect(outcome.steps).toBeLessThanOrEqual(start.scenario.maxSteps);
        if (outcome.termination === 'horizon') expect(outcome.steps).toBe(start.scenario.maxSteps);
        else expect(outcome.status.includes(STRANDED)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

describe('records of random episodes', () => {
  it('scrub property: replacing every blocked move with STAY gives a byte-identical trajectory', async () => {
    await fc.assert(
      fc.asyncProperty(randomEpisode, async (episode) => {
        const first = (await runEpisode(startOf(episode), randomLegalAgent(episode.draws))).record;
        const scrubbed = (await runEpisode(startOf(episode), scriptedAgent(first.trajectory.map((s) => s.moved)))).record;
        const states = (r: RunRecord) => r.trajectory.map(({ moved, evacuated, died, burning }) => ({ moved, evacuated, died, burning }));
        expect(states(scrubbed)).toEqual(states(first));
        expect(scrubbed.outcomes).toEqual(first.outcomes);
        expect([scrubbed.steps, scrubbed.termination_reason]).toEqual([first.steps, first.termination_reason]);
        // The scrubbed run has no blocked move left.
        for (const step of scrubbed.trajectory) expect(step.actions).toBe(step.moved);
      }),
      { numRuns: 200 },
    );
  });

  it('every record replays from its text, and any changed moved character is a mismatch', async () => {
    await fc.assert(
      fc.asyncProperty(randomEpisode, fc.nat(), fc.nat(), fc.nat(3), async (episode, pickStep, pickPerson, pickChar) => {
        const start = startOf(episode);
        const record = (await runEpisode(start, randomLegalAgent(episode.draws))).record;
        const text = recordText(record);
        const loaded = parseRecordText(text, 'random.json');
        const result = replayRecord(start.scenario, loaded);
        expect(result.digest).toBe(recordDigest(text));
        expect(result.steps).toBe(record.steps);

        const k = pickStep % record.trajectory.length;
        const moved = record.trajectory[k]!.moved;
        const j = pickPerson % moved.length;
        const others = '.NESW'.replace(moved[j]!, '');
        const changed = moved.slice(0, j) + others[pickChar] + moved.slice(j + 1);
        const copy = JSON.parse(text) as { trajectory: { moved: string }[] };
        copy.trajectory[k]!.moved = changed;
        expect(() => replayRecord(start.scenario, copy as unknown as RunRecord)).toThrow(MismatchError);
      }),
      { numRuns: 200 },
    );
  });
});
