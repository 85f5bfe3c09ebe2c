/**
 * Per-episode metrics (metrics_version 1.0) and crowd diagnostics
 * (crowd_diagnostics_version 1.0), environment.md section 8.
 *
 * Computed by an EpisodeObserver from the step events of the authenticated
 * trajectory (the simulator and the replay check emit the same events), so a
 * stored result's metrics can be recomputed from its run record alone.
 * Every number is an integer; every ratio is an exact fraction string
 * "num/den" (reduced, den >= 1; see fraction.ts) or null when undefined.
 *
 * Notation. N = population, H = max_steps. Snapshot t holds B(t), the
 * burning set, and every person's status and cell. Step t is the transition
 * from snapshot t to t+1. Person i's outcome step s_i is its evacuation step
 * (evacuated), death step (casualty) or H (stranded).
 *
 * Person-states. Person i has one person-state (i, t) for every snapshot
 * t = 0 .. s_i - 1: the snapshots at which it is active (an evacuee or
 * casualty with step s contributes t = 0..s-1, a stranded person t = 0..H-1).
 * Its cell in (i, t) is its cell at snapshot t.
 *
 * Fire distance. d(i, t) = Manhattan distance (walls ignored) from i's cell
 * at snapshot t to the nearest cell of B(t); undefined when B(t) is empty.
 * A person-state is in the danger zone when 0 < d <= HAZARD_RADIUS (= 2)
 * (HAZARD_RADIUS and inDangerZone live in fire-distance.ts).
 *
 * Outcome counts
 * - population: N, the number of placed people.
 * - evacuated, casualties, stranded: people whose final status is
 *   evacuated, dead, stranded; they sum to N.
 * - evacuation_rate: evacuated / population.
 * - evacuation_steps.sum: sum of the evacuation steps of evacuees;
 *   .mean: sum / evacuated (null with no evacuee); .max: the largest
 *   evacuation step (null with no evacuee).
 *
 * Congestion (action-log diagnostics, never scored)
 * - moves_attempted: over all steps, the active persons whose action is not
 *   STAY (including moves later blocked and moves of people who then die).
 * - blocked_moves.occupied / .conflict / .cycle: attempted moves the public
 *   resolver blocked, by block kind (environment.md section 4.1); .total is
 *   their sum.
 * - congestion_block_rate: blocked_moves.total / moves_attempted (null when
 *   no move was attempted).
 *
 * Fire
 * - fire_exposure: the number of person-states in the danger zone, over all
 *   people (evacuees, casualties and stranded alike).
 * - min_fire_distance: the least d(i, t) over all person-states with B(t)
 *   non-empty; null when B(t) is empty at every person-state (no fire, or
 *   fire only after everyone was resolved).
 *
 * Path (static bound; the score uses a fire-aware one instead)
 * - path_efficiency.static_shortest_sum: over evacuees, the wall-only
 *   shortest-path distance (moves over floor and exit cells, ignoring fire and
 *   people) from the start cell to the nearest exit.
 * - .moved_sum: over evacuees, the number of steps in which the person's cell
 *   changed (a successful move; the move onto the exit counts).
 * - .ratio: static_shortest_sum / moved_sum (null with no evacuee), in (0, 1].
 *
 * - per_exit_evacuations: one [row, col, count] per exit cell, row-major over
 *   all exits of the map (count 0 included): evacuations through that exit.
 *
 * Crowd diagnostics (never scored)
 * - contested: in one step, a cell is contested when two or more active
 *   persons' moves target it (the resolver's `contested` list).
 * - crowd.contested_cell_steps: the sum over steps of the number of contested
 *   cells in that step.
 * - crowd.hotspot_cells: the number of distinct cells contested in any step.
 * - crowd.peak_contested_cells: the largest number of contested cells in one
 *   step (0 when none ever).
 * - crowd.exit_throughput: evacuations per exit-step inside each exit's
 *   window. For an exit with at least one evacuation, its window is
 *   last - first + 1, with first and last its earliest and latest evacuation
 *   steps. Throughput = evacuated / (sum of the windows of those exits); null
 *   with no evacuee. At most one person leaves through an exit per step, so
 *   it is in (0, 1].
 *
 * Cost: O(person-steps) plus the incremental fire-distance update (at most
 * O(cells) per step, usually only the cells near new fire).
 */

