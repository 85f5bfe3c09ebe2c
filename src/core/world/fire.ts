/**
 * The fire world (environment.md sections 3 and 5): the burning sets
 * B(0..H) of one (scenario, seed), a function of those two alone, computed
 * as far as it is read (to the horizon H for a reader of the whole).
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

/**
 * What an episode reads of its fire world as it advances: the fire is
 * computed step by step as far as the episode has come (an episode that
 * ends early never pays for the steps up to H), with the very draws and
 * cells of the whole computation, since B(t+1) depends on B(t) and the
 * stream alone.
 */
export interface FireGrowth {
  /**
   * The fire world's ignition steps as far as computed: exact for every
   * cell that ignites by the last computed snapshot, NEVER for the others,
   * so `ignitionStep[cell] <= t` is B(t) membership for every snapshot t
   * computed (by newlyAt). The same array the whole world ends with.
   */
  readonly ignitionStep: Int32Array;
  /** B(t) minus B(t - 1) (B(0) for t = 0), computing the fire up to snapshot t first. */
  newlyAt(t: number): readonly number[];
}

/** The state of the spread between two snapshots (fire.ts), dropped once the horizon is reached. */
interface Spread {
  readonly thresholds: readonly number[];
  /** Ignitions by step after step 0; a cell listed for a step it already burns at adds nothing. */
  readonly scheduled: ReadonlyMap<number, readonly number[]>;
  readonly frontier: Frontier;
  /**
   * Each cell's number of burning neighbours (N, E, S, W) in B(t), kept as
   * cells ignite rather than recounted at every draw.
   */
  readonly burningNeighbours: Uint8Array;
  readonly fresh: Int32Array;
  readonly rng: { next(): number };
}

/**
 * The fire world of one (scenario, seed), computed lazily: B(0) at once,
 * further snapshots as an episode asks for them (growth), and the rest up to
 * H when a reader takes the whole trajectory (ignitionStep, newlyBurning,
 * digest), as references and packs do.
 */
class LazyFireWorld implements FireWorld {
  readonly maxSteps: number;
  readonly growth: FireGrowth;
  private readonly grid: Grid;
  private readonly ignition: Int32Array;
  private readonly steps: number[][] = [];
  private spread: Spread | null;
  private digestText: string | undefined;

  constructor(scenario: Scenario, seed: string) {
    const { grid, maxSteps } = scenario;
    const size = grid.kinds.length;
    this.maxSteps = maxSteps;
    this.grid = grid;
    const ignitionStep = new Int32Array(size).fill(NEVER);
    this.ignition = ignitionStep;

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
    this.steps.push(initial);

    this.spread = {
      thresholds: spreadThresholds(scenario.spreadProbability),
      scheduled,
      frontier: new Frontier(grid.kinds, ignitionStep),
      burningNeighbours: new Uint8Array(size),
      fresh: new Int32Array(size),
      rng: streamRng(scenario.hash, seed, 'fire'),
    };
    for (const cell of initial) this.ignite(cell);
    this.spread.frontier.settle();
    if (maxSteps === 0) this.spread = null;
    this.growth = { ignitionStep, newlyAt: (t) => this.newlyAt(t) };
  }

  get ignitionStep(): Int32Array {
    this.advanceTo(this.maxSteps);
    return this.ignition;
  }

  get newlyBurning(): readonly (readonly number[])[] {
    this.advanceTo(this.maxSteps);
    return this.steps;
  }

  // The digest hashes every newly burning cell, which costs more than the
  // simulation itself; only packs and audits read it, so it is computed on
  // first read and kept.
  get digest(): string {
    return (this.digestText ??= fireWorldDigest(this.grid, this.newlyBurning));
  }

  private newlyAt(t: number): readonly number[] {
    if (t >= this.steps.length) this.advanceTo(t);
    const cells = this.steps[t];
    if (cells === undefined) throw new RangeError(`snapshot ${t} is beyond the fire world's horizon ${this.maxSteps}`);
    return cells;
  }

  private ignite(cell: number): void {
    const { burningNeighbours, frontier } = this.spread!;
    const cols = this.grid.cols;
    const size = burningNeighbours.length;
    const col = cell % cols;
    if (cell >= cols) burningNeighbours[cell - cols]++;
    if (col + 1 < cols) burningNeighbours[cell + 1]++;
    if (cell + cols < size) burningNeighbours[cell + cols]++;
    if (col > 0) burningNeighbours[cell - 1]++;
    frontier.offerNeighbours(cell, cols);
  }

  /** Computes B(t + 1) for every computed t below `target` (at most H). */
  private advanceTo(target: number): void {
    const spread = this.spread;
    if (spread === null) return;
    const last = Math.min(target, this.maxSteps);
    const { thresholds, scheduled, frontier, burningNeighbours, fresh, rng } = spread;
    const ignitionStep = this.ignition;
    for (let t = this.steps.length - 1; t < last; t++) {
      const next = t + 1;
      let count = 0;
      const { cells, count: frontierCount } = frontier;
      for (let f = 0; f < frontierCount; f++) {
        const cell = cells[f]!;
        if (rng.next() < thresholds[burningNeighbours[cell]!]!) fresh[count++] = cell;
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
        this.ignite(cell);
      }
      this.steps.push(ignited);
      if (count > 0) frontier.settle();
    }
    if (this.steps.length === this.maxSteps + 1) {
      this.spread = null; // the horizon: the frontier and counts are garbage now
    }
  }
}

/**
 * The fire world of (scenario, seed). Its trajectory is computed as it is
 * read: step by step through fireGrowth (the simulation), to the horizon
 * when the whole of it is read.
 */
export function buildFireWorld(scenario: Scenario, seed: string): FireWorld {
  return new LazyFireWorld(scenario, seed);
}

/**
 * The step-by-step view of a fire world. A fire world given whole (a plain
 * object, as the test kits build) is read as it is.
 */
export function fireGrowth(fire: FireWorld): FireGrowth {
  if (fire instanceof LazyFireWorld) return fire.growth;
  const { ignitionStep, newlyBurning, maxSteps } = fire;
  if (newlyBurning.length !== maxSteps + 1) throw new RangeError('the fire world does not cover its horizon');
  return {
    ignitionStep,
    newlyAt: (t) => {
      const cells = newlyBurning[t];
      if (cells === undefined) throw new RangeError(`snapshot ${t} is beyond the fire world's horizon ${maxSteps}`);
      return cells;
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
