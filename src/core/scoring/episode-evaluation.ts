/**
 * From one replayed episode to the inputs of the episode score and the
 * person-level evidence (scoring-v1.0.md sections 3, 4.1, 4.2, 4.4).
 *
 * Every input is a function of the authenticated state trajectory
 * (positions, statuses, fire), never of the action log: the outcome and
 * per-person data come from the metrics pass over the replayed step events,
 * the route events from a replay with the RouteEventObserver, and the
 * references from the fire world and the start cells. Blocked moves appear
 * only in the congestion diagnostics, which are never score inputs.
 *
 * Attribution is per person: person i is savable when L_i is finite. A dead
 * savable person is an avoidable casualty, a stranded savable person an
 * avoidable stranded person; the unsavable ones are unavoidable losses. An
 * unavoidable loss never offsets an avoidable one (the rejected draft rule
 * c = max(0, C - (N - M*)) would).
 *
 * Bounds are checked per person and in total: an evacuee's evacuation step,
 * cells moved and danger-zone states are at least its single-person
 * optimum, and Q_cut is at most the sum of the evacuation steps. A record
 * that breaks one can only be forged, and is a scoring input error (exit 3).
 */

import { ValidationError } from '../errors.js';
import type { EpisodeMetrics, PersonMetrics } from '../metrics/metrics.js';
import { DEAD, EVACUATED, STRANDED, type EpisodeOutcome } from '../sim/events.js';
import { personId } from '../sim/observation.js';
import type { RunRecord } from '../sim/record.js';
import { replayFromStart } from '../sim/authenticate-record.js';
import type { EpisodeStart } from '../world/scenario-types.js';
import { capacityBounds } from './capacity-bounds.js';
import { NO_ESCAPE, computeReferences, type References } from './references.js';
import { RouteEventObserver, type RouteEventSummary } from './route-events.js';

/** The people of an episode-trial by outcome class (scoring-v1.0.md 4.1), IDs sorted in person order. */
export interface PeopleEvidence {
  readonly population: number;
  readonly evacuated: number;
  /** c: the number of avoidable casualties. */
  readonly avoidable_casualties: number;
  /** s: the number of avoidable stranded people. */
  readonly avoidable_stranded: number;
  readonly avoidable_casualty_ids: readonly string[];
  readonly avoidable_stranded_ids: readonly string[];
  readonly unavoidable_casualty_ids: readonly string[];
  readonly unavoidable_stranded_ids: readonly string[];
}

/** The privileged references of the episode-trial, summed over its evacuees where per person. */
export interface ReferenceEvidence {
  /** M*: people with a finite L_i. */
  readonly max_evacuated: number;
  /** sum(L_i) over the evacuees. */
  readonly earliest_sum: number;
  /** Q_exit (evacuee_time_queue_bound). */
  readonly evacuee_time_queue_bound: number;
  /** Q_cut (evacuee_time_cut_bound), the Time reference. */
  readonly evacuee_time_cut_bound: number;
  /** D* = sum(D*_i) over the evacuees. */
  readonly fewest_danger_states: number;
  /** sum(m*_i) over the evacuees. */
  readonly fewest_moves: number;
  /** sum(L(x_e, t_e) - t_e) over the recoverable route-invalidation events. */
  readonly replanning_bound: number;
}

/** The realized values the references bound. */
export interface ActualEvidence {
  /** sum(A_i) over the evacuees. */
  readonly evacuation_steps: number;
  /** D: the evacuees' danger-zone person-states. */
  readonly danger_states: number;
  /** sum(m_i) over the evacuees. */
  readonly cells_moved: number;
  readonly route_events: number;
  readonly recoverable_route_events: number;
  /** sum(r_e - t_e) over the recoverable route-invalidation events. */
  readonly replanning_steps: number;
}

/**
 * Congestion and crowd diagnostics of the episode-trial (never score
 * inputs), kept as the integers the report pools.
 */
export interface CongestionEvidence {
  readonly moves_attempted: number;
  readonly blocked_moves: number;
  readonly contested_cell_steps: number;
  readonly hotspot_cells: number;
  readonly peak_contested_cells: number;
  /** Evacuations, and the sum over exits of each exit's window (last - first evacuation step + 1). */
  readonly exit_evacuations: number;
  readonly exit_window_steps: number;
}

/** Everything the episode score is computed from, for one authenticated episode-trial. */
export interface EpisodeFacts {
  readonly people: PeopleEvidence;
  readonly references: ReferenceEvidence;
  readonly actual: ActualEvidence;
  readonly congestion: CongestionEvidence;
}

/** The replayed data the facts are computed from. */
export interface ReplayedEpisode {
  readonly start: EpisodeStart;
  readonly outcome: EpisodeOutcome;
  readonly metrics: EpisodeMetrics;
  readonly persons: PersonMetrics;
}

function scoringInputError(problem: string): ValidationError {
  return new ValidationError(`scoring input error: ${problem}`);
}

/** The references of an episode start (the evaluator seed's fire world and start cells). */
export function episodeReferences(start: EpisodeStart): References {
  return computeReferences(start.scenario.grid, start.fire, start.startCells);
}

/**
 * The route-invalidation events of an authenticated record: a replay with
 * the RouteEventObserver (the replay check runs again, so the events come
 * from the authenticated trajectory only).
 */
export function routeEventsOf(start: EpisodeStart, refs: References, record: RunRecord, source: string): RouteEventSummary {
  const observer = new RouteEventObserver(start.scenario.grid, start.fire, refs);
  replayFromStart(start, record, [observer], source);
  return observer.summary();
}