import { ValidationError } from '../errors.js';
import { ACTIVE, DEAD, EVACUATED, STRANDED, type EpisodeObserver, type EpisodeOutcome, type PersonStatus, type StepEvent } from '../sim/events.js';
import { BLOCKED_CONFLICT, BLOCKED_CYCLE, BLOCKED_OCCUPIED } from '../sim/resolver.js';
import { BENCHMARK_VERSIONS } from '../versions.js';
import { STAY, cellPair } from '../world/grid.js';
import { fireGrowth } from '../world/fire.js';
import type { EpisodeStart } from '../world/scenario-types.js';
import { FireDistanceField, NO_FIRE, inDangerZone } from './fire-distance.js';
import { fractionOrNull, formatFraction } from './fraction.js';
import { staticExitDistance } from './static-distance.js';

export const METRICS_VERSION = BENCHMARK_VERSIONS.metrics_version;
export const CROWD_DIAGNOSTICS_VERSION = BENCHMARK_VERSIONS.crowd_diagnostics_version;

/**
 * The person-states of a person are the snapshots t = 0 .. end - 1, with end
 * this function's value: the evacuation or death step, or H (`maxSteps`) for
 * a stranded person.
 */
export function personStateEnd(status: PersonStatus, statusStep: number, maxSteps: number): number {
  switch (status) {
    case EVACUATED:
    case DEAD:
      return statusStep;
    case STRANDED:
      return maxSteps;
    case ACTIVE:
      throw new RangeError('an active person has no final person-state count');
  }
}

export type EvacuationSteps = { readonly sum: number; readonly mean: string | null; readonly max: number | null };
export type BlockedMoves = { readonly occupied: number; readonly conflict: number; readonly cycle: number; readonly total: number };
export type PathEfficiency = { readonly static_shortest_sum: number; readonly moved_sum: number; readonly ratio: string | null };
export type ExitEvacuations = readonly [row: number, col: number, count: number];
export type CrowdDiagnostics = {
  readonly contested_cell_steps: number;
  readonly hotspot_cells: number;
  readonly peak_contested_cells: number;
  readonly exit_throughput: string | null;
};

/** The metrics JSON object of one episode (canonical-JSON ready: integers, strings, null). */
export type EpisodeMetrics = {
  readonly metrics_version: string;
  readonly crowd_diagnostics_version: string;
  readonly population: number;
  readonly evacuated: number;
  readonly casualties: number;
  readonly stranded: number;
  readonly evacuation_rate: string;
  readonly evacuation_steps: EvacuationSteps;
  readonly moves_attempted: number;
  readonly blocked_moves: BlockedMoves;
  readonly congestion_block_rate: string | null;
  readonly fire_exposure: number;
  readonly min_fire_distance: number | null;
  readonly path_efficiency: PathEfficiency;
  readonly per_exit_evacuations: readonly ExitEvacuations[];
  readonly crowd: CrowdDiagnostics;
};

/** Per-person data computed along the way, indexed by person; the scoring code reuses it. */
export interface PersonMetrics {
  /** Final status (EVACUATED, DEAD or STRANDED), from the outcome. */
  readonly status: Uint8Array;
  /** Evacuation or death step, H for stranded (= personStateEnd). */
  readonly statusStep: Int32Array;
  /** Evacuation step, or -1 when not evacuated. */
  readonly evacuationStep: Int32Array;
  /** Exit cell the person left through, or -1. */
  readonly exitCell: Int32Array;
  /** Steps in which the person's cell changed (the move onto the exit counts). */
  readonly cellsMoved: Int32Array;
  /** Danger-zone person-states. */
  readonly dangerStates: Int32Array;
  /** Wall-only distance from the start cell to the nearest exit, or -1 when none is reachable. */
  readonly staticDistance: Int32Array;
}

export class MetricsObserver implements EpisodeObserver {
  /** onStep keeps counts, never the event's arrays: the driver may recycle them. */
  readonly readsOnlyDuringStep = true;
  private readonly population: number;
  private readonly fire: FireDistanceField;
  private readonly exitIndex = new Map<number, number>();
  private readonly exitCount: Int32Array;
  private readonly exitFirst: Int32Array;
  private readonly exitLast: Int32Array;
  private readonly hotspot: Uint8Array;
  private readonly activeSteps: Int32Array;
  private readonly deathStep: Int32Array;
  private readonly persons: Omit<PersonMetrics, 'status' | 'statusStep'>;
  private steps = 0;
  private movesAttempted = 0;
  // Blocked moves counted by block code (index NOT_BLOCKED stays unused).
  private readonly blockedByCode = new Int32Array(4);
  private minFireDistance = NO_FIRE;
  private contestedCellSteps = 0;
  private hotspotCells = 0;
  private peakContested = 0;
  private outcome: EpisodeOutcome | null = null;

