/**
 * The resolver on observation values, for agents: predicts which moves of an
 * action set succeed, without any privileged information.
 */

import { actionToDirection, type ActionSet } from './actions.js';
import type { Observation } from './observation.js';
import { MovementResolver, blockKind, type BlockKind } from './resolver.js';
import { gridFromMap, type Grid } from '../world/grid.js';

export interface PredictedMove {
  readonly id: string;
  /** The cell after movement, `[row, col]` (the exit for an evacuee). */
  readonly cell: readonly [number, number];
  readonly blocked: BlockKind | null;
  readonly evacuated: boolean;
}

/**
 * A predictor for one map. Agents keep one per episode: the grid and the
 * resolver's scratch arrays are built once.
 */
export class MovePredictor {
  readonly grid: Grid;
  private readonly resolver: MovementResolver;

  constructor(map: readonly string[]) {
    this.grid = gridFromMap(map);
    this.resolver = new MovementResolver(this.grid);
  }

  /** Predicts the resolver's outcome of `actions` (missing persons STAY) for the observed people. */
  predict(observation: Observation, actions: ActionSet): PredictedMove[] {
    const cols = this.grid.cols;
    const people = observation.people;
    const cells = new Int32Array(people.length);
    const moves = new Uint8Array(people.length);
    for (let i = 0; i < people.length; i++) {
      const person = people[i]!;
      cells[i] = person.cell[0] * cols + person.cell[1];
      moves[i] = actionToDirection(actions[person.id] ?? 'STAY');
    }
    const result = this.resolver.resolve(cells, moves);
    return people.map((person, i) => {
      const cell = result.cells[i]!;
      return {
        id: person.id,
        cell: [Math.floor(cell / cols), cell % cols] as const,
        blocked: blockKind(result.blocked[i] as 0 | 1 | 2 | 3),
        evacuated: result.evacuated[i] === 1,
      };
    });
  }
}

/** One-off prediction (builds the grid each call; agents should keep a MovePredictor). */
export function predictMoves(observation: Observation, actions: ActionSet): PredictedMove[] {
  return new MovePredictor(observation.map).predict(observation, actions);
}
