/**
 * The fire world (environment.md sections 3 and 5): the burning sets
 * B(0..H) of one (scenario, seed), a function of those two alone and always
 * computed to the horizon H.
 *
 * B(0) = step-0 ignitions + `count` candidates drawn with the "ignition"
 * stream. For t = 0..H-1, B(t+1) = B(t) + ignitions scheduled at t+1 +
 * spread, where the spread visits, in row-major order, every flammable cell
 * outside B(t) with k >= 1 neighbours in B(t), draws one uint32 u from the
 * "fire" stream and ignites the cell iff u < T_k. Every decision reads
 * B(t) only, so a cell scheduled for t+1 still takes its draw.
 */

import { ValidationError } from '../errors.js';
import { sha256Hex } from '../hash.js';
import type { Grid } from './grid.js';
import { Frontier, sortAscending } from './frontier.js';
import { streamRng } from './rng.js';
import { NEVER, type FireWorld, type Scenario } from './scenario-types.js';

export const SPREAD_PROBABILITY = /^(0|1|0\.[0-9]*[1-9])$/;

const TWO_32 = 1n << 32n;
const NONE: readonly number[] = [];

/**
 * The spread thresholds T_k = floor((1 - (1 - p)^k) * 2^32) for k = 0..4,
 * exact in BigInt from the decimal string p = a / 10^d:
 * T_k = floor((10^(dk) - (10^d - a)^k) * 2^32 / 10^(dk)).
 * Index 0 is 0 (a cell with no burning neighbour never ignites); T_k is
 * 2^32 when p = 1, which every uint32 draw is below.
 */
export function spreadThresholds(p: string): number[] {
  if (!SPREAD_PROBABILITY.test(p)) {
    throw new ValidationError(`spread probability: must be a decimal string in [0, 1], got ${JSON.stringify(p)}`);
  }
  const fraction = p.includes('.') ? p.slice(p.indexOf('.') + 1) : '';
  const scale = 10n ** BigInt(fraction.length);
  const numerator = BigInt(p.replace('.', ''));
  const keep = scale - numerator; // (1 - p) * scale
  const thresholds = [0];
  for (let k = 1n; k <= 4n; k++) {
    const denominator = scale ** k;
    thresholds.push(Number(((denominator - keep ** k) * TWO_32) / denominator));
  }
  return thresholds;
}

export function buildFireWorld(scenario: Scenario, seed: string): FireWorld {
  const { grid, maxSteps } = scenario;
  const size = grid.kinds.length;
  const cols = grid.cols;
  const thresholds = spreadThresholds(scenario.spreadProbability);
  const ignitionStep = new Int32Array(size).fill(NEVER);
  const newlyBurning: number[][] = [];

  // Ignitions by step; a cell listed for a step it already burns at adds nothing.
  const scheduled = new Map<number, number[]>();
  for (const { cell, step } of scenario.ignitions) {
    const list = scheduled.get(step);
    if (list === undefined) scheduled.set(step, [cell]);
    else list.push(cell);
  }

  const start = new Set<number>(scheduled.get(0) ?? []);
  if (scenario.candidateCount > 0) {
    const rng = streamRng(scenario.hash, seed, 'ignition');
    for (const cell of rng.choose(scenario.candidateCells, scenario.candidateCount)) start.add(cell);
  }
  const initial = [...start].sort((a, b) => a - b);
  for (const cell of initial) ignitionStep[cell] = 0;
  newlyBurning.push(initial);

  const frontier = new Frontier(grid.kinds, ignitionStep);
  // Each cell's number of burning neighbours (N, E, S, W) in B(t), kept as
  // cells ignite rather than recounted at every draw.
  const burningNeighbours = new Uint8Array(size);
  const ignite = (cell: number): void => {
    const col = cell % cols;
    if (cell >= cols) burningNeighbours[cell - cols]++;
    if (col + 1 < cols) burningNeighbours[cell + 1]++;
    if (cell + cols < size) burningNeighbours[cell + cols]++;
    if (col > 0) burningNeighbours[cell - 1]++;
    frontier.offerNeighbours(cell, cols);
  };
  for (const cell of initial) ignite(cell);
  frontier.settle();

  const fresh = new Int32Array(size);
  const fireRng = streamRng(scenario.hash, seed, 'fire');
  for (let t = 0; t < maxSteps; t++) {
    const next = t + 1;
    let count = 0;
    const { cells, count: frontierCount } = frontier;
    for (let f = 0; f < frontierCount; f++) {
      const cell = cells[f]!;
      if (fireRng.next() < thresholds[burningNeighbours[cell]!]!) fresh[count++] = cell;
    }
    // Marked only after every draw of this phase: draws depend on B(t) alone.
    for (let k = 0; k < count; k++) ignitionStep[fresh[k]!] = next;
    const drawn = count;
    for (const cell of scheduled.get(next) ?? NONE) {
      if (ignitionStep[cell] === NEVER) {
        ignitionStep[cell] = next;
        fresh[count++] = cell;
      }
    }
    // The drawn cells are ascending already (the frontier is); scheduled ones are not.
    if (count > drawn) sortAscending(fresh, count);
    const ignited = new Array<number>(count);
    for (let k = 0; k < count; k++) {
      const cell = fresh[k]!;
      ignited[k] = cell;
      ignite(cell);
    }
    newlyBurning.push(ignited);
    if (count > 0) frontier.settle();
  }

  // The digest hashes every newly burning cell, which costs more than the
  // simulation itself; only packs and audits read it, so it is computed on
  // first read and kept.
  let digest: string | undefined;
  return {
    maxSteps,
    ignitionStep,
    newlyBurning,
    get digest(): string {
      return (digest ??= fireWorldDigest(grid, newlyBurning));
    },
  };
}

/**
 * environment_world_version 1.0: SHA-256 of the canonical JSON of the H + 1
 * arrays of newly burning `[row, col]` cells. Written directly rather than
 * through canonicalJson: the value holds only small non-negative integers,
 * whose canonical form is their decimal digits.
 */
export function fireWorldDigest(grid: Grid, newlyBurning: readonly (readonly number[])[]): string {
  const cols = grid.cols;
  const steps = newlyBurning.map(
    (cells) => '[' + cells.map((cell) => `[${Math.floor(cell / cols)},${cell % cols}]`).join(',') + ']',
  );
  return sha256Hex('[' + steps.join(',') + ']');
}