  constructor(private readonly start: EpisodeStart) {
    const grid = start.scenario.grid;
    const n = start.startCells.length;
    this.population = n;
    this.fire = new FireDistanceField(grid);
    this.fire.addBurning(fireGrowth(start.fire).newlyAt(0));
    grid.exits.forEach((cell, k) => this.exitIndex.set(cell, k));
    const exits = grid.exits.length;
    this.exitCount = new Int32Array(exits);
    this.exitFirst = new Int32Array(exits).fill(-1);
    this.exitLast = new Int32Array(exits).fill(-1);
    this.hotspot = new Uint8Array(grid.rows * grid.cols);
    this.activeSteps = new Int32Array(n);
    this.deathStep = new Int32Array(n).fill(-1);
    const exitDistance = staticExitDistance(grid);
    const staticDistance = new Int32Array(n);
    for (let i = 0; i < n; i++) staticDistance[i] = exitDistance[start.startCells[i]!]!;
    this.persons = {
      evacuationStep: new Int32Array(n).fill(-1),
      exitCell: new Int32Array(n).fill(-1),
      cellsMoved: new Int32Array(n),
      dangerStates: new Int32Array(n),
      staticDistance,
    };
  }

  onStep(e: StepEvent): void {
    if (this.outcome !== null) throw new ValidationError('metrics input: step event after the end of the episode');
    if (e.t !== this.steps) throw new ValidationError(`metrics input: expected step ${this.steps}, got step ${e.t}`);
    const { active, cellsBefore, moves, resolution } = e;
    const m = active.length;
    if (cellsBefore.length !== m || moves.length !== m || resolution.cells.length !== m) {
      throw new ValidationError(`metrics input: step ${e.t} arrays differ in length`);
    }
    const p = this.persons;
    const fire = this.fire;
    const hasFire = fire.hasFire;
    const t1 = e.t + 1;
    for (let k = 0; k < m; k++) {
      const i = active[k]!;
      if (i < 0 || i >= this.population) throw new ValidationError(`metrics input: step ${e.t} names unknown person ${i}`);
      this.activeSteps[i]!++;
      const before = cellsBefore[k]!;
      // Person-state (i, t): its cell at snapshot t against B(t), before this step's fire phase.
      if (hasFire) {
        const d = fire.at(before);
        if (d < this.minFireDistance) this.minFireDistance = d;
        if (inDangerZone(d)) p.dangerStates[i]!++;
      }
      if (moves[k] !== STAY) this.movesAttempted++;
      const code = resolution.blocked[k]!;
      if (code > BLOCKED_CYCLE) throw new ValidationError(`metrics input: unknown block code ${code}`);
      this.blockedByCode[code]!++;
      const after = resolution.cells[k]!;
      if (after !== before) p.cellsMoved[i]!++;
      if (resolution.evacuated[k] === 1) this.recordEvacuation(i, after, t1);
    }
    for (const i of e.died) {
      if (i < 0 || i >= this.population) throw new ValidationError(`metrics input: step ${e.t} kills unknown person ${i}`);
      this.deathStep[i] = t1;
    }
    const contested = resolution.contested;
    this.contestedCellSteps += contested.length;
    if (contested.length > this.peakContested) this.peakContested = contested.length;
    for (const c of contested) {
      if (this.hotspot[c] === 0) {
        this.hotspot[c] = 1;
        this.hotspotCells++;
      }
    }
    fire.addBurning(e.newlyBurning);
    this.steps = t1;
  }

  private recordEvacuation(i: number, exit: number, step: number): void {
    const k = this.exitIndex.get(exit);
    if (k === undefined) throw new ValidationError(`metrics input: person ${i} evacuated on cell ${exit}, which is not an exit`);
    this.persons.evacuationStep[i] = step;
    this.persons.exitCell[i] = exit;
    this.exitCount[k]!++;
    if (this.exitFirst[k] === -1) this.exitFirst[k] = step;
    this.exitLast[k] = step;
  }

