// The bounded-memory references (run-length L table, fixed-point jump over a
// fire-free tail) against the former dense backward induction, kept as an
// oracle in references-dense-testkit.ts: every L(x, t), L_i, m*_i, D*_i and M*.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testEpisodeStart } from '../../../test/kits/worlds.js';
import { FLOOR, type Grid } from '../world/grid.js';
import { prepareEpisode } from '../world/episode-start.js';
import type { FireWorld } from '../world/scenario-types.js';
import { loadSuite } from '../world/suite.js';
import { denseReferences } from '../../../test/kits/references-dense.js';
import { randomWorld } from '../../../test/kits/references.js';
import { computeReferences } from './references.js';

/** Compares everything; returns the number of runs stored (to show the table is compact). */
function expectSameAsDense(grid: Grid, fire: FireWorld, startCells: ArrayLike<number>): number {
  const refs = computeReferences(grid, fire, startCells);
  const dense = denseReferences(grid, fire, startCells);
  expect(refs.earliestEvacuation).toEqual(dense.earliestEvacuation);
  expect(refs.fewestMoves).toEqual(dense.fewestMoves);
  expect(refs.fewestDangerStates).toEqual(dense.fewestDangerStates);
  expect(refs.maxEvacuated).toBe(dense.maxEvacuated);
  const n = grid.rows * grid.cols;
  const table = refs.earliestTable;
  for (let t = 0; t <= fire.maxSteps; t++) {
    for (let x = 0; x < n; x++) {
      const got = table.at(x, t);
      if (got !== dense.table[t * n + x]) expect({ x, t, got }).toEqual({ x, t, got: dense.table[t * n + x] });
    }
  }
  return table.runCount;
}

describe('computeReferences equals the dense backward induction', () => {
  it('on random worlds whose fire stops early or late, with long horizons (every cell and snapshot)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.integer({ min: 2, max: 9 }),
        fc.integer({ min: 2, max: 9 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        (seed, rows, cols, maxSteps, fireEnd) => {
          const world = randomWorld(seed, { rows, cols, maxSteps, density: 0 });
          // Fold the ignition steps into 0..fireEnd so the fire is often static for most of the horizon.
          const last = Math.min(fireEnd, maxSteps);
          const fireSpec = world.fire.map((f) => ({ cell: f.cell, step: f.step % (last + 1) }));
          const start = testEpisodeStart({ map: world.map, fire: fireSpec, maxSteps });
          const grid = start.scenario.grid;
          const floors: number[] = [];
          for (let x = 0; x < grid.kinds.length; x++) if (grid.kinds[x] === FLOOR) floors.push(x);
          expectSameAsDense(grid, start.fire, floors);
        },
      ),
      { numRuns: 300, seed: 20261201 },
    );
  });

  it('on every public scenario with its spreading fire (seeds 0 and 1), in far fewer runs than cells x snapshots', () => {
    const dir = join(import.meta.dirname, '..', '..', '..', 'scenarios', 'public', 'v1');
    const files = new Map(readdirSync(dir).filter((f) => f !== 'manifest.json').map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
    const suite = loadSuite(readFileSync(join(dir, 'manifest.json'), 'utf8'), files, dir);
    for (const entry of suite.entries) {
      for (const seed of ['0', '1']) {
        const start = prepareEpisode(entry.scenario, seed);
        const grid = entry.scenario.grid;
        const runs = expectSameAsDense(grid, start.fire, start.startCells);
        expect(runs).toBeLessThan(((grid.rows * grid.cols * (start.fire.maxSteps + 1)) / 10) | 0);
      }
    }
  }, 120_000);
});
