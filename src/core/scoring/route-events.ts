/**
 * Route-invalidation events and the Replanning inputs (scoring-v1.0.md
 * section 4.2).
 *
 * An event happens at a snapshot t >= 1 where the burning set changed
 * (B(t) != B(t-1)), for a person active in snapshot t on cell x, when the
 * fire-aware distance from x to the nearest non-burning exit (shortest path
 * through non-wall, non-burning cells) was finite under B(t-1) and is
 * longer or infinite under B(t). It is recoverable when L(x, t) is finite;
 * its resolution step r is the person's evacuation step, or H when the
 * person is lost (died or stranded: censored at the horizon).
 *
 * Replanning R = sum(L(x_e, t_e) - t_e) / sum(r_e - t_e) over recoverable
 * events, defined with at least one. The numerator is a privileged lower
 * bound of the denominator: an evacuee's remaining trajectory from
 * (x_e, t_e) is a single-person escape, so r_e >= L(x_e, t_e); a lost
 * person has r_e = H >= L(x_e, t_e).
 *
 * "Active in snapshot t" is read from the step events: the persons of the
 * step that starts at t. So snapshot H, where nobody acts any more and every
 * remaining person is stranded, has no events (L(x, H) is infinite, so such
 * an event could never be recoverable anyway).
 *
 * The distance field is one multi-source BFS from the non-burning exits at
 * the start, then repaired at each step where the fire changed
 * (ExitField.update: only the cells that lost every shortest route are
 * settled again), so a step costs what the new fire changed, not O(cells).
 * Its values are those of fireAwareDistances at every step (the repair
 * equals a fresh search; route-events.test.ts checks both on growing fires).
 */

// The baselines' repairable distance field: general code that lives beside its first users.
import { ExitField } from '../baselines/exit-field.js';
import type { EpisodeObserver, EpisodeOutcome, StepEvent } from '../sim/events.js';
import { EVACUATED } from '../sim/events.js';
import { EXIT, WALL, type Grid } from '../world/grid.js';
import type { FireWorld } from '../world/scenario-types.js';
import { NO_ESCAPE, type References } from './references.js';

/** Fire-aware distance of a cell from which no non-burning exit can be reached. */
export const NO_ROUTE = 0x7fffffff;

export interface RouteEvent {
  /** Person index. */
  readonly person: number;
  /** t_e: the snapshot at which the route got longer or was lost. */
  readonly step: number;
  /** x_e: the person's cell at snapshot t_e. */
  readonly cell: number;
  /** Fire-aware distances to the nearest non-burning exit under B(t_e - 1) and B(t_e) (NO_ROUTE when none). */
  readonly distanceBefore: number;
  readonly distanceAfter: number;
  /** L(x_e, t_e) is finite. */
  readonly recoverable: boolean;
  /** L(x_e, t_e), or NO_ESCAPE. */
  readonly earliest: number;
  /** r_e: the evacuation step, or H when the person was lost. */
  readonly resolution: number;
}

export interface RouteEventSummary {
  /** Every event, by step then person order. */
  readonly events: readonly RouteEvent[];
  readonly recoverableCount: number;
  /** sum(L(x_e, t_e) - t_e) over recoverable events. */
  readonly replanningNumerator: number;
  /** sum(r_e - t_e) over recoverable events; R is defined only when recoverableCount >= 1. */
  readonly replanningDenominator: number;
}

/**
 * Fire-aware distances under B(t): BFS from the exits not in B(t) through
 * floor cells not in B(t). Exits are never passed through (a person who
 * steps onto one leaves). Fills and returns `out` (NO_ROUTE where
 * unreachable); `queue` is scratch of the grid's size.
 */
export function fireAwareDistances(grid: Grid, fire: FireWorld, t: number, out: Int32Array, queue: Int32Array): Int32Array {
  const { kinds, cols } = grid;
  const size = grid.rows * cols;
  const ign = fire.ignitionStep;
  out.fill(NO_ROUTE, 0, size);
  let tail = 0;
  for (const e of grid.exits) {
    if (ign[e]! <= t) continue;
    out[e] = 0;
    queue[tail++] = e;
  }
  let head = 0;
  while (head < tail) {
    const x = queue[head++]!;
    const next = out[x]! + 1;
    const col = x % cols;
    for (let k = 0; k < 4; k++) {
      const y = k === 0 ? (x >= cols ? x - cols : -1) : k === 1 ? (col + 1 < cols ? x + 1 : -1) : k === 2 ? (x + cols < size ? x + cols : -1) : col > 0 ? x - 1 : -1;
      if (y < 0 || out[y] !== NO_ROUTE) continue;
      const kind = kinds[y];
      if (kind === WALL || kind === EXIT || ign[y]! <= t) continue;
      out[y] = next;
      queue[tail++] = y;
    }
  }
  return out;
}

