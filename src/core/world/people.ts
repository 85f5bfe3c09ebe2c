/**
 * People placement (environment.md sections 2 and 5). Placements run in
 * order: a `cell` places one person where it says; a `zone` draws `count`
 * distinct eligible cells of its rectangle (listed row-major) with the
 * seeded "people" stream by partial Fisher-Yates, in draw order.
 *
 * A cell is eligible for a zone when it is floor, not a step-0 ignition,
 * not an ignition candidate, not any explicit `cell` of the placement list
 * (wherever that placement stands) and not taken by an earlier zone. All but
 * the last condition are independent of the seed ("static eligibility").
 */

import { ValidationError } from '../errors.js';
import { FLOOR, type Grid } from './grid.js';
import { streamRng } from './rng.js';
import type { Ignition, Placement, Scenario } from './scenario-types.js';

export type ZonePlacement = Extract<Placement, { kind: 'zone' }>;

/** 1 for every cell a zone may draw whatever the seed, else 0 (row-major). */
export function staticEligibility(
  grid: Grid,
  placements: readonly Placement[],
  ignitions: readonly Ignition[],
  candidateCells: readonly number[],
): Uint8Array {
  const eligible = new Uint8Array(grid.kinds.length);
  for (let i = 0; i < eligible.length; i++) eligible[i] = grid.kinds[i] === FLOOR ? 1 : 0;
  for (const ignition of ignitions) if (ignition.step === 0) eligible[ignition.cell] = 0;
  for (const cell of candidateCells) eligible[cell] = 0;
  for (const placement of placements) if (placement.kind === 'cell') eligible[placement.cell] = 0;
  return eligible;
}

/** The cells of a zone that are eligible and not taken, row-major. */
export function zoneCells(grid: Grid, zone: ZonePlacement, eligible: Uint8Array, taken?: Uint8Array): number[] {
  const cells: number[] = [];
  for (let r = zone.r0; r <= zone.r1; r++) {
    for (let c = zone.c0; c <= zone.c1; c++) {
      const cell = r * grid.cols + c;
      if (eligible[cell] === 1 && (taken === undefined || taken[cell] === 0)) cells.push(cell);
    }
  }
  return cells;
}

/** A zone that may run out of cells for some seed. */
export interface ZoneShortfall {
  /** Index of the zone in the placement list. */
  readonly index: number;
  /** Statically eligible cells of the zone. */
  readonly eligible: number;
  /** Most of those cells earlier zones can take, over every possible draw. */
  readonly reservable: number;
  readonly count: number;
}

/**
 * The first zone that some seed could leave with fewer than `count` cells,
 * or null. Which cells earlier zones take depends on the seed, so the check
 * is the seed-independent worst case: an earlier zone j takes at most
 * min(count_j, |E_j ∩ E_z|) cells of zone z (E = statically eligible cells),
 * so z is safe for every seed when |E_z| - sum_j min(count_j, |E_j ∩ E_z|)
 * >= count_z. A zone that passes can never fail at draw time; a zone that
 * fails is rejected even if no actual seed would reach the worst case.
 */
export function findZoneShortfall(
  grid: Grid,
  placements: readonly Placement[],
  eligible: Uint8Array,
): ZoneShortfall | null {
  const table = prefixCounts(grid, eligible);
  const zones: { zone: ZonePlacement; index: number }[] = [];
  placements.forEach((placement, index) => {
    if (placement.kind === 'zone') zones.push({ zone: placement, index });
  });
  for (let z = 0; z < zones.length; z++) {
    const { zone, index } = zones[z]!;
    const own = rectCount(table, grid.cols, zone.r0, zone.c0, zone.r1, zone.c1);
    let reservable = 0;
    for (let j = 0; j < z && reservable < own; j++) {
      const other = zones[j]!.zone;
      const r0 = Math.max(zone.r0, other.r0);
      const c0 = Math.max(zone.c0, other.c0);
      const r1 = Math.min(zone.r1, other.r1);
      const c1 = Math.min(zone.c1, other.c1);
      if (r0 > r1 || c0 > c1) continue;
      reservable += Math.min(other.count, rectCount(table, grid.cols, r0, c0, r1, c1));
    }
    reservable = Math.min(reservable, own);
    if (own - reservable < zone.count) return { index, eligible: own, reservable, count: zone.count };
  }
  return null;
}

// 2-D prefix sums with a zero border: table[(r + 1) * (cols + 1) + (c + 1)]
// counts eligible cells in rows 0..r, cols 0..c.
function prefixCounts(grid: Grid, eligible: Uint8Array): Int32Array {
  const width = grid.cols + 1;
  const table = new Int32Array((grid.rows + 1) * width);
  for (let r = 0; r < grid.rows; r++) {
    let rowSum = 0;
    for (let c = 0; c < grid.cols; c++) {
      rowSum += eligible[r * grid.cols + c]!;
      table[(r + 1) * width + c + 1] = table[r * width + c + 1]! + rowSum;
    }
  }
  return table;
}

function rectCount(table: Int32Array, cols: number, r0: number, c0: number, r1: number, c1: number): number {
  const width = cols + 1;
  return (
    table[(r1 + 1) * width + c1 + 1]! - table[r0 * width + c1 + 1]! - table[(r1 + 1) * width + c0]! + table[r0 * width + c0]!
  );
}

/** Start cell of every person, in person order (placement order, zones in draw order). */
export function placePeople(scenario: Scenario, seed: string): Int32Array {
  const { grid, placements } = scenario;
  const cells = new Int32Array(scenario.population);
  const eligible = staticEligibility(grid, placements, scenario.ignitions, scenario.candidateCells);
  const taken = new Uint8Array(grid.kinds.length);
  // The stream is keyed by a SHA-256; skip it when no zone draws.
  const rng = placements.some((p) => p.kind === 'zone') ? streamRng(scenario.hash, seed, 'people') : null;
  let next = 0;
  placements.forEach((placement, index) => {
    switch (placement.kind) {
      case 'cell':
        cells[next++] = placement.cell;
        return;
      case 'zone': {
        const pool = zoneCells(grid, placement, eligible, taken);
        // Validation rules this out; kept so that a hand-built Scenario fails closed.
        if (pool.length < placement.count) {
          throw new ValidationError(
            `${scenario.scenarioId}: people[${index}].zone: ${pool.length} eligible cells for count ${placement.count}`,
          );
        }
        for (const cell of rng!.choose(pool, placement.count)) {
          taken[cell] = 1;
          cells[next++] = cell;
        }
        return;
      }
    }
  });
  if (next !== cells.length) {
    throw new ValidationError(`${scenario.scenarioId}: people: placements give ${next} people, population is ${cells.length}`);
  }
  return cells;
}