  /**
   * Records the outcome and checks it against the events: every evacuation
   * and death step must match, and every person must have been active in
   * exactly its person-states.
   */
  onEnd(o: EpisodeOutcome): void {
    if (this.outcome !== null) throw new ValidationError('metrics input: the episode ended twice');
    const n = this.population;
    if (o.status.length !== n || o.statusStep.length !== n) {
      throw new ValidationError(`metrics input: outcome covers ${o.status.length} people, the episode has ${n}`);
    }
    if (o.steps !== this.steps) throw new ValidationError(`metrics input: outcome says ${o.steps} steps, the events ${this.steps}`);
    const maxSteps = this.start.scenario.maxSteps;
    for (let i = 0; i < n; i++) {
      const status = o.status[i]! as PersonStatus;
      const step = o.statusStep[i]!;
      let expected: number;
      switch (status) {
        case EVACUATED:
          expected = this.persons.evacuationStep[i]!;
          break;
        case DEAD:
          expected = this.deathStep[i]!;
          break;
        case STRANDED:
          expected = maxSteps;
          break;
        default:
          throw new ValidationError(`metrics input: person ${i} has non-final status ${status}`);
      }
      if (step !== expected) throw new ValidationError(`metrics input: person ${i} outcome step ${step} does not match the events (${expected})`);
      if (status !== EVACUATED && this.persons.evacuationStep[i] !== -1) {
        throw new ValidationError(`metrics input: person ${i} evacuated in the events but not in the outcome`);
      }
      if (this.activeSteps[i] !== personStateEnd(status, step, maxSteps)) {
        throw new ValidationError(`metrics input: person ${i} is active in ${this.activeSteps[i]} steps, expected ${step}`);
      }
    }
    this.outcome = o;
  }

  /** The per-person data; available after onEnd. */
  personMetrics(): PersonMetrics {
    const o = this.ended();
    return { ...this.persons, status: o.status, statusStep: o.statusStep };
  }

  /** The metrics JSON object; available after onEnd. */
  result(): EpisodeMetrics {
    const o = this.ended();
    const n = this.population;
    const p = this.persons;
    let evacuated = 0;
    let casualties = 0;
    let stranded = 0;
    let stepSum = 0;
    let stepMax = -1;
    let staticSum = 0;
    let movedSum = 0;
    let fireExposure = 0;
    for (let i = 0; i < n; i++) {
      fireExposure += p.dangerStates[i]!;
      switch (o.status[i]! as PersonStatus) {
        case EVACUATED: {
          evacuated++;
          const s = o.statusStep[i]!;
          stepSum += s;
          if (s > stepMax) stepMax = s;
          staticSum += p.staticDistance[i]!;
          movedSum += p.cellsMoved[i]!;
          break;
        }
        case DEAD:
          casualties++;
          break;
        case STRANDED:
          stranded++;
          break;
        default:
          throw new ValidationError(`metrics input: person ${i} has a non-final status`);
      }
    }
    const grid = this.start.scenario.grid;
    let windowSum = 0;
    const perExit: ExitEvacuations[] = grid.exits.map((cell, k) => {
      if (this.exitCount[k]! > 0) windowSum += this.exitLast[k]! - this.exitFirst[k]! + 1;
      const [row, col] = cellPair(grid, cell);
      return [row, col, this.exitCount[k]!] as const;
    });
    const occupied = this.blockedByCode[BLOCKED_OCCUPIED]!;
    const conflict = this.blockedByCode[BLOCKED_CONFLICT]!;
    const cycle = this.blockedByCode[BLOCKED_CYCLE]!;
    const blocked = occupied + conflict + cycle;
    return {
      metrics_version: METRICS_VERSION,
      crowd_diagnostics_version: CROWD_DIAGNOSTICS_VERSION,
      population: n,
      evacuated,
      casualties,
      stranded,
      evacuation_rate: formatFraction(evacuated, n),
      evacuation_steps: { sum: stepSum, mean: fractionOrNull(stepSum, evacuated), max: evacuated > 0 ? stepMax : null },
      moves_attempted: this.movesAttempted,
      blocked_moves: { occupied, conflict, cycle, total: blocked },
      congestion_block_rate: fractionOrNull(blocked, this.movesAttempted),
      fire_exposure: fireExposure,
      min_fire_distance: this.minFireDistance === NO_FIRE ? null : this.minFireDistance,
      path_efficiency: { static_shortest_sum: staticSum, moved_sum: movedSum, ratio: fractionOrNull(staticSum, movedSum) },
      per_exit_evacuations: perExit,
      crowd: {
        contested_cell_steps: this.contestedCellSteps,
        hotspot_cells: this.hotspotCells,
        peak_contested_cells: this.peakContested,
        exit_throughput: fractionOrNull(evacuated, windowSum),
      },
    };
  }

  private ended(): EpisodeOutcome {
    if (this.outcome === null) throw new Error('metrics are available only after the episode ended');
    return this.outcome;
  }
}

/** Metrics and per-person data of an episode given as its start, step events and outcome. */
export function computeMetrics(
  start: EpisodeStart,
  events: Iterable<StepEvent>,
  outcome: EpisodeOutcome,
): { readonly metrics: EpisodeMetrics; readonly persons: PersonMetrics } {
  const observer = new MetricsObserver(start);
  for (const e of events) observer.onStep(e);
  observer.onEnd(outcome);
  return { metrics: observer.result(), persons: observer.personMetrics() };
}