/** The field keeps no route danger: no penalties, and none change. */
const NO_PENALTY = new Int32Array(0);
const NO_CELLS = new Int32Array(0);

interface PendingEvent {
  readonly person: number;
  readonly step: number;
  readonly cell: number;
  readonly distanceBefore: number;
  readonly distanceAfter: number;
  readonly earliest: number;
}

/**
 * Detects route-invalidation events from an episode's step events. Give it
 * to the runner or the replay as an observer; read summary() after onEnd.
 */
export class RouteEventObserver implements EpisodeObserver {
  /** onStep copies what it keeps (person, cell): the driver may recycle the event's arrays. */
  readonly readsOnlyDuringStep = true;
  /** Fire-aware distances under the burning set of snapshot `beforeStep`. */
  private readonly field: ExitField;
  /** That burning set, as the field's mask. */
  private readonly burning: Uint8Array;
  /** Scratch: the distances before the repair at the active persons' cells. */
  private was = new Int32Array(16);
  /** The snapshot whose burning set `field` reflects. */
  private beforeStep = 0;
  private readonly pending: PendingEvent[] = [];
  private result: RouteEventSummary | null = null;

  constructor(
    readonly grid: Grid,
    readonly fire: FireWorld,
    readonly references: References,
  ) {
    const size = grid.rows * grid.cols;
    if (fire.ignitionStep.length !== size || references.cellCount !== size) throw new RangeError('grid, fire world and references disagree in size');
    this.burning = new Uint8Array(size);
    for (let cell = 0; cell < size; cell++) if (fire.ignitionStep[cell]! <= 0) this.burning[cell] = 1;
    this.field = new ExitField(grid, grid.exits, false);
    this.field.rebuild(this.burning, NO_PENALTY);
  }

  onStep(event: StepEvent): void {
    const t = event.t;
    if (this.result !== null) throw new Error('route events: a step after the end of the episode');
    if (t < 1 || this.fire.newlyBurning[t]!.length === 0) return;
    // Steps arrive in order and every fire change advances the field, so it shows B(t-1) here.
    if (t <= this.beforeStep) throw new Error(`route events: step ${t} arrived after step ${this.beforeStep}`);
    const dist = this.field.dist;
    const n = event.active.length;
    if (this.was.length < n) this.was = new Int32Array(Math.max(n, this.was.length * 2));
    const was = this.was;
    for (let k = 0; k < n; k++) was[k] = dist[event.cellsBefore[k]!]!;
    // B(t) = B(t-1) plus the cells that ignite at t.
    const added = this.fire.newlyBurning[t]!;
    for (let i = 0; i < added.length; i++) this.burning[added[i]!] = 1;
    this.field.update(added, NO_CELLS, this.burning, NO_PENALTY);
    const table = this.references.earliestTable;
    for (let k = 0; k < n; k++) {
      const x = event.cellsBefore[k]!;
      const before = was[k]!;
      const now = dist[x]!;
      if (before === NO_ROUTE || now <= before) continue;
      this.pending.push({ person: event.active[k]!, step: t, cell: x, distanceBefore: before, distanceAfter: now, earliest: table.at(x, t) });
    }
    this.beforeStep = t;
  }

  onEnd(outcome: EpisodeOutcome): void {
    const H = this.fire.maxSteps;
    const events: RouteEvent[] = [];
    let recoverableCount = 0;
    let numerator = 0;
    let denominator = 0;
    for (const p of this.pending) {
      const resolution = outcome.status[p.person] === EVACUATED ? outcome.statusStep[p.person]! : H;
      const recoverable = p.earliest !== NO_ESCAPE;
      if (recoverable) {
        recoverableCount++;
        numerator += p.earliest - p.step;
        denominator += resolution - p.step;
      }
      events.push({ ...p, recoverable, resolution });
    }
    this.result = { events, recoverableCount, replanningNumerator: numerator, replanningDenominator: denominator };
  }

  /** The events and Replanning sums; only after onEnd. */
  summary(): RouteEventSummary {
    if (this.result === null) throw new Error('route events: the episode has not ended');
    return this.result;
  }
}