function congestionOf(episode: ReplayedEpisode): CongestionEvidence {
  const { metrics, persons } = episode;
  // Exit windows from the per-person data: first and last evacuation step per exit cell.
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  for (let i = 0; i < persons.exitCell.length; i++) {
    const exit = persons.exitCell[i]!;
    if (exit < 0) continue;
    const step = persons.evacuationStep[i]!;
    if (!first.has(exit) || step < first.get(exit)!) first.set(exit, step);
    if (!last.has(exit) || step > last.get(exit)!) last.set(exit, step);
  }
  let windows = 0;
  for (const [exit, step] of first) windows += last.get(exit)! - step + 1;
  return {
    moves_attempted: metrics.moves_attempted,
    blocked_moves: metrics.blocked_moves.total,
    contested_cell_steps: metrics.crowd.contested_cell_steps,
    hotspot_cells: metrics.crowd.hotspot_cells,
    peak_contested_cells: metrics.crowd.peak_contested_cells,
    exit_evacuations: metrics.evacuated,
    exit_window_steps: windows,
  };
}

/**
 * The score inputs and evidence of one authenticated episode-trial. `refs`
 * must be the references of `episode.start`, `routes` the route events of
 * the same trajectory. Throws a ValidationError (scoring input error) when
 * an actual value is below its privileged bound.
 */
export function episodeFacts(episode: ReplayedEpisode, refs: References, routes: RouteEventSummary): EpisodeFacts {
  const { start, outcome, persons } = episode;
  const n = start.startCells.length;
  if (outcome.status.length !== n || refs.earliestEvacuation.length !== n) {
    throw scoringInputError(`the outcome covers ${outcome.status.length} people and the references ${refs.earliestEvacuation.length}, the episode has ${n}`);
  }
  const evacuees: number[] = [];
  const avoidableCasualties: string[] = [];
  const avoidableStranded: string[] = [];
  const unavoidableCasualties: string[] = [];
  const unavoidableStranded: string[] = [];
  let earliestSum = 0;
  let evacuationSteps = 0;
  let fewestDanger = 0;
  let dangerStates = 0;
  let fewestMoves = 0;
  let cellsMoved = 0;
  for (let i = 0; i < n; i++) {
    const earliest = refs.earliestEvacuation[i]!;
    const savable = earliest !== NO_ESCAPE;
    const status = outcome.status[i]!;
    switch (status) {
      case EVACUATED: {
        const id = personId(i);
        if (!savable) throw scoringInputError(`${id} is evacuated but cannot escape even alone`);
        const step = outcome.statusStep[i]!;
        const moved = persons.cellsMoved[i]!;
        const danger = persons.dangerStates[i]!;
        const minMoves = refs.fewestMoves[i]!;
        const minDanger = refs.fewestDangerStates[i]!;
        if (step < earliest) throw scoringInputError(`${id} evacuated at step ${step}, before its earliest possible step ${earliest}`);
        if (moved < minMoves) throw scoringInputError(`${id} moved ${moved} cells, fewer than the ${minMoves} any escape needs`);
        if (danger < minDanger) throw scoringInputError(`${id} has ${danger} danger-zone states, fewer than the ${minDanger} any escape has`);
        evacuees.push(i);
        earliestSum += earliest;
        evacuationSteps += step;
        fewestMoves += minMoves;
        cellsMoved += moved;
        fewestDanger += minDanger;
        dangerStates += danger;
        break;
      }
      case DEAD:
        (savable ? avoidableCasualties : unavoidableCasualties).push(personId(i));
        break;
      case STRANDED:
        (savable ? avoidableStranded : unavoidableStranded).push(personId(i));
        break;
      default:
        throw scoringInputError(`${personId(i)} has no final status`);
    }
  }
  const bounds = capacityBounds(start.scenario.grid, start.fire, refs, evacuees);
  if (bounds.earliestSum !== earliestSum) throw new Error('capacity bounds and references disagree on sum(L_i)');
  if (bounds.cutBound > evacuationSteps) {
    throw scoringInputError(`the evacuation steps sum to ${evacuationSteps}, below the capacity bound Q_cut = ${bounds.cutBound}`);
  }
  if (routes.replanningNumerator > routes.replanningDenominator) {
    throw scoringInputError(`the recovery steps sum to ${routes.replanningDenominator}, below their bound ${routes.replanningNumerator}`);
  }
  return {
    people: {
      population: n,
      evacuated: evacuees.length,
      avoidable_casualties: avoidableCasualties.length,
      avoidable_stranded: avoidableStranded.length,
      avoidable_casualty_ids: avoidableCasualties,
      avoidable_stranded_ids: avoidableStranded,
      unavoidable_casualty_ids: unavoidableCasualties,
      unavoidable_stranded_ids: unavoidableStranded,
    },
    references: {
      max_evacuated: refs.maxEvacuated,
      earliest_sum: earliestSum,
      evacuee_time_queue_bound: bounds.queueBound,
      evacuee_time_cut_bound: bounds.cutBound,
      fewest_danger_states: fewestDanger,
      fewest_moves: fewestMoves,
      replanning_bound: routes.replanningNumerator,
    },
    actual: {
      evacuation_steps: evacuationSteps,
      danger_states: dangerStates,
      cells_moved: cellsMoved,
      route_events: routes.events.length,
      recoverable_route_events: routes.recoverableCount,
      replanning_steps: routes.replanningDenominator,
    },
    congestion: congestionOf(episode),
  };
}
